import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("IGC reader")
struct IGCReaderTests {
    typealias T = TrackTestSupport
    typealias R = TrackReferenceTools

    @Test("gpsbabel's IGC of a GPX fixture reads as gpxpy reads the GPX, within IGC's resolution")
    func gpsbabelIGC() async throws {
        let folder = try TemporaryFolder()
        let gpx = Fixtures.url("tracks/around-visnjan-with-car.gpx")
        let igc = folder.url.appendingPathComponent("visnjan.igc")
        try await R.gpsbabel(["-t", "-i", "gpx", "-f", gpx.path, "-o", "igc", "-F", igc.path])
        let data = try Data(contentsOf: igc)
        #expect(TrackFormat.detect(data: data, fileName: "x") == .igc)
        // IGC holds thousandths of a minute (1/60,000°) and whole metres (gpsbabel cuts the fraction off).
        R.expectSame(try TrackFile.read(data, fileName: "visnjan.igc").flatMap(\.fixes), try await R.referenceFixes("gpx", gpx),
                     degrees: 0.5 / 60_000 + 1e-9, metres: 1)
    }

    static func igc(_ lines: [String]) -> String {
        (["AXXX001 Test recorder"] + lines).joined(separator: "\r\n") + "\r\n"
    }

    @Test("A flight across midnight UTC continues on the next day")
    func dayRollover() throws {
        let text = Self.igc(["HFDTE311224", "B2359584616410N01342853EA0100001050", "B0000024616411N01342854EA0100001051"])
        let fixes = try #require(try T.read(text, as: "night.igc").first?.fixes)
        #expect(fixes.map(\.time) == [T.date("2024-12-31T23:59:58Z"), T.date("2025-01-01T00:00:02Z")])
        #expect(abs(fixes[0].latitude - (46 + 16.410 / 60)) < 1e-9)
        #expect(abs(fixes[0].longitude - (13 + 42.853 / 60)) < 1e-9)
        #expect(fixes[0].altitude == 1050)
    }

    @Test("The HFDTEDATE:DDMMYY,NN form; south and west; negative altitudes")
    func dateForm() throws {
        let text = Self.igc(["HFDTEDATE:010524,01", "B1200003330000S07030000WA-0012-0005"])
        let fix = try #require(try T.read(text, as: "x.igc").first?.fixes.first)
        #expect(fix.time == T.date("2024-05-01T12:00:00Z"))
        #expect(fix.latitude == -33.5)
        #expect(fix.longitude == -70.5)
        #expect(fix.altitude == -5)
    }

    @Test("A V fix keeps its position and takes the pressure altitude, or none without a pressure sensor")
    func validity() throws {
        let text = Self.igc(["HFDTE010524", "B1200004600000N01400000EV0123400999", "B1200014600000N01400000EV0000000999"])
        let fixes = try #require(try T.read(text, as: "x.igc").first?.fixes)
        #expect(fixes.count == 2)
        #expect(fixes[0].altitude == 1234)
        #expect(fixes[1].altitude == nil)
    }

    @Test("A malformed B record is an error naming its line", arguments: [
        "B1200004600000N01400000EA0123400999".replacingOccurrences(of: "N014", with: "X014"),
        "B12000046000",
        "B2500004600000N01400000EA0123400999",
        "B1200004600000N01400000EQ0123400999",
        "B1200004699999N01400000EA0123400999",
    ])
    func badRecord(record: String) throws {
        let text = Self.igc(["HFDTE010524", "B1159594600000N01400000EA0123400999", record])
        let error = try #require(T.formatError { try T.read(text, as: "bad.igc") })
        #expect(error.line == 4)
        #expect(error.message.contains("B record"))
    }

    @Test("Without an HFDTE header the flight cannot be dated, and the error says how to fix it")
    func noDate() throws {
        let text = Self.igc(["HFPLTPILOT:Someone", "B1200004600000N01400000EA0123400999"])
        let error = try #require(T.formatError { try T.read(text, as: "nodate.igc") })
        #expect(error.message.contains("HFDTE"))
    }
}
