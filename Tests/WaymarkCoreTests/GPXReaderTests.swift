import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("GPX reader")
struct GPXReaderTests {
    typealias T = TrackTestSupport

    @Test("A GPX 1.0 track from GPSBabel keeps every point, position and elevation")
    func mojstrovka() throws {
        let tracks = try GPXReader.read(try Fixtures.data("tracks/Mojstrovka.gpx"), fileName: "Mojstrovka.gpx")
        let track = try #require(tracks.first)
        #expect(tracks.count == 1)
        #expect(track.fixes.count == 184)
        // The device wrote the 32-bit "no time" sentinel; the reader reports it as written.
        #expect(abs(track.fixes[0].time.timeIntervalSince(T.date("1901-12-13T20:45:52.207Z"))) < 0.001)
        let first = Fix(latitude: 46.434981, longitude: 13.748273, altitude: 1614.678, time: T.date("1901-12-13T20:45:52.207Z"))
        #expect(track.fixes.contains { $0.isClose(to: first) })
        // As a track for tagging it is refused: one time for every point cannot place a photo.
        let error = #expect(throws: TrackFormatError.self) { try T.readFixture("tracks/Mojstrovka.gpx") }
        #expect(error?.message.contains("184 points carry the same time") == true)
    }

    @Test("A Garmin eTrex GPX 1.1 track reads with its name and times")
    func visnjan() throws {
        let tracks = try T.readFixture("tracks/around-visnjan-with-car.gpx")
        let track = try #require(tracks.first)
        #expect(tracks.count == 1)
        #expect(track.name == "2020-12-18 07:24:29")
        #expect(track.fixes.count == 104)
        let first = Fix(latitude: 45.2735188510, longitude: 13.7142099626, altitude: 211.15, time: T.date("2020-12-18T06:15:50Z"))
        #expect(track.fixes[0].isClose(to: first))
        #expect(track.fixes.last?.time == T.date("2020-12-18T06:24:24Z"))
        #expect(track.fixes[0].accuracy == nil)
    }

    @Test("Timed route points count as a track, untimed ones are ignored; HDOP gives accuracy", arguments: ["tracks/gpx1.0_with_all_fields.gpx", "tracks/gpx1.1_with_all_fields.gpx"])
    func allFields(path: String) throws {
        let tracks = try T.readFixture(path)
        #expect(tracks.count == 2)
        let trackPoint = try #require(tracks.first?.fixes.first)
        // A time without a zone is UTC, as GPX prescribes.
        #expect(trackPoint.isClose(to: Fix(latitude: 10.1, longitude: -20.2, altitude: 11.1, time: T.date("2013-01-01T12:00:04Z"))))
        #expect(tracks[0].name == "example name t")
        let routePoint = try #require(tracks.last?.fixes.first)
        #expect(tracks.last?.fixes.count == 1)
        #expect(routePoint.isClose(to: Fix(latitude: 10, longitude: 20, altitude: 75.1, time: T.date("2013-01-02T02:03:03Z"))))
        if path.contains("1.0") {
            #expect(trackPoint.accuracy == 505)   // hdop 101 × 5 m
            #expect(routePoint.accuracy == 35)    // hdop 7 × 5 m
        }
    }

    @Test("An empty <trkseg> is dropped, the recorded one kept")
    func emptySegment() throws {
        let tracks = try T.readFixture("tracks/track-with-empty-segment.gpx")
        #expect(tracks.count == 1)
        let track = try #require(tracks.first)
        #expect(track.fixes.count == 9)
        #expect(track.fixes[0].isClose(to: Fix(latitude: 50.7772126, longitude: 6.0819695, altitude: 191.5999756, time: T.date("2013-07-06T17:26:26Z"))))
        #expect(track.fixes.last?.time == T.date("2013-07-06T17:27:42Z"))
    }

    @Test("A file with a byte-order mark reads; its timed waypoint is the track when there is no <trk>")
    func byteOrderMark() throws {
        let data = try Fixtures.data("tracks/unicode_with_bom.gpx")
        #expect(data.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(TrackFormat.detect(data: data, fileName: "unnamed") == .gpx)
        let tracks = try TrackFile.read(data, fileName: "unicode_with_bom.gpx")
        let fix = try #require(tracks.first?.fixes.first)
        #expect(fix.isClose(to: Fix(latitude: 43.309634, longitude: 3.515386, altitude: -14.6, time: T.date("2016-05-27T10:08:47.800Z"))))
        #expect(abs((fix.accuracy ?? 0) - 81) < 1e-9)   // hdop 16.2 × 5 m
    }

