import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("FIT reader")
struct FITReaderTests {
    typealias T = TrackTestSupport
    typealias R = TrackReferenceTools

    /// A FIT file written by a tool (fit-tool, or the hand-built one of scripts/track-files.py).
    static func make(_ kind: String, _ extra: [String] = []) async throws -> (URL, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("activity.fit")
        try await R.script(["write", kind, url.path] + extra)
        return (url, folder)
    }

    @Test("A fit-tool activity reads fix by fix as fitparse reads it; records without a position are skipped")
    func fitTool() async throws {
        let (url, folder) = try await Self.make("fit", ["--fixes", "300"])
        defer { _ = folder }
        let tracks = try TrackFile.read(contentsOf: url)
        #expect(tracks.count == 1)
        R.expectSame(tracks.flatMap(\.fixes), try await R.referenceFixes("fit", url))
        #expect(tracks.first?.fixes.count == 300)
    }

    @Test("Several sessions become one track each, and their fixes are fitparse's")
    func sessions() async throws {
        let (url, folder) = try await Self.make("fit", ["--fixes", "240", "--sessions", "3"])
        defer { _ = folder }
        let tracks = try TrackFile.read(contentsOf: url)
        #expect(tracks.map(\.fixes.count) == [80, 80, 80])
        R.expectSame(tracks.flatMap(\.fixes), try await R.referenceFixes("fit", url))
    }

    /// Garmin's auto-pause stops the timer while the rider stands still, which is when photos are
    /// taken; splitting there would leave those photos in a gap between tracks, so it does not.
    @Test("A timer stop and start (auto-pause) inside a session does not split the track")
    func autoPause() async throws {
        let (url, folder) = try await Self.make("fit", ["--fixes", "100", "--pause-at", "50"])
        defer { _ = folder }
        let tracks = try TrackFile.read(contentsOf: url)
        #expect(tracks.map(\.fixes.count) == [100])
        let fixes = try #require(tracks.first?.fixes)
        #expect(fixes[50].time.timeIntervalSince(fixes[49].time) == 121)
        await R.expectSame(fixes, try R.referenceFixes("fit", url))
    }

