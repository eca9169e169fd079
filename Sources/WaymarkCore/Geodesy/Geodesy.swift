import Foundation

/// Distances on the WGS-84 ellipsoid.
public enum Geodesy {
    /// The geodesic distance in metres between two points on the WGS-84 ellipsoid.
    ///
    /// Uses Vincenty's inverse formula (1975), accurate to well under a millimetre for
    /// ordinary lines. For nearly antipodal points, where Vincenty's iteration does not
    /// converge, the result falls back to the last iterate and may be off by up to a few
    /// kilometres; no photo track has such lines.
    ///
    /// - Parameters:
    ///   - a: Latitude and longitude in degrees.
    ///   - b: Latitude and longitude in degrees.
    public static func distance(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        distance(a, b, on: .wgs84)
    }

    /// The geodesic distance in metres on the given ellipsoid (Vincenty's inverse formula).
    static func distance(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double), on ellipsoid: Ellipsoid) -> Double {
        inverse(a, b, on: ellipsoid).distance
    }

    /// The geodesic from `a` to `b` on the WGS-84 ellipsoid (Vincenty's inverse problem): its
    /// length in metres and its azimuths (degrees clockwise from true north, 0..<360) at the start
    /// and at the end (the direction of arrival). The azimuths are nil for coincident points.
    public static func inverse(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double))
        -> (distance: Double, startAzimuth: Double?, endAzimuth: Double?) {
        inverse(a, b, on: .wgs84)
    }

    static func inverse(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double), on ellipsoid: Ellipsoid)
        -> (distance: Double, startAzimuth: Double?, endAzimuth: Double?) {
        let f = ellipsoid.flattening
        let semiMajor = ellipsoid.semiMajorAxis
        let semiMinor = semiMajor * (1 - f)
        let radians = Double.pi / 180

        let longitudeDifference = remainder((b.lon - a.lon), 360) * radians
        let u1 = atan((1 - f) * tan(a.lat * radians))
        let u2 = atan((1 - f) * tan(b.lat * radians))
        let sinU1 = sin(u1), cosU1 = cos(u1)
        let sinU2 = sin(u2), cosU2 = cos(u2)

        var lambda = longitudeDifference
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0
        var cosSqAlpha = 0.0, cos2SigmaM = 0.0
        for _ in 0..<1000 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return (0, nil, nil) }  // coincident points
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSqAlpha = 1 - sinAlpha * sinAlpha
            // On the equator cosSqAlpha is 0 and cos2SigmaM is undefined; its term vanishes.
            cos2SigmaM = cosSqAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha
            let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let previous = lambda
            lambda = longitudeDifference + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 { break }
        }

        let uSq = cosSqAlpha * (semiMajor * semiMajor - semiMinor * semiMinor) / (semiMinor * semiMinor)
        let bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        let sinLambda = sin(lambda), cosLambda = cos(lambda)
        let start = atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)
        let end = atan2(cosU1 * sinLambda, -sinU1 * cosU2 + cosU1 * sinU2 * cosLambda)
        return (semiMinor * bigA * (sigma - deltaSigma), degrees(start), degrees(end))
    }

    /// Radians to degrees in 0..<360.
    private static func degrees(_ angle: Double) -> Double {
        var value = (angle * 180 / Double.pi).truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        if value >= 360 { value -= 360 }
        return value
    }

    /// A reference ellipsoid: semi-major axis in metres and flattening.
    struct Ellipsoid: Sendable {
        var semiMajorAxis: Double
        var flattening: Double

        /// WGS-84, the datum of GPS and of the GPS tags Waymark writes.
        static let wgs84 = Ellipsoid(semiMajorAxis: 6_378_137, flattening: 1 / 298.257223563)

        /// The first eccentricity squared, e² = f (2 − f).
        var eccentricitySquared: Double { flattening * (2 - flattening) }

        /// The radius of curvature in the prime vertical, N = a / √(1 − e² sin² φ), in metres
        /// (`latitude` in radians).
        func primeVerticalRadius(at latitude: Double) -> Double {
            semiMajorAxis / (1 - eccentricitySquared * sin(latitude) * sin(latitude)).squareRoot()
        }

        /// The meridian's radius of curvature, M = a (1 − e²) / (1 − e² sin² φ)^(3/2), in metres
        /// (`latitude` in radians).
        func meridianRadius(at latitude: Double) -> Double {
            semiMajorAxis * (1 - eccentricitySquared) / pow(1 - eccentricitySquared * sin(latitude) * sin(latitude), 1.5)
        }
    }
}
