import Foundation
import WaymarkCore

/// Speed and heading between two fixes, on the WGS-84 ellipsoid.
///
/// The distance is WaymarkCore's `Geodesy.distance` (Vincenty's inverse formula); WaymarkCore
/// does not expose the azimuths of that inverse problem, so they are computed here with the same
/// formula (Vincenty 1975, equations for α1 and α2).
enum Motion {
    /// Speed (m/s) from `a` to `b`, and the heading (degrees from true north, 0..<360) at `a`
    /// (the start azimuth) or, with `headingAtEnd`, at `b` (the end azimuth, the direction of
    /// arrival). Nil when `b` is not later than `a`; the heading is nil when they are at the same place.
    static func between(_ a: Fix, _ b: Fix, headingAtEnd: Bool) -> (speed: Double, heading: Double?)? {
        let seconds = b.time.timeIntervalSince(a.time)
        guard seconds > 0, [a.latitude, a.longitude, b.latitude, b.longitude].allSatisfy(\.isFinite) else { return nil }
        let metres = Geodesy.distance((a.latitude, a.longitude), (b.latitude, b.longitude))
        guard metres > 0 else { return (0, nil) }
        let azimuths = azimuths(from: (a.latitude, a.longitude), to: (b.latitude, b.longitude))
        return (metres / seconds, azimuths.map { headingAtEnd ? $0.end : $0.start })
    }

    /// The start and end azimuths (degrees clockwise from north, 0..<360) of the geodesic from
    /// `a` to `b`, or nil for coincident points.
    static func azimuths(from a: (lat: Double, lon: Double), to b: (lat: Double, lon: Double)) -> (start: Double, end: Double)? {
        let f = 1 / 298.257223563
        let radians = Double.pi / 180
        let longitudeDifference = remainder(b.lon - a.lon, 360) * radians
        let u1 = atan((1 - f) * tan(a.lat * radians))
        let u2 = atan((1 - f) * tan(b.lat * radians))
        let sinU1 = sin(u1), cosU1 = cos(u1)
        let sinU2 = sin(u2), cosU2 = cos(u2)

        var lambda = longitudeDifference
        for _ in 0..<1000 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            let sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return nil }
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cosSqAlpha = 1 - sinAlpha * sinAlpha
            let cos2SigmaM = cosSqAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha
            let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let previous = lambda
            lambda = longitudeDifference + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 { break }
        }
        let sinLambda = sin(lambda), cosLambda = cos(lambda)
        let start = atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)
        let end = atan2(cosU1 * sinLambda, -sinU1 * cosU2 + cosU1 * sinU2 * cosLambda)
        return (degrees(start), degrees(end))
    }

    /// Radians to degrees in 0..<360.
    private static func degrees(_ angle: Double) -> Double {
        var value = (angle * 180 / Double.pi).truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        if value >= 360 { value -= 360 }
        return value
    }
}
