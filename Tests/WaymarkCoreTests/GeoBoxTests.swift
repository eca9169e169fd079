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

    @Test("Metres per plain degree: the textbook lengths of a degree (equator, 45°), and they bound every geodesic from the centre")
    func degreeScales() {
        // The length of a degree on WGS-84 by the published series (latitude: 111,132.954 −
        // 559.822 cos 2φ + 1.175 cos 4φ; longitude: 111,412.84 cos φ − 93.5 cos 3φ + 0.118 cos 5φ).
        func series(_ phi: Double) -> (latitude: Double, longitude: Double) {
            let r = phi * .pi / 180
            return (111_132.954 - 559.822 * cos(2 * r) + 1.175 * cos(4 * r), 111_412.84 * cos(r) - 93.5 * cos(3 * r) + 0.118 * cos(5 * r))
        }
        let equator = Geodesy.degreeScales(latitude: 0, radius: 1)
        #expect(abs(equator.least - series(0).latitude) < 0.5 && abs(equator.most - series(0).longitude) < 0.5, "\(equator.least) \(equator.most)")
        let middle = Geodesy.degreeScales(latitude: 45, radius: 1)
        #expect(abs(middle.least - series(45).longitude) < 0.5 && abs(middle.most - series(45).latitude) < 0.5, "\(middle.least) \(middle.most)")
        #expect(Geodesy.degreeScales(latitude: 89.8, radius: 50_000).least == 0, "a circle over the pole has no least")
        #expect(Geodesy.degreeScales(latitude: -89.99, radius: 2_000).least == 0, "1.1 km from the south pole")

        var random = SplitMix(seed: 7)
        var checked = 0
        for index in 0..<400 {
            let lat = index % 4 == 0 ? Double.random(in: -89...89, using: &random) : [0, 45, -60, 75, 88.9][index % 5] + Double.random(in: -0.5...0.5, using: &random)
            let lon = Double.random(in: -179...179, using: &random)
            let radius = [100, 1_609.344, 2_500, 50_000][index % 4]
            let scales = Geodesy.degreeScales(latitude: lat, radius: radius)
            for _ in 0..<100 {
                let pointLat = min(90, max(-90, lat + Double.random(in: -1...1, using: &random) * radius / 100_000))
                let pointLon = lon + Double.random(in: -1...1, using: &random) * min(1, radius / 100_000 / max(0.01, cos(pointLat * .pi / 180)))
                let distance = Geodesy.distance((lat, lon), (pointLat, pointLon))
                guard distance <= radius, distance > 0 else { continue }
                let plain = ((pointLat - lat) * (pointLat - lat) + (pointLon - lon) * (pointLon - lon)).squareRoot()
                checked += 1
                #expect(scales.least * plain <= distance * (1 + 1e-9) && distance <= scales.most * plain * (1 + 1e-9),
                        "(\(pointLat), \(pointLon)) is \(distance) m from (\(lat), \(lon)), \(plain)° plain, outside \(scales)")
            }
        }
        #expect(checked > 10_000, "the test saw enough points inside the circles")
    }
}
