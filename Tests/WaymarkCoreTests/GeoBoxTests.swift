import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("Bounding boxes of a geodesic circle")
struct GeoBoxTests {
    @Test("Every point within the radius is inside a box: random centres, the antimeridian, the poles, the equator")
    func neverTooSmall() {
        var random = SplitMix(seed: 42)
        let special: [(Double, Double)] = [(0, 179.99), (0, -179.99), (89.99, 0), (-89.95, 120), (0, 0), (45, 180), (-60, -180), (89.5, 179.9)]
        var centres = special
        for _ in 0..<300 { centres.append((Double.random(in: -90...90, using: &random), Double.random(in: -180...180, using: &random))) }
        var checked = 0
        for (lat, lon) in centres {
            let radius = [1_609.344, 2_500, 50_000][checked % 3]
            let boxes = Geodesy.boundingBoxes(around: (lat, lon), radius: radius)
            #expect((1...2).contains(boxes.count))
            for _ in 0..<200 {
                // Points near the circle's edge, in every direction: where a box too small would fail.
                let pointLat = min(90, max(-90, lat + Double.random(in: -1...1, using: &random) * radius / 100_000))
                let spread = radius / 100_000 / max(0.01, cos(pointLat * .pi / 180))
                var pointLon = lon + Double.random(in: -1...1, using: &random) * min(180, spread)
                pointLon = remainder(pointLon, 360)
                let distance = Geodesy.distance((lat, lon), (pointLat, pointLon))
                guard distance <= radius else { continue }
                checked += 1
                #expect(boxes.contains { $0.contains(latitude: pointLat, longitude: pointLon) },
                        "(\(pointLat), \(pointLon)) is \(distance) m from (\(lat), \(lon)) but outside \(boxes)")
            }
        }
        #expect(checked > 10_000, "the test saw enough points inside the circles")
    }

    @Test("Boxes are tight: about twice the radius across, split at the antimeridian, all longitudes at a pole")
    func shapes() throws {
        let box = try #require(Geodesy.boundingBoxes(around: (0, 0), radius: 10_000).first)
        #expect(abs((box.maxLatitude - box.minLatitude) * 110_574 - 20_000) < 200)
        #expect(abs((box.maxLongitude - box.minLongitude) * 111_320 - 20_000) < 200)
        let split = Geodesy.boundingBoxes(around: (10, 179.95), radius: 20_000)
        #expect(split.count == 2)
        #expect(split.contains { $0.maxLongitude == 180 } && split.contains { $0.minLongitude == -180 })
        let polar = Geodesy.boundingBoxes(around: (89.9, 10), radius: 20_000)
        #expect(polar == [GeoBox(minLatitude: try #require(polar.first).minLatitude, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)])
    }
}
