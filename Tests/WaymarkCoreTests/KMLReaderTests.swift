import Foundation
import Testing
@testable import WaymarkCore

@Suite("KML reader")
struct KMLReaderTests {
    typealias T = TrackTestSupport

    static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\"><Document>\n"

    @Test("A gx:Track pairs each <when> with its <gx:coord>, longitude first")
    func gxTrack() throws {
        let kml = Self.header + """
        <Placemark><name>Morning walk</name><gx:Track>
        <when>2024-05-01T12:00:00Z</when><when>2024-05-01T14:00:05+02:00</when>
        <gx:coord>14.5 46.05 300</gx:coord><gx:coord>14.501 46.051</gx:coord>
        </gx:Track></Placemark></Document></kml>
        """
        let tracks = try T.read(kml, as: "walk.kml")
        let track = try #require(tracks.first)
        #expect(tracks.count == 1)
        #expect(track.name == "Morning walk")
        #expect(track.fixes[0].isClose(to: Fix(latitude: 46.05, longitude: 14.5, altitude: 300, time: T.date("2024-05-01T12:00:00Z"))))
        #expect(track.fixes[1].isClose(to: Fix(latitude: 46.051, longitude: 14.501, time: T.date("2024-05-01T12:00:05Z"))))
    }

    @Test("Each gx:Track of a gx:MultiTrack is its own track, in time order")
    func multiTrack() throws {
        let kml = Self.header + """
        <Placemark><gx:MultiTrack>
        <gx:Track><when>2024-05-01T13:00:00Z</when><gx:coord>14 46 1</gx:coord></gx:Track>
        <gx:Track><when>2024-05-01T12:00:00Z</when><gx:coord>15 47 2</gx:coord></gx:Track>
        </gx:MultiTrack></Placemark></Document></kml>
        """
        let tracks = try T.read(kml, as: "multi.kml")
        #expect(tracks.map { $0.fixes.map(\.latitude) } == [[47], [46]])
    }

    @Test("Consecutive timed placemarks form one track; an untimed one ends it")
    func timedPlacemarks() throws {
        let kml = Self.header + """
        <Placemark><TimeStamp><when>2024-05-01T12:00:00Z</when></TimeStamp><Point><coordinates>14.5,46.05,300</coordinates></Point></Placemark>
        <Placemark><TimeStamp><when>2024-05-01T12:00:10Z</when></TimeStamp><Point><coordinates> 14.6,46.06 </coordinates></Point></Placemark>
        <Placemark><name>Hut</name><Point><coordinates>14.7,46.07</coordinates></Point></Placemark>
        <Placemark><TimeStamp><when>2024-05-01T13:00:00Z</when></TimeStamp><Point><coordinates>14.8,46.08</coordinates></Point></Placemark>
        </Document></kml>
        """
        let tracks = try T.read(kml, as: "points.kml")
        #expect(tracks.map(\.fixes.count) == [2, 1])
        #expect(tracks[0].fixes[1].isClose(to: Fix(latitude: 46.06, longitude: 14.6, time: T.date("2024-05-01T12:00:10Z"))))
    }

    @Test("A gx:Track whose <when> and <gx:coord> counts differ is refused with its line")
    func countMismatch() throws {
        let kml = Self.header + "<Placemark>\n<gx:Track>\n<when>2024-05-01T12:00:00Z</when><when>2024-05-01T12:00:01Z</when>\n<gx:coord>14 46 1</gx:coord>\n</gx:Track></Placemark></Document></kml>"
        let error = try #require(T.formatError { try T.read(kml, as: "bad.kml") })
        #expect(error.line == 4)
        #expect(error.message.contains("2 <when> times but 1 <gx:coord>"))
    }

    @Test("A coordinate outside the globe is refused with its line")
    func invalidCoordinate() throws {
        let kml = Self.header + "<Placemark><gx:Track><when>2024-05-01T12:00:00Z</when>\n<gx:coord>46 200 1</gx:coord></gx:Track></Placemark></Document></kml>"
        let error = try #require(T.formatError { try T.read(kml, as: "bad.kml") })
        #expect(error.line == 4)
        #expect(error.message.contains("longitude first"))
    }

    @Test("A KML with only untimed lines says it holds no timed positions")
    func untimed() throws {
        let kml = Self.header + "<Placemark><LineString><coordinates>14,46 15,47</coordinates></LineString></Placemark></Document></kml>"
        let error = try #require(T.formatError { try T.read(kml, as: "route.kml") })
        #expect(error.message.contains("no timed positions"))
    }

    @Test("A truncated KML names the line where it breaks off")
    func truncated() throws {
        let full = TrackFile.write([Track(fixes: (0..<50).map { Fix(latitude: 46 + Double($0) * 1e-4, longitude: 14, time: Date(timeIntervalSince1970: 1_700_000_000 + Double($0))) })], as: .kml)
        let cut = full.prefix(full.count / 2)
        let error = try #require(T.formatError { try TrackFile.read(cut, fileName: "cut.kml") })
        #expect(error.line != nil)
        #expect(error.message.contains("truncated"))
    }
}
