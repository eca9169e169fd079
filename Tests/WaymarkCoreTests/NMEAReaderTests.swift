import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("NMEA reader")
struct NMEAReaderTests {
    typealias T = TrackTestSupport

    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        var count: Int
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var time: String
        var description: String { file }
    }

    /// First fixes checked by hand against the logs: ddmm.mmmm → dd + mm.mmmm / 60.
    static let receivers: [Expectation] = [
        .init(file: "bu353s4.log", count: 25, latitude: -(37 + 47.0873 / 60), longitude: 175 + 18.8938 / 60, altitude: 59.9, time: "2014-12-31T03:07:19Z"),
        // The first GGA comes before any RMC: its date is back-filled from the next RMC.
        .init(file: "bundg_zeus_9.log", count: 148, latitude: 52 + 51.0094 / 60, longitude: 5 + 18.8172 / 60, altitude: -4, time: "2018-08-20T09:47:36Z"),
        .init(file: "garmin15x.log", count: 7, latitude: 32 + 38.9148 / 60, longitude: -(108 + 22.4466 / 60), altitude: 1577.4, time: "2022-10-18T11:32:58Z"),
        .init(file: "nmea-fuzzy-cases.log", count: 14, latitude: 41 + 34.49821229 / 60, longitude: -(93 + 45.03351845 / 60), altitude: 278.020, time: "2020-03-18T13:28:20.600Z"),
        .init(file: "quectel-L70.log", count: 16, latitude: 51 + 4.0859 / 60, longitude: -(114 + 5.7387 / 60), altitude: 1102.4, time: "2022-03-09T15:01:19Z"),
        .init(file: "quectel-l76k-nmea.log", count: 151, latitude: 47 + 39.71890 / 60, longitude: -(122 + 19.58362 / 60), altitude: nil, time: "2026-08-05T05:52:34Z"),
        // The receiver's clock stepped back 0.3 s after its first fix: sorted by time, 10:51:53.408 comes first.
        .init(file: "telit-he910.log", count: 187, latitude: 50 + 50.4122 / 60, longitude: 4 + 20.8265 / 60, altitude: 109.0, time: "2019-03-12T10:51:53.408Z"),
        .init(file: "ublox-neo-m9n-nmea.log", count: 61, latitude: 38 + 6.62964 / 60, longitude: -(122 + 37.61382 / 60), altitude: 83.1, time: "2020-07-11T22:37:45Z"),
    ]

    @Test("Logs from real receivers read into one track with the right first fix and fix count", arguments: receivers)
    func receiverLogs(expected: Expectation) throws {
        let tracks = try T.readFixture("nmea/\(expected.file)")
        #expect(tracks.count == 1)
        let track = try #require(tracks.first)
        #expect(track.fixes.count == expected.count)
        let first = try #require(track.fixes.first)
        #expect(first.isClose(to: Fix(latitude: expected.latitude, longitude: expected.longitude, altitude: expected.altitude ?? first.altitude, time: T.date(expected.time))))
        if let altitude = expected.altitude { #expect(first.altitude == altitude) }
        #expect(zip(track.fixes, track.fixes.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("GGA's HDOP becomes accuracy (hdop × 5 m) on the merged RMC+GGA fix")
    func mergedEpoch() throws {
        let track = try #require(try T.readFixture("nmea/garmin15x.log").first)
        let first = try #require(track.fixes.first)
        #expect(abs((first.accuracy ?? 0) - 5.5) < 1e-9)
        #expect(first.altitude == 1577.4)
    }

    @Test("Logs without a single valid fix are refused, saying why", arguments: ["holux-gm-210.log", "GPSmap-76S.log"])
    func noFix(file: String) throws {
        let error = try #require(T.formatError { try T.readFixture("nmea/\(file)") })
        #expect(error.file == file)
        #expect(error.message.contains("NMEA sentences but no fix with a date"))
        #expect(error.message.contains("reported no fix"))
    }

    @Test("Sentences with a wrong checksum are skipped, those without one accepted")
    func checksums() throws {
        let log = """
        $GPRMC,120000,A,4600.000,N,01400.000,E,0.0,0.0,010524,,*\(Self.checksum("GPRMC,120000,A,4600.000,N,01400.000,E,0.0,0.0,010524,,"))
        $GPRMC,120001,A,4700.000,N,01400.000,E,0.0,0.0,010524,,*00
        $GPRMC,120002,A,4600.000,N,01400.000,E,0.0,0.0,010524,,
        $GPRMC,120003,A,4600.000,N,01400.000,E,0.0,0.0,010524,,*4
        """
        let fixes = try #require(try T.read(log, as: "sum.nmea").first).fixes
        #expect(fixes.map(\.time) == [T.date("2024-05-01T12:00:00Z"), T.date("2024-05-01T12:00:02Z")])
        #expect(fixes.allSatisfy { $0.latitude == 46 })
    }

    @Test("Every talker id is read: GP, GN, GL, GA, BD, GB", arguments: ["GP", "GN", "GL", "GA", "BD", "GB"])
    func talkers(talker: String) throws {
        let log = [
            Self.sentence("\(talker)RMC,083000.00,A,4603.0000,N,01430.0000,E,0.0,,150624,,,A"),
            Self.sentence("\(talker)GGA,083000.00,4603.0000,N,01430.0000,E,1,08,1.2,295.5,M,45.0,M,,"),
            Self.sentence("\(talker)GNS,083001.00,4603.0060,N,01430.0000,E,AN,08,1.0,296.0,45.0,,"),
        ].joined(separator: "\r\n")
        let fixes = try #require(try T.read(log, as: "talker.nmea").first).fixes
        #expect(fixes.count == 2)
        #expect(fixes[0].isClose(to: Fix(latitude: 46.05, longitude: 14.5, altitude: 295.5, time: T.date("2024-06-15T08:30:00Z"))))
        #expect(fixes[1].isClose(to: Fix(latitude: 46.0501, longitude: 14.5, altitude: 296, time: T.date("2024-06-15T08:30:01Z"))))
        #expect(abs((fixes[0].accuracy ?? 0) - 6) < 1e-9)
    }

    @Test("Time of day wrapping past midnight moves GGA fixes to the next day")
    func midnightRollover() throws {
        let log = [
            Self.sentence("GPRMC,235958,A,4600.000,N,01400.000,E,0.0,0.0,311224,,"),
            Self.sentence("GPGGA,235959,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,"),
            Self.sentence("GPGGA,000000,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,"),
            Self.sentence("GPGGA,000001,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,"),
        ].joined(separator: "\n")
        let fixes = try #require(try T.read(log, as: "midnight.nmea").first).fixes
        #expect(fixes.map(\.time) == [
            T.date("2024-12-31T23:59:58Z"), T.date("2024-12-31T23:59:59Z"),
            T.date("2025-01-01T00:00:00Z"), T.date("2025-01-01T00:00:01Z"),
        ])
    }

    @Test("Fixes logged before the first RMC are back-filled across midnight")
    func backFill() throws {
        let log = [
            Self.sentence("GPGGA,235959,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,"),
            Self.sentence("GPRMC,000000,A,4600.000,N,01400.000,E,0.0,0.0,010125,,"),
        ].joined(separator: "\n")
        let fixes = try #require(try T.read(log, as: "early.nmea").first).fixes
        #expect(fixes.map(\.time) == [T.date("2024-12-31T23:59:59Z"), T.date("2025-01-01T00:00:00Z")])
    }

    @Test("Comments, logger prefixes, no-fix sentences and cut-off lines are tolerated")
    func noise() throws {
        let log = """
        # recorded with gpspipe
        1715000000.123 \(Self.sentence("GPRMC,120000,A,4600.000,N,01400.000,E,0.0,0.0,010524,,"))
        \(Self.sentence("GPRMC,120001,V,4600.000,N,01400.000,E,0.0,0.0,010524,,"))
        \(Self.sentence("GPGGA,120002,4600.000,N,01400.000,E,0,00,99.0,,M,,M,,"))
        \(Self.sentence("GNGNS,120003,4600.000,N,01400.000,E,NN,00,99.0,,,,"))
        $GPGGA,120004,4600.000,N,01400.0
        \u{01}\u{02}garbage$$$
        $GPRMC,120005,A,4600.000,N,01400.000,E,0.0,0.0,0105
        """
        let fixes = try #require(try T.read(log, as: "noise.nmea").first).fixes
        #expect(fixes.map(\.time) == [T.date("2024-05-01T12:00:00Z")])
    }

    @Test("GGA-only logs cannot be dated and say so")
    func withoutRMC() throws {
        let log = Self.sentence("GPGGA,120002,4600.000,N,01400.000,E,1,08,1.0,300.0,M,,M,,")
        let error = try #require(T.formatError { try T.read(log, as: "gga.nmea") })
        #expect(error.message.contains("RMC"))
        #expect(error.message.hasPrefix("has 1 NMEA sentences but no fix with a date"))
    }

    @Test("A log cut in the middle still reads up to the cut")
    func truncated() throws {
        let data = try Fixtures.data("nmea/bu353s4.log")
        let tracks = try TrackFile.read(data.prefix(data.count / 2), fileName: "bu353s4.log")
        let fixes = try #require(tracks.first).fixes
        #expect(fixes.count > 5 && fixes.count < 25)
    }

    @Test("Garbage with an NMEA extension says it holds no NMEA sentences")
    func garbage() throws {
        let data = Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) })
        let error = try #require(T.formatError { try TrackFile.read(data, fileName: "noise.nmea") })
        #expect(error.message.contains("no NMEA sentences"))
    }

    static func checksum(_ body: String) -> String {
        let value = body.utf8.reduce(UInt8(0), ^)
        let hex = String(value, radix: 16, uppercase: true)
        return hex.count == 1 ? "0" + hex : hex
    }

    static func sentence(_ body: String) -> String { "$" + body + "*" + checksum(body) }
}
