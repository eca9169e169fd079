import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

/// The nearest-place search over the real file against brute force: a linear scan here, and
/// GeographicLib with reverse_geocoder as second opinions from Tests/Reference/gazetteer_reference.py.
@Suite("Gazetteer search")
struct GazetteerSearchTests {
    /// Random points: uniform over the sphere, across the antimeridian (Fiji to Kiribati, Chukotka),
    /// in both polar caps, within about 30 km of a random place, and the poles themselves.
    static func randomPoints(_ count: Int, seed: UInt64) throws -> [(lat: Double, lon: Double)] {
        let table = try table.get()
        var generator = SplitMix(seed: seed)
        var points: [(lat: Double, lon: Double)] = [(90, 0), (-90, 0), (0, 180), (66, -180), (89.9999, 12), (-89.9999, -170)]
        while points.count < count {
            let lon = Double.random(in: -180..<180, using: &generator)
            switch points.count % 6 {
            case 5:
                let index = Int.random(in: 0..<table.latitude.count, using: &generator)
                let lat = max(-90, min(90, table.latitude[index] + Double.random(in: -0.3...0.3, using: &generator)))
                points.append((lat, remainder(table.longitude[index] + Double.random(in: -0.3...0.3, using: &generator), 360)))
            case 0, 1: points.append((asin(Double.random(in: -1...1, using: &generator)) * 180 / .pi, lon))
            case 2:
                let across = Double.random(in: 175..<185, using: &generator)
                points.append((Double.random(in: -25...70, using: &generator), across > 180 ? across - 360 : across))
            case 3: points.append((Double.random(in: 65...90, using: &generator), lon))
            default: points.append((Double.random(in: -90 ... -60, using: &generator), lon))
            }
        }
        return points
    }

    /// Every place's latitude, longitude, line and Earth-centred position (computed here), in the
    /// gazetteer's storage order.
    struct Table {
        var latitude: [Double] = [], longitude: [Double] = [], line: [Int] = []
        var x: [Double] = [], y: [Double] = [], z: [Double] = []
    }

    static let table = Result { () throws -> Table in
        var table = Table()
        for entry in try GazetteerFixture.real().entries {
            let p = ecef(entry.latitude, entry.longitude)
            table.latitude.append(entry.latitude)
            table.longitude.append(entry.longitude)
            table.line.append(Int(entry.line))
            table.x.append(p.x)
            table.y.append(p.y)
            table.z.append(p.z)
        }
        return table
    }

    static func ecef(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double, z: Double) {
        let a = 6_378_137.0, f = 1 / 298.257223563
        let e2 = f * (2 - f)
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let n = a / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        return (n * cos(phi) * cos(lambda), n * cos(phi) * sin(lambda), n * (1 - e2) * sin(phi))
    }

    /// The nearest place by scanning all of them: the chord through the Earth is never longer than
    /// the geodesic, so every place whose chord is within the chord-nearest's geodesic distance is
    /// measured with `Geodesy.distance`, and the smallest wins (the earlier line on a tie).
    /// Returns the place's line and its distance.
    static func bruteForce(_ latitude: Double, _ longitude: Double) throws -> (line: Int, distance: Double) {
        let table = try table.get()
        let q = ecef(latitude, longitude)
        var chords = [Double](repeating: 0, count: table.x.count)
        var closest = 0
        chords.withUnsafeMutableBufferPointer { chords in
            table.x.withUnsafeBufferPointer { x in
                table.y.withUnsafeBufferPointer { y in
                    table.z.withUnsafeBufferPointer { z in
                        for index in 0..<chords.count {
                            let dx = x[index] - q.x, dy = y[index] - q.y, dz = z[index] - q.z
                            chords[index] = dx * dx + dy * dy + dz * dz
                            if chords[index] < chords[closest] { closest = index }
                        }
                    }
                }
            }
        }
        let reach = Geodesy.distance((table.latitude[closest], table.longitude[closest]), (latitude, longitude)) + 0.01
        var best: (line: Int, distance: Double)?
        for (index, chord) in chords.enumerated() where chord <= reach * reach {
            let distance = Geodesy.distance((table.latitude[index], table.longitude[index]), (latitude, longitude))
            if let current = best, (current.distance, current.line) <= (distance, table.line[index]) { continue }
            best = (table.line[index], distance)
        }
        return try #require(best)
    }

    @Test("The k-d tree finds exactly what a linear scan finds, for 800 random points")
    func againstLinearScan() throws {
        let gazetteer = try GazetteerFixture.real()
        var ties = 0
        for (lat, lon) in try Self.randomPoints(800, seed: 0x5EED_0014) {
            let found = try #require(gazetteer.nearest(latitude: lat, longitude: lon))
            let expected = try Self.bruteForce(lat, lon)
            if found.place.line != expected.line {
                ties += 1
                #expect(abs(found.distance - expected.distance) < 1e-6, "(\(lat), \(lon)): \(found.place.name) (line \(found.place.line)) at \(found.distance) m, the scan line \(expected.line) at \(expected.distance) m")
            }
            #expect(abs(found.distance - expected.distance) < 1e-6)
        }
        #expect(ties == 0, "ties must go to the earlier line on both sides")
    }

