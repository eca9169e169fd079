import Foundation
import Testing
@testable import WaymarkCore

@Suite("Track format writers round-trip")
struct TrackFormatRoundTripTests {
    /// Two tracks with awkward values: southern/western hemispheres, sub-millisecond-free times,
    /// missing altitudes, a name, and values that `Double.description` would print in exponent form.
    static let tracks: [Track] = [
        Track(name: "Vršič & <back>", fixes: [
            Fix(latitude: 46.434981234, longitude: 13.748273456, altitude: 1614.678, accuracy: 7.5, time: Date(timeIntervalSince1970: 1_714_564_800.123)),
            Fix(latitude: 46.4349, longitude: 13.7482, altitude: nil, accuracy: nil, time: Date(timeIntervalSince1970: 1_714_564_801.5)),
            Fix(latitude: 0.00001, longitude: -0.0000002, altitude: -12.5, accuracy: 3, time: Date(timeIntervalSince1970: 1_714_564_802)),
        ]),
        Track(name: "Vršič & <back>", fixes: [
            Fix(latitude: -37.784788333, longitude: -175.314896667, altitude: 59.9, accuracy: 5.5, time: Date(timeIntervalSince1970: 1_714_568_400.999)),
            Fix(latitude: 89.9999999, longitude: 179.9999999, altitude: 0, accuracy: nil, time: Date(timeIntervalSince1970: 1_714_568_401)),
        ]),
    ]

    @Test("Written tracks read back equal within 1e-7° and 1 ms", arguments: [WritableTrackFormat.gpx, .kml, .geoJSON])
    func roundTrip(format: WritableTrackFormat) throws {
        let data = TrackFile.write(Self.tracks, as: format)
        #expect(TrackFormat.detect(data: data, fileName: "x") == format.format)
        let read = try TrackFile.read(data, fileName: "roundtrip.\(format.fileExtension)")
        #expect(read.count == Self.tracks.count)
        for (original, copy) in zip(Self.tracks, read) {
            #expect(copy.fixes.count == original.fixes.count)
            for (a, b) in zip(original.fixes, copy.fixes) {
                #expect(b.isClose(to: a, checkAccuracy: format == .gpx), "\(a) vs \(b)")
            }
        }
        #expect(read.first?.name == "Vršič & <back>")
    }

    @Test("NMEA output reads back as one track with the same fixes, accuracy via HDOP")
    func nmeaRoundTrip() throws {
        let data = TrackFile.write(Self.tracks, as: .nmea)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("$GPRMC,120000.123,A,4626.098874,N,01344.896407,E,,,010524,,,A*"))
        let read = try TrackFile.read(data, fileName: "roundtrip.nmea")
        let fixes = try #require(read.first).fixes
        let originals = Self.tracks.flatMap(\.fixes)
        #expect(fixes.count == originals.count)
        for (a, b) in zip(originals, fixes) {
            #expect(b.isClose(to: a, checkAccuracy: true), "\(a) vs \(b)")
        }
    }

    @Test("GPX output is GPX 1.1 with UTC millisecond times, and without exponent notation")
    func gpxShape() {
        let text = String(decoding: TrackFile.write(Self.tracks, as: .gpx), as: UTF8.self)
        #expect(text.contains("<gpx version=\"1.1\""))
        #expect(text.contains("<time>2024-05-01T12:00:00.123Z</time>"))
        #expect(text.contains("lat=\"0.00001\" lon=\"-0.0000002\""))
        #expect(!text.contains("e-"))
        #expect(text.components(separatedBy: "<trkseg>").count == 3)
        #expect(text.components(separatedBy: "<trk>").count == 2)
    }

    @Test("A large GPX track round-trips intact")
    func largeTrack() throws {
        let fixes = (0..<20_000).map { i in
            Fix(latitude: 46 + Double(i) * 1e-6, longitude: 14 - Double(i) * 1e-6, altitude: Double(i % 300), time: Date(timeIntervalSince1970: 1_700_000_000 + Double(i)))
        }
        for format in WritableTrackFormat.allCases {
            let read = try TrackFile.read(TrackFile.write([Track(fixes: fixes)], as: format), fileName: "big.\(format.fileExtension)")
            #expect(read.first?.fixes.count == fixes.count, "\(format)")
            #expect(read.first?.fixes.last.map { $0.isClose(to: fixes[fixes.count - 1]) } == true, "\(format)")
        }
    }

    @Test("A GPX file above 10 MB (100,000 points) reads: XML is fed to the parser in chunks")
    func gpxAboveTenMegabytes() throws {
        let fixes = (0..<100_000).map { i in
            Fix(latitude: 46 + Double(i) * 1e-6, longitude: 14, altitude: 500, accuracy: 5, time: Date(timeIntervalSince1970: 1_700_000_000 + Double(i)))
        }
        let data = TrackFile.write([Track(fixes: fixes)], as: .gpx)
        #expect(data.count > 10_000_000)
        let read = try TrackFile.read(data, fileName: "big.gpx")
        #expect(read.first?.fixes.count == fixes.count)
    }
}
