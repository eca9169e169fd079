import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("NMEA: Magellan PMGNTRK sentences")
struct NMEAMagellanTests {
    typealias T = TrackTestSupport
    typealias R = TrackReferenceTools

    /// `$body*hh` with the right checksum.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$" + body + "*" + String(format: "%02X", checksum)
    }

    @Test("gpsbabel's Magellan track log of a GPX fixture reads as gpxpy reads the GPX")
    func gpsbabelMagellan() async throws {
        let folder = try TemporaryFolder()
        let gpx = Fixtures.url("tracks/around-visnjan-with-car.gpx")
        let log = folder.url.appendingPathComponent("visnjan.log")
        try await R.gpsbabel(["-t", "-i", "gpx", "-f", gpx.path, "-o", "magellan", "-F", log.path])
        let data = try Data(contentsOf: log)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("$PMGNTRK,"))
        #expect(TrackFormat.detect(data: data, fileName: "x") == .nmea)
        // Thousandths of a minute and whole metres.
        R.expectSame(try TrackFile.read(data, fileName: "visnjan.log").flatMap(\.fixes), try await R.referenceFixes("gpx", gpx),
                     degrees: 0.5 / 60_000 + 1e-9, metres: 0.5)
    }

    @Test("PMGNTRK with its date field; altitude in feet becomes metres; V is no fix")
    func dated() throws {
        let text = [
            Self.sentence("PMGNTRK,4600.000,N,01400.000,E,01000,F,235959.50,A,MyTrack,311224"),
            Self.sentence("PMGNTRK,4600.001,N,01400.001,E,00300,M,000000.50,V,MyTrack,010125"),
            Self.sentence("PMGNTRK,4600.002,S,01400.002,W,00300,M,000001.00,A,,010125"),
        ].joined(separator: "\n")
        let fixes = try #require(try T.read(text, as: "track.log").first?.fixes)
        #expect(fixes.count == 2)
        #expect(fixes[0].time == T.date("2024-12-31T23:59:59.500Z"))
        #expect(abs((fixes[0].altitude ?? 0) - 304.8) < 1e-9)
        #expect(fixes[1].time == T.date("2025-01-01T00:00:01Z"))
        #expect(abs(fixes[1].latitude + (46 + 0.002 / 60)) < 1e-9 && abs(fixes[1].longitude + (14 + 0.002 / 60)) < 1e-9)
    }

    @Test("PMGNTRK without a date takes it from the RMC sentences of the same log")
    func mixedWithRMC() throws {
        let text = [
            Self.sentence("PMGNTRK,4600.000,N,01400.000,E,00100,M,120000.00,A,,"),
            Self.sentence("GPRMC,120001.00,A,4600.010,N,01400.010,E,0.0,0.0,010524,,,A"),
            Self.sentence("PMGNTRK,4600.020,N,01400.020,E,00102,M,120002.00,A,Track"),
        ].joined(separator: "\r\n")
        let fixes = try #require(try T.read(text, as: "mixed.nmea").first?.fixes)
        #expect(fixes.map(\.time) == [T.date("2024-05-01T12:00:00Z"), T.date("2024-05-01T12:00:01Z"), T.date("2024-05-01T12:00:02Z")])
        #expect(fixes.map(\.altitude) == [100, nil, 102])
    }

    @Test("PMGNTRK without a date and no RMC is refused, saying where a date would come from")
    func undated() throws {
        let text = Self.sentence("PMGNTRK,4600.000,N,01400.000,E,00100,M,120000.00,A,,") + "\n"
        let error = try #require(T.formatError { try T.read(text, as: "undated.log") })
        #expect(error.message.contains("PMGNTRK"))
        #expect(error.message.contains("RMC"))
    }

    @Test("A PMGNTRK with a bad checksum is skipped and counted")
    func badChecksum() throws {
        let good = Self.sentence("PMGNTRK,4600.000,N,01400.000,E,00100,M,120000.00,A,,010524")
        let bad = String(good.dropLast(2)) + (good.hasSuffix("00") ? "01" : "00")
        let fixes = try #require(try T.read(good + "\n" + bad.replacingOccurrences(of: "120000", with: "120001"), as: "x.log").first?.fixes)
        #expect(fixes.count == 1)
        let error = try #require(T.formatError { try T.read(bad, as: "x.log") })
        #expect(error.message.contains("wrong checksum"))
    }

    @Test("The recorder's streaming parser emits dated PMGNTRK fixes too")
    func streaming() {
        var parser = NMEAStreamParser()
        let text = Self.sentence("PMGNTRK,4600.000,N,01400.000,E,00100,M,120000.00,A,,010524") + "\n"
            + Self.sentence("PMGNTRK,4600.001,N,01400.000,E,00100,M,120001.00,A,,010524") + "\n"
        let events = parser.consume(Array(text.utf8)) + parser.finish()
        let times: [Date] = events.compactMap { if case .fix(let fix) = $0 { fix.time } else { nil } }
        #expect(times == [T.date("2024-05-01T12:00:00Z"), T.date("2024-05-01T12:00:01Z")])
    }
}