    @Test("The five nearest within a radius are exactly a linear scan's, nearest first, for 200 random points")
    func kNearestAgainstLinearScan() throws {
        let gazetteer = try GazetteerFixture.real()
        let table = try Self.table.get()
        for (lat, lon) in try Self.randomPoints(200, seed: 0x5EED_0015) {
            let radius = 60_000.0
            let found = gazetteer.nearest(latitude: lat, longitude: lon, count: 5, within: radius)
            // The scan: every place's geodesic distance (only those whose chord may be within the radius).
            let q = Self.ecef(lat, lon)
            var near: [(line: Int, distance: Double)] = []
            for index in table.latitude.indices {
                let dx = table.x[index] - q.x, dy = table.y[index] - q.y, dz = table.z[index] - q.z
                guard dx * dx + dy * dy + dz * dz <= (radius + 1) * (radius + 1) else { continue }
                let distance = Geodesy.distance((table.latitude[index], table.longitude[index]), (lat, lon))
                if distance <= radius { near.append((table.line[index], distance)) }
            }
            let expected = near.sorted { ($0.distance, $0.line) < ($1.distance, $1.line) }.prefix(5)
            #expect(found.map(\.place.line) == expected.map(\.line), "(\(lat), \(lon))")
            #expect(zip(found, expected).allSatisfy { abs($0.distance - $1.distance) < 1e-6 })
            #expect(found.first?.place.line == (near.isEmpty ? nil : gazetteer.nearest(latitude: lat, longitude: lon)?.place.line))
        }
        #expect(gazetteer.nearest(latitude: 95, longitude: 0, count: 3).isEmpty)
        #expect(gazetteer.nearest(latitude: 48, longitude: 16, count: 0).isEmpty)
        #expect(gazetteer.nearest(latitude: 48, longitude: 16, count: 3).count == 3)
    }

    /// One answer of the reference script.
    struct Reference: Decodable {
        struct Nearest: Decodable {
            var line: Int, lat: Double, lon: Double, name: String, distance: Double
        }
        struct Other: Decodable {
            var lat: Double, lon: Double, name: String
        }
        var lat: Double, lon: Double
        var nearest: Nearest
        var second: Double
        var rg: Other
    }

    static func reference(count: Int, seed: Int) async throws -> [Reference] {
        let output = try await ExternalTool.run([
            try TrackReferenceTools.python(),
            TrackReferenceTools.root.appendingPathComponent("Tests/Reference/gazetteer_reference.py").path,
            "nearest", try GazetteerFixture.url().path, "--count", String(count), "--seed", String(seed),
        ])
        return try JSONDecoder().decode([Reference].self, from: output)
    }

    @Test("3,000 random points agree with GeographicLib's brute force; reverse_geocoder agrees where it can")
    func againstReference() async throws {
        let gazetteer = try GazetteerFixture.real()
        let answers = try await Self.reference(count: 3_000, seed: 14)
        #expect(answers.count == 3_000)
        var compared = 0
        for answer in answers {
            let found = try #require(gazetteer.nearest(latitude: answer.lat, longitude: answer.lon))
            // Vincenty and Karney agree to well under a millimetre at these distances.
            #expect(abs(found.distance - answer.nearest.distance) < 0.001,
                    "(\(answer.lat), \(answer.lon)): \(found.place.name) (line \(found.place.line)) at \(found.distance) m, GeographicLib \(answer.nearest.name) (line \(answer.nearest.line)) at \(answer.nearest.distance) m")
            #expect(found.place.line == answer.nearest.line || abs(found.distance - answer.nearest.distance) < 1e-6)

            // reverse_geocoder takes the nearest by Euclidean distance in degrees of latitude and
            // longitude. Below 60° and away from the antimeridian, over short distances, a degree of
            // longitude is between cos(latitude) and 1 of a degree of latitude, so its answer must be
            // the true one whenever the second-nearest place is farther by more than that factor.
            let latitudes = [answer.lat, answer.nearest.lat]
            let worst = (latitudes.map(abs).max() ?? 90) + answer.nearest.distance / 111_000 + 0.5
            guard worst < 60, abs(answer.lon) < 170, answer.nearest.distance < 200_000 else { continue }
            guard answer.second / answer.nearest.distance > 1.05 / cos(worst * .pi / 180) else { continue }
            compared += 1
            #expect(answer.rg.lat == found.place.latitude && answer.rg.lon == found.place.longitude,
                    "(\(answer.lat), \(answer.lon)): reverse_geocoder \(answer.rg.name), Waymark \(found.place.name)")
        }
        #expect(compared > 300, "only \(compared) points were clear enough to compare with reverse_geocoder")
    }
}
