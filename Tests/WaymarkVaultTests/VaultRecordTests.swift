import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkVault

/// The location record of DESIGN §3.11: its JSON and the speed and heading derived from a track.
@Suite struct VaultRecordTests {
    @Test func aRecordWritesItsKeysInTheSeedsOrderWithNullsAndTheDatum() {
        let record = VaultRecord(timestamp: Date(timeIntervalSince1970: 1_514_479_762.7), latitude: 40.75846, longitude: 73.92248, altitude: 160.34)
        #expect(String(decoding: record.json(), as: UTF8.self)
            == #"{"timestamp":"2017-12-28T16:49:22Z","latitude":40.75846,"longitude":73.92248,"altitude":160.34,"accuracy":null,"speed":null,"heading":null,"datum":"EPSG:4326"}"#)
        let full = VaultRecord(timestamp: Date(timeIntervalSince1970: 0), latitude: -33.5, longitude: -0.000125, altitude: -12,
                               accuracy: 20, speed: 0, heading: 359.75)
        #expect(String(decoding: full.json(), as: UTF8.self)
            == #"{"timestamp":"1970-01-01T00:00:00Z","latitude":-33.5,"longitude":-0.000125,"altitude":-12.0,"accuracy":20.0,"speed":0.0,"heading":359.75,"datum":"EPSG:4326"}"#)
    }

