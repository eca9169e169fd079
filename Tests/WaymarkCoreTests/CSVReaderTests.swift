import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("CSV reader")
struct CSVReaderTests {
    typealias T = TrackTestSupport
    typealias R = TrackReferenceTools

    /// The header and two rows as GPSLogger for Android writes them.
    static let gpsLogger = """
        time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider,hdop,vdop,pdop,geoidheight,ageofdgpsdata,dgpsid,activity,battery,annotation,timestamp_ms,time_offset,distance,starttimestamp_ms,profile_name,battery_charging
        2024-05-01T10:00:00.000Z,46.0569,14.5058,295.0,4.0,,,12,gps,0.8,1.1,1.4,,,,,88,,1714557600000,2024-05-01T12:00:00.000+02:00,0.0,1714557600000,Default Profile,false
        2024-05-01T10:00:05.000Z,46.0570,14.5060,296.5,,,,12,gps,0.8,1.1,1.4,,,,,88,"a note, with a comma",1714557605000,2024-05-01T12:00:05.000+02:00,12.3,1714557600000,Default Profile,false
        """

    @Test("A GPSLogger file reads: time, position, elevation, accuracy")
    func gpsLoggerFile() throws {
        let data = Data(Self.gpsLogger.utf8)
        #expect(TrackFormat.detect(data: data, fileName: "20240501.txt") == .csv)
        let fixes = try #require(try TrackFile.read(data, fileName: "20240501.csv").first?.fixes)
        #expect(fixes == [
            Fix(latitude: 46.0569, longitude: 14.5058, altitude: 295, accuracy: 4, time: T.date("2024-05-01T10:00:00Z")),
            Fix(latitude: 46.0570, longitude: 14.5060, altitude: 296.5, time: T.date("2024-05-01T10:00:05Z")),
        ])
    }

    @Test("gpsbabel's CSV (UTC date and time columns without a zone) is refused until the column says UTC; then it reads as gpxpy reads the GPX")
    func gpsbabelCSV() async throws {
        let folder = try TemporaryFolder()
        let gpx = Fixtures.url("tracks/around-visnjan-with-car.gpx")
        let csv = folder.url.appendingPathComponent("visnjan.csv")
        try await R.gpsbabel(["-t", "-i", "gpx", "-f", gpx.path, "-o", "unicsv", "-F", csv.path])
        let text = try String(contentsOf: csv, encoding: .utf8)
        let error = try #require(T.formatError { try T.read(text, as: "visnjan.csv") })
        #expect(error.line == 2)
        #expect(error.message.contains("without a time zone"))
        let marked = text.replacingOccurrences(of: ",Date,Time", with: ",Date,Time (UTC)")
        #expect(marked != text)
        R.expectSame(try T.read(marked, as: "visnjan.csv").flatMap(\.fixes), try await R.referenceFixes("gpx", gpx), degrees: 5.1e-7, metres: 0.051)
    }

    @Test("Semicolons with decimal commas, quoted fields, empty positions skipped, offsets honoured")
    func semicolons() throws {
        let text = "\u{FEFF}\"Date Time\";\"Latitude\";\"Longitude\";\"Altitude (m)\"\r\n"
            + "2024-05-01 12:00:00+02:00;46,5;14,25;\"300,5\"\r\n"
            + "2024-05-01T10:00:01Z;;;\r\n"
            + "\r\n"
            + "2024-05-01T10:00:02Z;\"46,6\";14,26;\r\n"
        let fixes = try #require(try T.read(text, as: "log.csv").first?.fixes)
        #expect(fixes == [
            Fix(latitude: 46.5, longitude: 14.25, altitude: 300.5, time: T.date("2024-05-01T10:00:00Z")),
            Fix(latitude: 46.6, longitude: 14.26, time: T.date("2024-05-01T10:00:02Z")),
        ])
    }

    @Test("Tabs, separate date and time columns marked UTC, Unix epoch seconds and milliseconds")
    func otherTimes() throws {
        let tabs = "date\ttime (UTC)\tlat\tlng\n2024/05/01\t10:00:00\t46\t14\n"
        #expect(try T.read(tabs, as: "a.csv").first?.fixes.first?.time == T.date("2024-05-01T10:00:00Z"))
        let epoch = "timestamp,latitude,longitude\n1714557600,46,14\n1714557601500,46,14\n"
        #expect(try T.read(epoch, as: "b.csv").first?.fixes.map(\.time) == [T.date("2024-05-01T10:00:00Z"), T.date("2024-05-01T10:00:01.5Z")])
        let millis = "timestamp_ms,lat,lon\n1714557600000,46,14\n"
        #expect(try T.read(millis, as: "c.csv").first?.fixes.first?.time == T.date("2024-05-01T10:00:00Z"))
    }

    @Test("A time without a zone is refused, naming the line and what to do")
    func noZone() throws {
        let text = "time,lat,lon\n2024-05-01T10:00:00Z,46,14\n2024-05-01 10:00:01,46,14\n"
        let error = try #require(T.formatError { try T.read(text, as: "log.csv") })
        #expect(error.line == 3)
        #expect(error.message.contains("without a time zone"))
        #expect(error.message.contains("time (UTC)"))
    }

    @Test("Garbage in a number or time column is an error naming the line", arguments: [
        ("time,lat,lon,ele\n2024-05-01T10:00:00Z,46,14,1\n2024-05-01T10:00:01Z,4x6,14,1\n", "latitude \"4x6\""),
        ("time,lat,lon,ele\n2024-05-01T10:00:00Z,46,14,1\n2024-05-01T10:00:01Z,46,14,high\n", "altitude \"high\""),
        ("time,lat,lon,ele\n2024-05-01T10:00:00Z,46,14,1\nyesterday,46,14,1\n", "the time \"yesterday\""),
        ("time,lat,lon,ele\n2024-05-01T10:00:00Z,46,14,1\n2024-05-01T10:00:01Z,146,14,1\n", "not between"),
        // A Unix time far beyond any date would overflow the arithmetic of later steps.
        ("timestamp,lat,lon\n1714557600,46,14\n99999999999999999999999,46,14\n", "the time \"9999"),
        ("timestamp_ms,lat,lon\n1714557600000,46,14\n99999999999999999999999,46,14\n", "milliseconds since 1970"),
    ])
    func garbage(text: String, expected: String) throws {
        let error = try #require(T.formatError { try T.read(text, as: "log.csv") })
        #expect(error.line == 3)
        #expect(error.message.contains(expected), "\(error)")
    }

    @Test("A CSV without time, latitude and longitude columns says which header it found")
    func missingColumns() throws {
        let error = try #require(T.formatError { try T.read("name,lat,lon\nx,46,14\n", as: "places.csv") })
        #expect(error.line == 1)
        #expect(error.message.contains("name,lat,lon"))
        #expect(TrackFormat.detect(data: Data("name,lat,lon\nx,46,14\n".utf8), fileName: "x.txt") == nil)
    }
}