    /// fit-tool writes only normal record headers, so scripts/track-files.py builds this file byte
    /// by byte from the FIT protocol: compressed-timestamp headers whose 5-bit offset wraps,
    /// a big-endian record definition with a developer field, and a record without a position.
    @Test("Compressed timestamps, big-endian definitions and developer fields read as fitparse reads them")
    func compressedTimestamps() async throws {
        let (url, folder) = try await Self.make("fit-compressed")
        defer { _ = folder }
        let fixes = try TrackFile.read(contentsOf: url).flatMap(\.fixes)
        let reference = try await R.referenceFixes("fit", url)
        #expect(reference.count == 79)
        R.expectSame(fixes, reference)
        // Two seconds apart throughout, also where the 5-bit offset rolls over.
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 2 || $1.time.timeIntervalSince($0.time) == 4 })
    }

    @Test("gpsbabel's FIT of a GPX fixture reads as fitparse reads it and matches the GPX within FIT's resolution")
    func gpsbabelFIT() async throws {
        let folder = try TemporaryFolder()
        let gpx = Fixtures.url("tracks/around-visnjan-with-car.gpx")
        let fit = folder.url.appendingPathComponent("visnjan.fit")
        try await R.gpsbabel(["-t", "-i", "gpx", "-f", gpx.path, "-o", "garmin_fit", "-F", fit.path])
        let fixes = try TrackFile.read(contentsOf: fit).flatMap(\.fixes)
        await R.expectSame(fixes, try R.referenceFixes("fit", fit))
        // Semicircles resolve 8.4e-8°; FIT's altitude 0.2 m.
        await R.expectSame(fixes, try R.referenceFixes("gpx", gpx), degrees: 1e-7, metres: 0.2)
    }

    @Test("Two FIT files chained in one give two tracks")
    func chained() async throws {
        let (first, folderA) = try await Self.make("fit", ["--fixes", "50"])
        let (second, folderB) = try await Self.make("fit-compressed")
        defer { _ = (folderA, folderB) }
        let data = try Data(contentsOf: first) + Data(contentsOf: second)
        let tracks = try TrackFile.read(data, fileName: "chained.fit")
        #expect(tracks.map(\.fixes.count).sorted() == [50, 79])
    }

    @Test("Detected by its header, whatever the file is called")
    func detection() async throws {
        let (url, folder) = try await Self.make("fit-compressed")
        defer { _ = folder }
        #expect(TrackFormat.detect(data: try Data(contentsOf: url), fileName: "track.gpx") == .fit)
        #expect(TrackFormat.detect(data: try Data(contentsOf: url), fileName: "noext") == .fit)
    }

    // MARK: - Hand-broken files

    @Test("A FIT file cut at every length is refused with a clear error, never read in part")
    func truncatedEverywhere() async throws {
        let (url, folder) = try await Self.make("fit-compressed")
        defer { _ = folder }
        let data = try Data(contentsOf: url)
        for length in 0..<data.count {
            let error = T.formatError { try TrackFile.read(data.prefix(length), fileName: "cut.fit") }
            #expect(error?.file == "cut.fit", "length \(length)")
            if length >= 14 {
                #expect(error?.message.contains("damaged or truncated") == true, "length \(length): \(String(describing: error))")
            }
        }
    }

    @Test("Any flipped byte after the header is caught by the checksum")
    func flippedByte() async throws {
        let (url, folder) = try await Self.make("fit-compressed")
        defer { _ = folder }
        let data = try Data(contentsOf: url)
        for index in 14..<data.count {
            var broken = data
            broken[index] ^= 0x10
            let error = try #require(T.formatError { try TrackFile.read(broken, fileName: "flip.fit") })
            #expect(error.message.contains("checksum that does not match its contents"), "byte \(index): \(error)")
        }
    }

    @Test("A header announcing more data than the file holds is refused as cut off")
    func hugeDeclaredSize() async throws {
        let (url, folder) = try await Self.make("fit-compressed")
        defer { _ = folder }
        var bytes = [UInt8](try Data(contentsOf: url))
        bytes.replaceSubrange(4..<8, with: [0xF0, 0xFF, 0xFF, 0xFF])
        let crc = FITReader.crc(bytes, 0..<12)
        bytes.replaceSubrange(12..<14, with: [UInt8(crc & 0xFF), UInt8(crc >> 8)])
        let error = try #require(T.formatError { try TrackFile.read(Data(bytes), fileName: "huge.fit") })
        #expect(error.message.contains("cut off"))
        #expect(error.message.contains("4,294,967,280"))
    }

    /// A FIT file around `body`, with a valid header and file checksum, so that only the messages are hostile.
    static func fitFile(_ body: [UInt8]) -> Data {
        var bytes: [UInt8] = [12, 0x20, 0x54, 0x08] + withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init) + Array(".FIT".utf8)
        bytes += body
        let crc = FITReader.crc(bytes, 0..<bytes.count)
        return Data(bytes + [UInt8(crc & 0xFF), UInt8(crc >> 8)])
    }

    @Test("Definitions with absurd field counts or sizes are refused, not read past the end", arguments: [
        // 255 fields declared, 2 given.
        ([0x40, 0, 0, 20, 0, 255, 253, 4, 0x86, 0, 4, 0x85] as [UInt8], "255 fields"),
        // 255 developer fields declared, none given.
        ([0x60, 0, 0, 20, 0, 1, 253, 4, 0x86, 255], "255 developer fields"),
        // A data message of 2 × 255 bytes, with 4 bytes left.
        ([0x40, 0, 0, 20, 0, 2, 0, 255, 0x0D, 1, 255, 0x0D, 0x00, 1, 2, 3, 4], "ends inside a data message"),
        // A byte order that is neither 0 nor 1.
        ([0x40, 0, 7, 20, 0, 1, 253, 4, 0x86], "unknown byte order"),
        // A data message for a local type never defined.
        ([0x05, 1, 2, 3], "never defined"),
        // A compressed timestamp before any full one.
        ([0x40, 0, 0, 20, 0, 1, 0, 4, 0x85, 0x81, 1, 2, 3, 4], "before any full timestamp"),
    ])
    func hostileDefinitions(body: [UInt8], expected: String) throws {
        let error = try #require(T.formatError { try TrackFile.read(Self.fitFile(body), fileName: "hostile.fit") })
        #expect(error.message.contains(expected), "\(error)")
    }

    @Test("An activity without positions (indoors) says so")
    func noPositions() throws {
        // One record: timestamp only.
        let body: [UInt8] = [0x40, 0, 0, 20, 0, 1, 253, 4, 0x86, 0x00, 0x00, 0x00, 0x00, 0x40]
        let error = try #require(T.formatError { try TrackFile.read(Self.fitFile(body), fileName: "indoor.fit") })
        #expect(error.message.contains("1 records have no position"), "\(error)")
    }
}