    @Test func theJSONIsWhatAJSONReaderReadsBack() throws {
        let record = VaultRecord(timestamp: Date(timeIntervalSince1970: 1_700_000_000), latitude: 46.123456789, longitude: 14.987654321,
                                 altitude: nil, accuracy: 3.5, speed: 1.25, heading: 90)
        let object = try #require(try JSONSerialization.jsonObject(with: record.json()) as? [String: Any])
        #expect(object["timestamp"] as? String == "2023-11-14T22:13:20Z")
        #expect(object["latitude"] as? Double == 46.123456789)
        #expect(object["altitude"] is NSNull)
        #expect(object["datum"] as? String == "EPSG:4326")
        #expect(try JSONDecoder().decode(VaultRecord.self, from: record.json()) == record)
        // A value JSON cannot carry is written as null, never as "nan".
        let odd = VaultRecord(timestamp: Date(timeIntervalSince1970: 0), latitude: 1, longitude: 2, altitude: .nan, speed: .infinity)
        let oddObject = try #require(try JSONSerialization.jsonObject(with: odd.json()) as? [String: Any])
        #expect(oddObject["altitude"] is NSNull)
        #expect(oddObject["speed"] is NSNull)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"), (1_514_479_762.999, "2017-12-28T16:49:22Z"), (951_782_400, "2000-02-29T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"), (4_102_444_799, "2099-12-31T23:59:59Z"),
    ])
    func timestampsAreUTCInWholeSeconds(_ seconds: Double, _ text: String) {
        #expect(VaultRecord.timestamp(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test func twoFixesOneSecondApartDueNorthAndDueEast() throws {
        let t = Date(timeIntervalSince1970: 1_600_000_000)
        // On the equator 0.0001° of latitude is the meridian's arc a(1−e²)·Δφ = 11.0574 m,
        // and 0.0001° of longitude is a·Δλ = 11.1319 m (WGS-84: a = 6,378,137 m, e² = 0.00669438).
        let north = VaultRecord.records(track: [Fix(latitude: 0, longitude: 0, time: t), Fix(latitude: 0.0001, longitude: 0, time: t + 1)])
        #expect(abs(try #require(north[0].speed) - 11.0574) < 0.001)
        #expect(abs(try #require(north[0].heading)) < 1e-9)
        #expect(abs(try #require(north[1].speed) - 11.0574) < 0.001)
        let arrival = try #require(north[1].heading)
        #expect(arrival < 1e-9 || 360 - arrival < 1e-9)
        let east = VaultRecord.records(track: [Fix(latitude: 0, longitude: 0, time: t), Fix(latitude: 0, longitude: 0.0001, time: t + 1)])
        #expect(abs(try #require(east[0].speed) - 11.1319) < 0.001)
        #expect(abs(try #require(east[0].heading) - 90) < 1e-9)
        let southWest = VaultRecord.records(track: [Fix(latitude: 0, longitude: 0, time: t), Fix(latitude: 0, longitude: -0.0001, time: t + 2),
                                                    Fix(latitude: -0.0001, longitude: -0.0001, time: t + 4)])
        #expect(abs(try #require(southWest[0].heading) - 270) < 1e-9)
        #expect(abs(try #require(southWest[0].speed) - 11.1319 / 2) < 0.001)
        #expect(abs(try #require(southWest[1].heading) - 180) < 1e-6)
        #expect(abs(try #require(southWest[2].heading) - 180) < 1e-6)
    }

    @Test func vincentysPublishedLineFlindersPeakToBuninyong() throws {
        // Vincenty (1975) / Geoscience Australia: s = 54,972.271 m, α1 = 306°52′05.37″, α2 = 127°10′25.07″
        // (the reverse azimuth; the direction of arrival is α2 − 180°).
        func dms(_ d: Double, _ m: Double, _ s: Double) -> Double { d + m / 60 + s / 3600 }
        let t = Date(timeIntervalSince1970: 0)
        let records = VaultRecord.records(track: [
            Fix(latitude: -dms(37, 57, 3.72030), longitude: dms(144, 25, 29.52440), time: t),
            Fix(latitude: -dms(37, 39, 10.15610), longitude: dms(143, 55, 35.38390), time: t + 100),
        ])
        #expect(abs(try #require(records[0].speed) - 549.72271) < 0.00001)
        #expect(abs(try #require(records[0].heading) - dms(306, 52, 5.37)) < 0.01 / 3600)
        #expect(abs(try #require(records[1].heading) - (dms(127, 10, 25.07) + 180)) < 0.01 / 3600)
    }

    @Test func aLoneFixHasNoSpeedOrHeadingAndAStandstillNoHeading() throws {
        let t = Date(timeIntervalSince1970: 1_600_000_000)
        let lone = VaultRecord.records(track: [Fix(latitude: 46, longitude: 14, altitude: 500, accuracy: 4, time: t)])
        #expect(lone.count == 1)
        #expect(lone[0].speed == nil && lone[0].heading == nil)
        #expect(lone[0].altitude == 500 && lone[0].accuracy == 4)
        let still = VaultRecord.records(track: [Fix(latitude: 46, longitude: 14, time: t), Fix(latitude: 46, longitude: 14, time: t + 5)])
        #expect(still.map(\.speed) == [0, 0])
        #expect(still.map(\.heading) == [nil, nil])
        let sameInstant = VaultRecord.records(track: [Fix(latitude: 46, longitude: 14, time: t), Fix(latitude: 46.001, longitude: 14, time: t)])
        #expect(sameInstant.map(\.speed) == [nil, nil])
        #expect(VaultRecord.records(track: []).isEmpty)
    }

    @Test func aReceiversOwnSpeedAndCourseAreKeptOverDerivedOnes() throws {
        let t = Date(timeIntervalSince1970: 1_600_000_000)
        // Due north at 11.06 m/s between the fixes, but the receiver measured 3 m/s at 45° at the first.
        let records = VaultRecord.records(track: [Fix(latitude: 0, longitude: 0, speed: 3, course: 45, time: t),
                                                  Fix(latitude: 0.0001, longitude: 0, time: t + 1)])
        #expect(records[0].speed == 3 && records[0].heading == 45)
        #expect(abs(try #require(records[1].speed) - 11.0574) < 0.001, "the second fix has none of its own")
        let one = VaultRecord(fix: Fix(latitude: 46, longitude: 14, altitude: 500, accuracy: 4, speed: 0.4, course: 271.5, time: t))
        #expect(one == VaultRecord(timestamp: t, latitude: 46, longitude: 14, altitude: 500, accuracy: 4, speed: 0.4, heading: 271.5))
        #expect(VaultRecord(fix: Fix(latitude: 46, longitude: 14, time: t)).speed == nil)
    }

    @Test func aRealGPXTrackGivesOneRecordPerFixWithSpeedsAndHeadingsAsGpxpyComputesThem() async throws {
        let url = Fixtures.url("tracks/around-visnjan-with-car.gpx")
        let tracks = try TrackFile.read(contentsOf: url)
        let fixes = try #require(tracks.first?.fixes)
        let records = VaultRecord.records(track: fixes)
        #expect(records.count == fixes.count)
        #expect(records.first?.timestamp == "2020-12-18T06:15:50Z")
        #expect(records.last?.timestamp == "2020-12-18T06:24:24Z")
        #expect(records.first?.altitude == 211.15)
        #expect(records.allSatisfy { $0.datum == "EPSG:4326" })
        #expect(records.compactMap(\.heading).allSatisfy { (0..<360).contains($0) })

        // gpxpy (a reader nobody here wrote) on a sphere: speed to the next point and its initial course.
        let script = """
            import gpxpy, gpxpy.geo, json, sys
            points = [p for t in gpxpy.parse(open(sys.argv[1])).tracks for s in t.segments for p in s.points]
            out = []
            for a, b in zip(points, points[1:]):
                d = a.distance_2d(b); dt = (b.time - a.time).total_seconds()
                out.append([d, d / dt, gpxpy.geo.get_course(a.latitude, a.longitude, b.latitude, b.longitude, loxodromic=False)])
            print(json.dumps(out))
            """
        let output = try await ExternalTool.run([try StandinVault.python(), "-c", script, url.path])
        let reference = try #require(try JSONSerialization.jsonObject(with: output) as? [[Double]])
        #expect(reference.count == records.count - 1)
        var compared = 0
        for (record, expected) in zip(records, reference) {
            let speed = try #require(record.speed)
            #expect(abs(speed - expected[1]) <= 0.01 * expected[1] + 1e-9, "\(record.timestamp): \(speed) m/s, gpxpy \(expected[1])")
            if expected[0] > 1, let heading = record.heading {
                var difference = abs(heading - expected[2]).truncatingRemainder(dividingBy: 360)
                if difference > 180 { difference = 360 - difference }
                #expect(difference < 0.5, "\(record.timestamp): heading \(heading)°, gpxpy \(expected[2])°")
                compared += 1
            }
        }
        #expect(compared > 50)
    }
}
