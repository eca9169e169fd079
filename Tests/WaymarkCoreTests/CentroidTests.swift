import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("Convex-hull centroid on the local tangent plane, against numpy and scipy")
struct CentroidTests {
    /// Metres between two nearby places (a local flat approximation is plenty for millimetres).
    static func metresApart(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        let dLat = (a.lat - b.lat) * 111_320
        var dLon = (a.lon - b.lon).truncatingRemainder(dividingBy: 360)
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return hypot(dLat, dLon * 111_320 * cos(a.lat * Double.pi / 180))
    }

    @Test("Every hull of the shared table: centroid and sample count as the independent numpy/scipy computation")
    func table() throws {
        let book = try GeometryTable.book("centroids.json", "centroids")
        for entry in book.cases {
            let name = entry["name"]?.string ?? "?"
            let c = try GeometryTable.object(.object(entry), required: ["name", "points", "latitude", "longitude", "samples", "withinMetres"],
                                             optional: ["note"], where: name)
            let centroid = try Geodesy.hullCentroid(of: try GeometryTable.points(c["points"], name))
            let expected = (lat: try GeometryTable.number(c["latitude"], name), lon: try GeometryTable.number(c["longitude"], name))
            let off = Self.metresApart((centroid.latitude, centroid.longitude), expected)
            #expect(off <= (try GeometryTable.number(c["withinMetres"], name)), "\(name): \(centroid) is \(off) m from \(expected)")
            #expect(Double(centroid.samples) == (try GeometryTable.number(c["samples"], name)), "\(name)")
            #expect((-180...180).contains(centroid.longitude), "\(name): longitude \(centroid.longitude)")
        }
    }

    @Test("Fixes without a place are refused with a typed reason: none at all, NaN, beyond a pole, infinite")
    func refused() throws {
        let book = try GeometryTable.book("centroids.json", "centroids")
        for entry in book.refused {
            let name = entry["name"]?.string ?? "?"
            let c = try GeometryTable.object(.object(entry), required: ["name", "points", "error"], optional: ["index", "distinct", "note"], where: name)
            let expected = try GeometryTable.error(c, name)
            let points = try GeometryTable.points(c["points"], name)
            #expect(throws: expected, "\(name)") { try Geodesy.hullCentroid(of: points) }
        }
        #expect(throws: Geodesy.GeometryError.invalidPoint(index: 2)) { try Geodesy.hullCentroid(of: [(1, 1), (1, 2), (.nan, .nan)]) }
    }

    @Test("One fix is itself and an outlier inside the hull does not move it")
    func properties() throws {
        let one = try Geodesy.hullCentroid(of: [(49.1951, 16.6068)])
        #expect(abs(one.latitude - 49.1951) < 1e-12 && abs(one.longitude - 16.6068) < 1e-12 && one.samples == 1)
        let square: [(lat: Double, lon: Double)] = [(49.19510, 16.60680), (49.19510, 16.60700), (49.19530, 16.60700), (49.19530, 16.60680)]
        let bare = try Geodesy.hullCentroid(of: square)
        let crowded = try Geodesy.hullCentroid(of: square + Array(repeating: (49.19512, 16.60682), count: 20))
        #expect(Self.metresApart((bare.latitude, bare.longitude), (crowded.latitude, crowded.longitude)) < 1e-6)
        #expect(crowded.samples == 24)
    }

    struct CentroidAnswer: Decodable {
        var latitude: Double
        var longitude: Double
        var samples: Int
    }

    struct Answers: Decodable {
        var centroids: [CentroidAnswer]
    }

    @Test("200 seeded random sets of 1–30 fixes agree with numpy/scipy to 0.1 mm")
    func randomAgainstReference() async throws {
        var random = SplitMix(seed: 3_003)
        var hulls: [[(lat: Double, lon: Double)]] = []
        for index in 0..<200 {
            let lat = Double.random(in: -89.9...89.9, using: &random)
            let lon = index % 9 == 0 ? 180 + Double.random(in: -0.001...0.001, using: &random) : Double.random(in: -180...180, using: &random)
            let spread = pow(10, Double.random(in: 0...3.5, using: &random))
            let n = Int.random(in: 1...30, using: &random)
            var points: [(lat: Double, lon: Double)] = []
            for _ in 0..<n {
                if index % 20 == 5 {  // collinear fixes along the equator
                    points.append((0, lon + Double.random(in: -1...1, using: &random) * spread / 111_320))
                } else {
                    let east = Double.random(in: -1...1, using: &random) * spread, north = Double.random(in: -1...1, using: &random) * spread
                    points.append((min(89.999, max(-89.999, lat + north / 111_320)), lon + east / (111_320 * cos(lat * Double.pi / 180))))
                }
            }
            hulls.append(points)
        }
        let request = GeodesicAreaTests.Request(polygons: [], hulls: hulls.map { $0.map { [$0.lat, $0.lon] } })
        let answers = try await GeometryTable.reference(request, as: Answers.self)
        try #require(answers.centroids.count == hulls.count)
        var failures = 0
        for (points, reference) in zip(hulls, answers.centroids) {
            let centroid = try Geodesy.hullCentroid(of: points)
            let off = Self.metresApart((centroid.latitude, centroid.longitude), (reference.latitude, reference.longitude))
            if !(off <= 1e-4 && centroid.samples == reference.samples) {
                failures += 1
                if failures <= 5 { Issue.record("\(points.count) fixes from \(points[0]): Waymark \(centroid), reference \(reference), \(off) m apart") }
            }
        }
        #expect(failures == 0, "\(failures) of \(hulls.count) centroids differ from the reference")
    }
}
