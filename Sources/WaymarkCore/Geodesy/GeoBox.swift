import Foundation

/// A latitude/longitude rectangle in degrees that does not cross the antimeridian
/// (`minLongitude ≤ maxLongitude`).
public struct GeoBox: Sendable, Equatable {
    public var minLatitude: Double
    public var maxLatitude: Double
    public var minLongitude: Double
    public var maxLongitude: Double

    public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.maxLatitude = maxLatitude
        self.minLongitude = minLongitude
        self.maxLongitude = maxLongitude
    }

    /// Whether the point lies in the box (edges included).
    public func contains(latitude: Double, longitude: Double) -> Bool {
        (minLatitude...maxLatitude).contains(latitude) && (minLongitude...maxLongitude).contains(longitude)
    }
}

extension Geodesy {
    /// The smallest radius of curvature of the WGS-84 ellipsoid (the meridian's, at the equator),
    /// in metres: no geodesic of length `s` turns through more than `s / minimumRadius` radians.
    static let minimumRadiusOfCurvature = 6_335_439.0

    /// Rectangles that together hold every point within `radius` metres (geodesic, WGS-84) of a
    /// centre: one, or two when the circle crosses the antimeridian; a circle that reaches a pole
    /// gets every longitude. They only narrow a search — they hold some points farther away, and
    /// the geodesic distance decides.
    ///
    /// The bound is the spherical one (the "bounding circle" of Matuschek's method) on a sphere of
    /// the ellipsoid's smallest radius of curvature, widened by 0.1 %, so it is never too small.
    ///
    /// - Parameters:
    ///   - center: Latitude (−90…90) and longitude (any; normalised) in degrees.
    ///   - radius: Metres, at most a few thousand kilometres.
    public static func boundingBoxes(around center: (lat: Double, lon: Double), radius: Double) -> [GeoBox] {
        let degrees = 180 / Double.pi
        let angle = max(0, radius) / minimumRadiusOfCurvature * 1.001  // radians on the sphere
        let latitude = center.lat / degrees
        let minLatitude = latitude - angle, maxLatitude = latitude + angle
        let longitude = remainder(center.lon, 360)
        // A pole inside the circle: every longitude.
        guard maxLatitude < .pi / 2, minLatitude > -.pi / 2 else {
            return [GeoBox(minLatitude: max(minLatitude * degrees, -90), maxLatitude: min(maxLatitude * degrees, 90),
                           minLongitude: -180, maxLongitude: 180)]
        }
        let spread = asin(min(1, sin(angle) / cos(latitude))) * degrees
        let low = minLatitude * degrees, high = maxLatitude * degrees
        let west = longitude - spread, east = longitude + spread
        if west < -180 {
            return [GeoBox(minLatitude: low, maxLatitude: high, minLongitude: west + 360, maxLongitude: 180),
                    GeoBox(minLatitude: low, maxLatitude: high, minLongitude: -180, maxLongitude: east)]
        }
        if east > 180 {
            return [GeoBox(minLatitude: low, maxLatitude: high, minLongitude: west, maxLongitude: 180),
                    GeoBox(minLatitude: low, maxLatitude: high, minLongitude: -180, maxLongitude: east - 360)]
        }
        return [GeoBox(minLatitude: low, maxLatitude: high, minLongitude: west, maxLongitude: east)]
    }
}

extension Geodesy {
    /// Metres per degree of plain latitude/longitude distance — `√(Δlat² + Δlon²)` in degrees, what
    /// PostGIS's `<->` measures between `geometry` points — near a latitude: between two points
    /// within `radius` metres of a place at `latitude` the geodesic is at least `least` and at
    /// most `most` times their plain distance (the same longitude side of the antimeridian).
    ///
    /// A geodesic of length `s` from the place stays within `s` of it, so within the band of
    /// latitudes the circle spans; along it a degree of latitude is M (the meridian's radius of
    /// curvature) and a degree of longitude N·cos φ, per radian. M grows and N·cos φ shrinks
    /// towards the poles, so the band's ends bound them. `least` is 0 when the band reaches a pole.
    public static func degreeScales(latitude: Double, radius: Double) -> (least: Double, most: Double) {
        let degrees = 180 / Double.pi
        let band = max(0, radius) / minimumRadiusOfCurvature * 1.001 * degrees
        let low = max(-90, latitude - band), high = min(90, latitude + band)
        let towardsEquator = low <= 0 && high >= 0 ? 0 : min(abs(low), abs(high))
        let towardsPole = max(abs(low), abs(high))
        let wgs84 = Ellipsoid.wgs84
        func meridian(_ phi: Double) -> Double { wgs84.meridianRadius(at: phi / degrees) }
        func parallel(_ phi: Double) -> Double { wgs84.primeVerticalRadius(at: phi / degrees) * cos(phi / degrees) }
        // At a pole a degree of longitude is no distance at all (cos 90° is not quite 0 in floating point).
        let least = towardsPole >= 90 ? 0 : min(meridian(towardsEquator), parallel(towardsPole)) / degrees
        return (least: least, most: max(meridian(towardsPole), parallel(towardsEquator)) / degrees)
    }
}