    @Test("A track whose points lost their times is refused with a message that says so and what to do")
    func withoutTimes() throws {
        let error = try #require(T.formatError { try T.readFixture("tracks/cerknicko-without-times.gpx") })
        #expect(error.file == "cerknicko-without-times.gpx")
        #expect(error.message.contains("296 track points"))
        #expect(error.message.contains("<time>"))
        #expect(error.message.contains("include time"))
        #expect(error.description.hasPrefix("cerknicko-without-times.gpx: "))
    }

    @Test("No times at all: the count is grouped in thousands")
    func noTimesAtAll() throws {
        let points = String(repeating: "<trkpt lat=\"46.1\" lon=\"14.5\"><ele>300</ele></trkpt>\n", count: 1234)
        let gpx = "<gpx version=\"1.1\"><trk><trkseg>\n\(points)</trkseg></trk></gpx>"
        let error = try #require(T.formatError { try T.read(gpx, as: "walk.gpx") })
        #expect(error.message.hasPrefix("has 1,234 track points but none has a <time>"))
    }

    @Test("A few points without time among timed ones are skipped; offsets and fractions are honoured")
    func mixedTimes() throws {
        let gpx = """
        <gpx version="1.1"><trk><name>Walk</name><trkseg>
        <trkpt lat="46.0" lon="14.0"><time>2024-05-01T14:00:00+02:00</time></trkpt>
        <trkpt lat="46.1" lon="14.1"></trkpt>
        <trkpt lat="46.2" lon="14.2"><time>2024-05-01T12:00:01.250Z</time></trkpt>
        </trkseg><trkseg>
        <trkpt lat="46.3" lon="14.3"><time>2024-05-01T08:00:00-05:30</time></trkpt>
        </trkseg></trk></gpx>
        """
        let tracks = try T.read(gpx, as: "walk.gpx")
        #expect(tracks.count == 2)
        #expect(tracks[0].fixes.map(\.time) == [T.date("2024-05-01T12:00:00Z"), T.date("2024-05-01T12:00:01.250Z")])
        #expect(tracks[0].name == "Walk" && tracks[1].name == "Walk")
        #expect(tracks[1].fixes[0].time == T.date("2024-05-01T13:30:00Z"))
    }

    @Test("Segments come back in chronological order, each sorted by time")
    func chronological() throws {
        let gpx = """
        <gpx version="1.1"><trk><trkseg>
        <trkpt lat="1" lon="1"><time>2024-05-01T13:00:05Z</time></trkpt>
        <trkpt lat="2" lon="2"><time>2024-05-01T13:00:00Z</time></trkpt>
        </trkseg></trk><trk><trkseg>
        <trkpt lat="3" lon="3"><time>2024-05-01T12:00:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """
        let tracks = try T.read(gpx, as: "order.gpx")
        #expect(tracks.map { $0.fixes.map(\.latitude) } == [[3], [2, 1]])
    }

    @Test("A truncated file names the line where the XML breaks off")
    func truncated() throws {
        let data = try Fixtures.data("tracks/track-with-empty-segment.gpx")
        let cut = data.prefix(data.count / 2)
        let error = try #require(T.formatError { try TrackFile.read(cut, fileName: "cut.gpx") })
        #expect(error.file == "cut.gpx")
        let line = try #require(error.line)
        #expect(line >= 15)
        #expect(error.message.contains("truncated"))
    }

    @Test("Out-of-range or non-numeric coordinates are refused with their line", arguments: [
        ("lat=\"95.0\" lon=\"14.0\"", "latitude \"95.0\""),
        ("lat=\"46.0\" lon=\"east\"", "longitude \"east\""),
    ])
    func invalidCoordinates(attributes: String, quoted: String) throws {
        let gpx = "<gpx version=\"1.1\"><trk><trkseg>\n<trkpt lat=\"46\" lon=\"14\"><time>2024-05-01T12:00:00Z</time></trkpt>\n<trkpt \(attributes)><time>2024-05-01T12:00:01Z</time></trkpt>\n</trkseg></trk></gpx>"
        let error = try #require(T.formatError { try T.read(gpx, as: "bad.gpx") })
        #expect(error.line == 3)
        #expect(error.message.contains(quoted))
    }

    @Test("An unreadable <time> is refused with its line")
    func badTime() throws {
        let gpx = "<gpx version=\"1.1\"><trk><trkseg>\n<trkpt lat=\"46\" lon=\"14\">\n<time>yesterday</time></trkpt>\n</trkseg></trk></gpx>"
        let error = try #require(T.formatError { try T.read(gpx, as: "bad.gpx") })
        #expect(error.line == 3)
        #expect(error.message.contains("yesterday"))
    }

    @Test("A GPX file with waypoints only says there is no track")
    func noTrack() throws {
        let error = try #require(T.formatError { try T.read("<gpx version=\"1.1\"></gpx>", as: "empty.gpx") })
        #expect(error.message.contains("no track points"))
    }
}
