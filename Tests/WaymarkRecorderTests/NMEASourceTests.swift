#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore
@testable import WaymarkRecorder

@Suite("NMEA source: devices, FIFOs and log replays")
struct NMEASourceTests {
    /// Writes all of `data` to `fd` in pieces of 1 to 97 bytes, so lines arrive cut up as from a serial port.
    static func writeInPieces(_ data: [UInt8], to fd: Int32) throws {
        var generator = SplitMix(seed: 7)
        var offset = 0
        while offset < data.count {
            let length = min(Int.random(in: 1...97, using: &generator), data.count - offset)
            let written = data[offset..<(offset + length)].withUnsafeBytes { write(fd, $0.baseAddress, length) }
            guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            offset += written
        }
    }

    /// Opens the writing end of a FIFO whose reader is already open.
    static func openWriter(_ path: String) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_NONBLOCK)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        _ = fcntl(fd, F_SETFL, 0)   // blocking writes from here on
        return fd
    }

    /// Fed through a FIFO, `data` comes out as these events; the stream ends when the writer closes.
    static func events(throughFIFO data: [UInt8]) async throws -> [LocationEvent] {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("receiver").path
        guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let source = NMEASource(path: fifo)
        #expect(source.isLive)
        #expect(source.description == "NMEA receiver at \(fifo)")
        return try await withTimeout(30, waitingFor: "the FIFO to be read") {
            try await withThrowingTaskGroup(of: [LocationEvent].self) { group in
                group.addTask { try await collect(source.events()) }
                try await waitForDescriptors(to: fifo, count: 1)
                let writer = try openWriter(fifo)
                try writeInPieces(data, to: writer)
                close(writer)
                return try await group.next() ?? []
            }
        }
    }

    @Test("A FIFO is read live: each epoch of the log becomes one fix, as the log reader sees it")
    func fifo() async throws {
        let log = Fixtures.url("nmea/ublox-neo-m9n-nmea.log")
        let events = try await Self.events(throughFIFO: [UInt8](try Data(contentsOf: log)))
        #expect(events.fixes == (try fixes(of: log)))
        #expect(!events.contains(.noFix))
    }

    @Test("Broken input never crashes and yields only the valid fixes: garbage, cut-off lines, wrong checksums")
    func brokenInput() async throws {
        let log = Fixtures.url("nmea/nmea-fuzzy-cases.log")
        let valid = try fixes(of: log)
        let lines = String(decoding: try Data(contentsOf: log), as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        var generator = SplitMix(seed: 42)
        var input: [UInt8] = []
        for line in lines {
            let bytes = Array(line.utf8)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0:   // garbage, with sentence-like bytes in it
                let alphabet = Array("$*,GPRMCGA0123456789.NEW\0\u{FF}\r".utf8)
                input += (0..<Int.random(in: 1...120, using: &generator)).map { _ in
                    Bool.random(using: &generator) ? alphabet.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0...255, using: &generator)
                } + [0x0A]
            case 1:   // a sentence cut off by the next one, as after a dropped byte run
                input += bytes.prefix(Int.random(in: 1..<bytes.count, using: &generator))
            case 2 where bytes.contains(0x2A):   // the same sentence with a wrong checksum, before the right one
                var broken = bytes
                broken[broken.count - 1] = broken[broken.count - 1] == 0x30 ? 0x31 : 0x30
                input += broken + [0x0D, 0x0A]
            default:
                break
            }
            input += bytes + [0x0D, 0x0A]
        }
        // A last sentence cut off by the end of the input.
        input += Array("$GPGGA,133901.00,4134.50180291,N,09345.03586858,W,4,19,0.7,2".utf8)
        let events = try await Self.events(throughFIFO: input)
        #expect(events.fixes == valid)

        // And pure noise, through the parser directly: no fix, no crash.
        var parser = NMEAStreamParser()
        var noise = [UInt8](repeating: 0, count: 1 << 20)
        for i in noise.indices { noise[i] = UInt8.random(in: 0...255, using: &generator) }
        let fromNoise = parser.consume(noise) + parser.finish()
        #expect(fromNoise.fixes.isEmpty)
    }

    @Test("A pseudo-terminal (a character device like /dev/ttyACM0) is read in raw mode and closed when the iteration is cancelled")
    func pseudoTerminal() async throws {
        let terminal = try PseudoTerminal()
        defer { withExtendedLifetime(terminal) {} }
        let path = terminal.path
        let master = terminal.master
        let source = NMEASource(path: path, baud: 9600)
        #expect(source.isLive)
        let log = Fixtures.url("nmea/garmin15x.log")
        let expected = try fixes(of: log)
        let received = try await withTimeout(30, waitingFor: "the pty to be read") {
            try await withThrowingTaskGroup(of: [Fix].self) { group in
                group.addTask { try await collect(source.events()) { $0.fixes.count == 3 }.fixes }
                try await waitForDescriptors(to: path, count: 1)
                try await Task.sleep(for: .milliseconds(100))   // raw mode is set right after opening
                // The first 40 lines hold 4 fixes and stay below the pty's 4 KiB buffer, so writing
                // never blocks once the reader has stopped.
                let lines = String(decoding: try Data(contentsOf: log), as: UTF8.self).split(separator: "\n").prefix(40)
                try Self.writeInPieces(Array(lines.joined(separator: "\n").utf8) + [0x0A], to: master)
                return try await group.next() ?? []
            }
        }
        #expect(received == Array(expected.prefix(3)))
        // Pausing released the device.
        try await waitForDescriptors(to: path, count: 0, timeout: 5)
    }

    @Test("Cancelling while no byte arrives closes the device at once")
    func cancelWhileWaiting() async throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("silent").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let task = Task { try await collect(NMEASource(path: fifo).events()) }
        try await waitForDescriptors(to: fifo, count: 1)
        task.cancel()
        // No byte ever comes: the device is closed because of the cancellation, not because of data.
        try await waitForDescriptors(to: fifo, count: 0, timeout: 5)
        #expect(try await task.value.isEmpty)
    }

    @Test("A log file replays re-timed to now, paced by speed, and finishes at its end")
    func fileReplay() async throws {
        let log = Fixtures.url("nmea/ublox-neo-m9n-nmea.log")
        let original = try fixes(of: log)
        let source = NMEASource(path: log.path, speed: 200)
        #expect(!source.isLive)
        #expect(source.description == "replay of ublox-neo-m9n-nmea.log at 200×")
        let started = Date()
        let events = try await withTimeout(30, waitingFor: "the replay to finish") { try await collect(source.events()) }
        let replayed = events.fixes
        #expect(replayed.count == original.count)
        #expect(zip(replayed, original).allSatisfy { $0.latitude == $1.latitude && $0.longitude == $1.longitude && $0.altitude == $1.altitude })
        let finished = Date()
        let first = try #require(replayed.first)
        let span = try #require(original.last).time.timeIntervalSince(original[0].time) / 200
        // Stamped with the present: not before the replay was asked for, and early enough for the
        // last fix, `span` later, to have arrived by the end.
        #expect(first.time >= started)
        #expect(first.time.addingTimeInterval(span) <= finished.addingTimeInterval(0.001))
        for (copy, fix) in zip(replayed, original) {
            let expectedOffset = fix.time.timeIntervalSince(original[0].time) / 200
            #expect(abs(copy.time.timeIntervalSince(first.time) - expectedOffset) < 1e-6)
        }
        // It took at least as long as the sped-up log lasts.
        #expect(finished.timeIntervalSince(started) >= span * 0.9)
    }

    @Test("A missing device says to plug in the receiver")
    func missing() async throws {
        let source = NMEASource(path: "/dev/ttyACM99")
        #expect(source.isLive)
        let error = try await #require(throws: NMEASourceError.self) { _ = try await collect(source.events()) }
        #expect(error == .missing(path: "/dev/ttyACM99"))
        #expect(error.description.contains("Is the receiver plugged in"))
    }

    @Test("Permission denied mentions the dialout group")
    func permissionDenied() {
        // Tests run as root here, which no permission stops; check the mapping of the error itself.
        let error = SerialDevice.openError(path: "/dev/ttyACM0", errno: EACCES)
        #expect(error == .permissionDenied(path: "/dev/ttyACM0"))
        #expect(error.description.contains("dialout"))
        #expect(error.description.contains("sudo usermod -aG dialout $USER"))
    }

    @Test("A file without NMEA fixes is refused, saying why")
    func noFixes() async throws {
        let folder = try TemporaryFolder()
        let noFix = Fixtures.url("nmea/holux-gm-210.log")
        let error = try await #require(throws: TrackFormatError.self) { _ = try await collect(NMEASource(path: noFix.path, speed: 100).events()) }
        #expect(error.message.contains("no fix with a date"))
        let gpx = try folder.copy(fixture: "tracks/gpx1.1_with_all_fields.gpx")
        let notNMEA = try await #require(throws: NMEASourceError.self) { _ = try await collect(NMEASource(path: gpx.path).events()) }
        #expect(notNMEA == .notNMEA(path: gpx.path))
        let unsupported = try await #require(throws: NMEASourceError.self) { _ = try await collect(NMEASource(path: folder.url.path).events()) }
        #expect(unsupported.description.contains("is a folder"))
    }

    @Test("An unsupported baud rate is refused with the ones that work")
    func badBaud() async throws {
        let terminal = try PseudoTerminal()
        defer { withExtendedLifetime(terminal) {} }
        let path = terminal.path
        let error = try await #require(throws: NMEASourceError.self) { _ = try await collect(NMEASource(path: path, baud: 12_345).events()) }
        #expect(error == .unsupportedBaudRate(12_345))
        #expect(error.description.contains("9600"))
    }

    @Test("The streaming parser reads every fixture log as the whole-log reader does", arguments: [
        "GPSmap-76S.log", "bu353s4.log", "bundg_zeus_9.log", "garmin15x.log", "holux-gm-210.log",
        "nmea-fuzzy-cases.log", "quectel-L70.log", "quectel-l76k-nmea.log", "telit-he910.log", "ublox-neo-m9n-nmea.log",
    ])
    func streamMatchesReader(file: String) throws {
        let data = try Fixtures.data("nmea/\(file)")
        var parser = NMEAStreamParser()
        let streamed = (parser.consume(data) + parser.finish()).fixes
        let read = (try? TrackFile.read(data, fileName: file).flatMap(\.fixes)) ?? []
        // The whole-log reader sorts by time; the stream keeps the receiver's order.
        let sorted = streamed.sorted { $0.time < $1.time }
        #expect(sorted.count == read.count)
        // The one intended difference: an epoch without GGA takes its HDOP from GSA, which the
        // log reader ignores (bundg_zeus_9.log has such epochs).
        func same(_ streamed: Fix, _ read: Fix) -> Bool {
            var copy = streamed
            if read.accuracy == nil { copy.accuracy = nil }
            return copy == read
        }
        if let index = sorted.indices.first(where: { $0 < read.count && !same(sorted[$0], read[$0]) }) {
            Issue.record("fix \(index) differs: streamed \(sorted[index]), read \(read[index])")
        }
    }
}
