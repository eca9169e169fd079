import Foundation
import WaymarkCore

/// Speed and heading between two fixes, on the WGS-84 ellipsoid (WaymarkCore's `Geodesy.inverse`,
/// Vincenty's inverse formula with its azimuths).
enum Motion {
    /// Speed (m/s) from `a` to `b`, and the heading (degrees from true north, 0..<360) at `a`
    /// (the start azimuth) or, with `headingAtEnd`, at `b` (the end azimuth, the direction of
    /// arrival). Nil when `b` is not later than `a`; the heading is nil when they are at the same place.
    static func between(_ a: Fix, _ b: Fix, headingAtEnd: Bool) -> (speed: Double, heading: Double?)? {
        let seconds = b.time.timeIntervalSince(a.time)
        guard seconds > 0, [a.latitude, a.longitude, b.latitude, b.longitude].allSatisfy(\.isFinite) else { return nil }
        let line = Geodesy.inverse((a.latitude, a.longitude), (b.latitude, b.longitude))
        guard line.distance > 0 else { return (0, nil) }
        return (line.distance / seconds, headingAtEnd ? line.endAzimuth : line.startAzimuth)
    }
}
