import Foundation
import Testing
@testable import WaymarkCore

@Suite("GeoJSON reader")
struct GeoJSONReaderTests {
    typealias T = TrackTestSupport

    @Test("A Feature with a LineString and ISO coordTimes reads, longitude first")
    func lineString() throws {
        let json = """
        {"type":"Feature","properties":{"name":"Ride","coordTimes":["2024-05-01T12:00:00Z","2024-05-01T12:00:01.5Z"]},
         "geometry":{"type":"LineString","coordinates":[[14.5,46.05,300],[14.6,46.06]]}}
        """
        let track = try #require(try T.read(json, as: "ride.geojson").first)
        #expect(track.name == "Ride")
        #expect(track.fixes[0].isClose(to: Fix(latitude: 46.05, longitude: 14.5, altitude: 300, time: T.date("2024-05-01T12:00:00Z"))))
        #expect(track.fixes[1].isClose(to: Fix(latitude: 46.06, longitude: 14.6, time: T.date("2024-05-01T12:00:01.500Z"))))
    }

    @Test("A MultiLineString with nested coordTimes gives one track per line; numbers are Unix seconds or milliseconds")
    func multiLineString() throws {
        let json = """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"coordTimes":[[1714564800,1714564801],[1714568400000]]},
         "geometry":{"type":"MultiLineString","coordinates":[[[14,46],[14.1,46.1]],[[15,47,5]]]}}]}
        """
        let tracks = try T.read(json, as: "multi.json")
        #expect(tracks.map(\.fixes.count) == [2, 1])
        #expect(tracks[0].fixes[0].time == T.date("2024-05-01T12:00:00Z"))
        #expect(tracks[1].fixes[0].time == T.date("2024-05-01T13:00:00Z"))
        #expect(tracks[1].fixes[0].altitude == 5)
    }

    @Test("A bare LineString geometry with coordTimes reads; so do togeojson's coordinateProperties.times")
    func otherShapes() throws {
        let bare = #"{"type":"LineString","coordinates":[[14,46]],"coordTimes":["2024-05-01T12:00:00Z"]}"#
        #expect(try T.read(bare, as: "a.geojson").first?.fixes.count == 1)
        let newer = #"{"type":"Feature","properties":{"coordinateProperties":{"times":["2024-05-01T12:00:00Z"]}},"geometry":{"type":"LineString","coordinates":[[14,46]]}}"#
        #expect(try T.read(newer, as: "b.geojson").first?.fixes.first?.latitude == 46)
    }

    @Test("A line without coordTimes is refused with a message naming coordTimes and what to do")
    func withoutTimes() throws {
        let json = #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[14,46],[15,47]]}}"#
        let error = try #require(T.formatError { try T.read(json, as: "plain.geojson") })
        #expect(error.message.contains("coordTimes"))
        #expect(error.message.contains("export the track as GPX"))
    }

    @Test("Counts of positions and times must match")
    func countMismatch() throws {
        let json = #"{"type":"Feature","properties":{"coordTimes":["2024-05-01T12:00:00Z"]},"geometry":{"type":"LineString","coordinates":[[14,46],[15,47]]}}"#
        let error = try #require(T.formatError { try T.read(json, as: "bad.geojson") })
        #expect(error.message.contains("2 positions but coordTimes has 1 times"))
    }

    @Test("Latitude and longitude swapped out of range are refused")
    func swapped() throws {
        let json = #"{"type":"Feature","properties":{"coordTimes":["2024-05-01T12:00:00Z"]},"geometry":{"type":"LineString","coordinates":[[46,120]]}}"#
        let error = try #require(T.formatError { try T.read(json, as: "bad.geojson") })
        #expect(error.message.contains("longitude first"))
    }

    @Test("Truncated JSON is refused as damaged")
    func truncated() throws {
        let json = #"{"type":"Feature","properties":{"coordTimes":["2024-05-01T12:00:00Z"]},"geometry":{"type":"LineStr"#
        let error = try #require(T.formatError { try T.read(json, as: "cut.geojson") })
        #expect(error.message.contains("not valid JSON"))
    }

    @Test("GeoJSON with points only says there is no line")
    func pointsOnly() throws {
        let json = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[14,46]}}"#
        let error = try #require(T.formatError { try T.read(json, as: "p.geojson") })
        #expect(error.message.contains("no LineString"))
    }
}
