import Foundation

extension Geodesy {
    /// The centroid of a set of fixes, as an inspection photo records it.
    public struct HullCentroid: Sendable, Equatable {
        /// Degrees, WGS-84.
        public var latitude: Double
        /// Degrees, WGS-84, in −180…180.
        public var longitude: Double
        /// How many fixes it was computed from.
        public var samples: Int
    }

    /// The centroid of the convex hull of the points, computed on the ellipsoid's local tangent
    /// plane (DESIGN §3.10): a photo's position averaged over the last N fixes, which an outlying
    /// fix moves less than a mean moves with a cluster of them.
    ///
    /// Method: every point goes from geodetic coordinates (height 0 on WGS-84) to Earth-centred
    /// Cartesian (ECEF); their mean, brought back to the ellipsoid along its normal, is the origin
    /// of the local east–north–up frame, and each point's east and north components are its place
    /// on the tangent plane. The hull is Andrew's monotone chain; its area-weighted (shoelace)
    /// centroid goes back through ECEF to latitude and longitude. One point gives itself, two their
    /// midpoint, and collinear points (a hull without area) the middle of their segment.
    ///
    /// Accuracy: the plane's distortion is of the order (d/R)², under a millimetre for fixes within
    /// a kilometre; the arithmetic agrees with an independent numpy/scipy computation to about a
    /// nanometre (`CentroidTests`).
    ///
    /// - Parameter points: Latitude (−90…90) and longitude in degrees.
    /// - Throws: ``GeometryError/noPoints`` for an empty list,
    ///   ``GeometryError/invalidPoint(index:)`` for a point that is not a place.
    public static func hullCentroid(of points: [(lat: Double, lon: Double)]) throws(GeometryError) -> HullCentroid {
        try checkedPoints(points)
        guard !points.isEmpty else { throw .noPoints }
        let cartesian = points.map { TangentPlane.ecef(latitude: $0.lat, longitude: $0.lon) }
        var mean = SIMD3<Double>(0, 0, 0)
        for point in cartesian { mean += point }
        mean /= Double(cartesian.count)
        let plane = TangentPlane(origin: TangentPlane.geodetic(mean))
        let (east, north) = TangentPlane.hullCentroid(cartesian.map(plane.project))
        let back = TangentPlane.geodetic(plane.origin + east * plane.east + north * plane.north)
        return HullCentroid(latitude: back.latitude, longitude: back.longitude, samples: points.count)
    }
}

/// The local east–north plane tangent to the WGS-84 ellipsoid at a point.
struct TangentPlane {
    static let wgs84 = Geodesy.Ellipsoid.wgs84
    static let e2 = wgs84.eccentricitySquared
    static let radians = Double.pi / 180

    /// The tangent point, ECEF metres.
    var origin: SIMD3<Double>
    /// Unit vectors east and north at the tangent point.
    var east: SIMD3<Double>
    var north: SIMD3<Double>

    init(origin point: (latitude: Double, longitude: Double)) {
        origin = Self.ecef(latitude: point.latitude, longitude: point.longitude)
        let phi = point.latitude * Self.radians, lambda = point.longitude * Self.radians
        east = SIMD3(-sin(lambda), cos(lambda), 0)
        north = SIMD3(-sin(phi) * cos(lambda), -sin(phi) * sin(lambda), cos(phi))
    }

    /// East and north metres of an ECEF point from the tangent point.
    func project(_ point: SIMD3<Double>) -> (Double, Double) {
        let d = point - origin
        return ((d * east).sum(), (d * north).sum())
    }

    /// Geodetic degrees at height 0 to ECEF metres.
    static func ecef(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let phi = latitude * radians, lambda = longitude * radians
        let n = wgs84.primeVerticalRadius(at: phi)
        return SIMD3(n * cos(phi) * cos(lambda), n * cos(phi) * sin(lambda), n * (1 - e2) * sin(phi))
    }

    /// ECEF metres to the geodetic latitude and longitude of the foot of the normal, by fixed-point
    /// iteration of tan φ = (z + e²N sin φ) / p (converges in a few steps near the surface).
    static func geodetic(_ v: SIMD3<Double>) -> (latitude: Double, longitude: Double) {
        let p = hypot(v.x, v.y)
        var phi = atan2(v.z, p * (1 - e2))
        for _ in 0..<10 {
            let n = wgs84.primeVerticalRadius(at: phi)
            let next = atan2(v.z + e2 * n * sin(phi), p)
            let done = abs(next - phi) < 1e-15
            phi = next
            if done { break }
        }
        return (phi / radians, p == 0 ? 0 : atan2(v.y, v.x) / radians)
    }

    /// The area-weighted centroid of the convex hull of plane points (Andrew's monotone chain);
    /// the middle of the extreme points when the hull has no area.
    static func hullCentroid(_ points: [(Double, Double)]) -> (Double, Double) {
        let sorted = points.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        guard let first = sorted.first, let last = sorted.last else { return (0, 0) }
        let middle = ((first.0 + last.0) / 2, (first.1 + last.1) / 2)
        guard sorted.count >= 3 else { return middle }
        func cross(_ o: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
            (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
        }
        var lower: [(Double, Double)] = []
        for p in sorted {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        var upper: [(Double, Double)] = []
        for p in sorted.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        let hull = Array(lower.dropLast()) + Array(upper.dropLast())
        guard hull.count >= 3 else { return middle }
        // Shoelace about the first hull vertex, which keeps the products small.
        let (x0, y0) = hull[0]
        var twiceArea = 0.0, cx = 0.0, cy = 0.0
        for i in 1..<(hull.count - 1) {
            let ax = hull[i].0 - x0, ay = hull[i].1 - y0, bx = hull[i + 1].0 - x0, by = hull[i + 1].1 - y0
            let w = ax * by - ay * bx
            twiceArea += w
            cx += w * (ax + bx)
            cy += w * (ay + by)
        }
        let xs = hull.map(\.0), ys = hull.map(\.1)
        let extent = hypot((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
        guard twiceArea > 1e-12 * extent * extent else { return middle }
        return (x0 + cx / (3 * twiceArea), y0 + cy / (3 * twiceArea))
    }
}
