import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("TCX reader")
struct TCXReaderTests {
    typealias T = TrackTestSupport
    typealias R = TrackReferenceTools

    @Test("gpsbabel's TCX activity of a GPX fixture reads as gpxpy reads the GPX")
    func gpsbabelTCX() async throws {
        let folder = try TemporaryFolder()
        let gpx = Fixtures.url("tracks/around-visnjan-with-car.gpx")
        let tcx = folder.url.appendingPathComponent("visnjan.tcx")
        try await R.gpsbabel(["-t", "-i", "gpx", "-f", gpx.path, "-o", "gtrnctr,course=0", "-F", tcx.path])
        let tracks = try TrackFile.read(contentsOf: tcx)
        #expect(TrackFormat.detect(data: try Data(contentsOf: tcx), fileName: "x") == .tcx)
        // gpsbabel writes six decimals of a degree and one of a metre.
        R.expectSame(tracks.flatMap(\.fixes), try await R.referenceFixes("gpx", gpx), degrees: 5.1e-7, metres: 0.051)
    }

    static let twoLaps = """
        <?xml version="1.0" encoding="UTF-8"?>
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
          <Activities><Activity Sport="Running"><Id>2024-05-01T10:00:00Z</Id>
            <Lap StartTime="2024-05-01T10:00:00Z"><Track>
              <Trackpoint><Time>2024-05-01T10:00:01Z</Time><HeartRateBpm><Value>99</Value></HeartRateBpm></Trackpoint>
              <Trackpoint><Time>2024-05-01T10:00:02Z</Time><Position><LatitudeDegrees>46.1</LatitudeDegrees><LongitudeDegrees>14.5</LongitudeDegrees></Position><AltitudeMeters>301.5</AltitudeMeters></Trackpoint>
              <Trackpoint><Time>2024-05-01T12:00:03+02:00</Time><Position><LatitudeDegrees>46.2</LatitudeDegrees><LongitudeDegrees>-14.6</LongitudeDegrees></Position></Trackpoint>
            </Track></Lap>
            <Lap StartTime="2024-05-01T11:00:00Z"><Track>
              <Trackpoint><Time>2024-05-01T11:00:00Z</Time><Position><LatitudeDegrees>-46.3</LatitudeDegrees><LongitudeDegrees>14.7</LongitudeDegrees></Position><AltitudeMeters>-2</AltitudeMeters></Trackpoint>
            </Track></Lap>
          </Activity></Activities>
        </TrainingCenterDatabase>
        """

    @Test("One track per <Track>; points without a position are skipped; offsets are honoured")
    func laps() throws {
        let tracks = try T.read(Self.twoLaps, as: "run.tcx")
        #expect(tracks.count == 2)
        let first = try #require(tracks.first)
        #expect(first.fixes.count == 2)
        #expect(first.fixes[0] == Fix(latitude: 46.1, longitude: 14.5, altitude: 301.5, time: T.date("2024-05-01T10:00:02Z")))
        #expect(first.fixes[1] == Fix(latitude: 46.2, longitude: -14.6, time: T.date("2024-05-01T10:00:03Z")))
        #expect(tracks.last?.fixes == [Fix(latitude: -46.3, longitude: 14.7, altitude: -2, time: T.date("2024-05-01T11:00:00Z"))])
    }

    @Test("A latitude that is not a number is an error naming its line")
    func badLatitude() throws {
        let text = Self.twoLaps.replacingOccurrences(of: "<LatitudeDegrees>46.2<", with: "<LatitudeDegrees>4x6.2<")
        let error = try #require(T.formatError { try T.read(text, as: "run.tcx") })
        #expect(error.line == 7)
        #expect(error.message.contains("4x6.2"))
    }

    @Test("A cut-off TCX file is refused as truncated")
    func truncated() throws {
        let text = String(Self.twoLaps.prefix(Self.twoLaps.count / 2))
        let error = try #require(T.formatError { try T.read(text, as: "run.tcx") })
        #expect(error.message.contains("truncated"))
    }

    @Test("An indoor activity (no positions) is refused with the reason")
    func indoor() throws {
        let text = """
            <TrainingCenterDatabase><Activities><Activity><Lap><Track>
            <Trackpoint><Time>2024-05-01T10:00:01Z</Time><Cadence>80</Cadence></Trackpoint>
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        let error = try #require(T.formatError { try T.read(text, as: "spin.tcx") })
        #expect(error.message.contains("1 have no <Position>"))
    }
}
