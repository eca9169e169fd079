import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("Track format detection and errors")
struct TrackFormatTests {
    typealias T = TrackTestSupport

    @Test("Every shared fixture is recognised from its content alone")
    func detectFixtures() throws {
        for folder in ["tracks", "nmea"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url(folder).path)
            #expect(!names.isEmpty)
            for name in names {
                let data = try Fixtures.data("\(folder)/\(name)")
                let expected: TrackFormat = folder == "nmea" ? .nmea : .gpx
                #expect(TrackFormat.detect(data: data, fileName: "no-extension") == expected, "\(name)")
            }
        }
    }

    /// Fixtures that hold no usable track, and the words their error must contain.
    static let refused: [String: String] = [
        "cerknicko-without-times.gpx": "<time>",      // 291 of 296 track points lost their times
        "holux-gm-210.log": "no fix with a date",     // receiver never got a fix (status V, quality 0)
        "GPSmap-76S.log": "no fix with a date",       // receiver in simulator mode
        "Mojstrovka.gpx": "same time",                // every point at the 32-bit "no time" value
    ]

    @Test("Every shared fixture reads into non-empty, sorted tracks, or is refused with a clear reason")
    func readEveryFixture() throws {
        for folder in ["tracks", "nmea"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.url(folder).path).sorted() {
                do {
                    let tracks = try TrackFile.read(contentsOf: Fixtures.url("\(folder)/\(name)"))
                    #expect(Self.refused[name] == nil, "\(name) should have been refused")
                    #expect(!tracks.isEmpty && tracks.allSatisfy { !$0.fixes.isEmpty }, "\(name)")
                    #expect(tracks.allSatisfy { zip($0.fixes, $0.fixes.dropFirst()).allSatisfy { $0.time <= $1.time } }, "\(name)")
                    #expect(zip(tracks, tracks.dropFirst()).allSatisfy { ($0.start ?? .distantPast) <= ($1.start ?? .distantPast) }, "\(name)")
                } catch let error as TrackFormatError {
                    let expected = try #require(Self.refused[name], "\(name) failed: \(error)")
                    #expect(error.message.contains(expected), "\(name): \(error)")
                    #expect(error.file == name)
                }
            }
        }
    }

    @Test("Content wins over the extension; the extension is the fallback", arguments: [
        ("<?xml version=\"1.0\"?><kml>", "x.gpx", TrackFormat.kml),
        ("  {\"type\":\"Feature\"}", "x.txt", .geoJSON),
        ("# comment\n$GNRMC,1,A", "x.txt", .nmea),
        ("\u{FEFF}<gpx version=\"1.1\">", "x", .gpx),
        ("not much here", "x.kml", .kml),
        ("not much here", "x.geojson", .geoJSON),
    ])
    func detect(content: String, name: String, expected: TrackFormat) {
        #expect(TrackFormat.detect(data: Data(content.utf8), fileName: name) == expected)
    }

    @Test("UTF-16 files with a byte-order mark are sniffed too")
    func utf16() throws {
        var data = Data([0xFF, 0xFE])
        data.append(try #require("<gpx version=\"1.1\">".data(using: .utf16LittleEndian)))
        #expect(TrackFormat.detect(data: data, fileName: "x") == .gpx)
    }

    @Test("Unknown content with an unknown extension is not guessed")
    func unknown() {
        #expect(TrackFormat.detect(data: Data("hello".utf8), fileName: "notes.txt") == nil)
    }

    @Test("An empty file is refused as empty", arguments: ["", "  \n\r\n"])
    func empty(content: String) throws {
        let error = try #require(T.formatError { try T.read(content, as: "track.gpx") })
        #expect(error.message.hasPrefix("is empty"))
        #expect(error.description == "track.gpx: \(error.message)")
    }

    @Test("Garbage bytes are refused, whatever the extension", arguments: ["photo.jpg", "track.gpx", "track.kml", "track.geojson"])
    func garbage(name: String) throws {
        let data = Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        let error = try #require(T.formatError { try TrackFile.read(data, fileName: name) })
        #expect(error.file == name)
        #expect(!error.message.isEmpty)
    }

    @Test("A ZIP (KMZ) is recognised and the user told to unzip it")
    func kmz() throws {
        let error = try #require(T.formatError { try TrackFile.read(Data([0x50, 0x4B, 0x03, 0x04, 1, 2, 3]), fileName: "trip.kmz") })
        #expect(error.message.contains("unzip"))
    }

    @Test("The description reads FILE:LINE: message")
    func description() {
        #expect(TrackFormatError(file: "a.gpx", line: 12, message: "is broken — fix it").description == "a.gpx:12: is broken — fix it")
        #expect(TrackFormatError(file: "a.gpx", message: "is broken").description == "a.gpx: is broken")
    }

    @Test("A missing file says it cannot be opened")
    func missing() throws {
        let error = try #require(T.formatError { try TrackFile.read(contentsOf: URL(fileURLWithPath: "/nonexistent/x.gpx")) })
        #expect(error.file == "x.gpx")
        #expect(error.message.contains("cannot be opened"))
    }

    @Test("ISO 8601 times: fractions of any length, offsets, no zone")
    func isoTimes() {
        #expect(TrackTime.parse("1901-12-13T20:45:52.2073437Z").map { abs($0.timeIntervalSince1970 + 2_147_483_647.7926563) < 1e-6 } == true)
        #expect(TrackTime.parse("2024-02-29T23:30:00-01:00") == T.date("2024-03-01T00:30:00Z"))
        #expect(TrackTime.parse("2024-02-29T23:30:00+0530") == T.date("2024-02-29T18:00:00Z"))
        #expect(TrackTime.parse("2024-02-29 23:30:00") == T.date("2024-02-29T23:30:00Z"))
        #expect(TrackTime.parse("2024-13-01T00:00:00Z") == nil)
        #expect(TrackTime.parse("2024-01-01") == nil)
        #expect(TrackTime.format(T.date("1969-12-31T23:59:59.999Z")) == "1969-12-31T23:59:59.999Z")
    }
}
