import Foundation

/// Earth rotation for the sky map.
enum Sidereal {
    /// Greenwich mean sidereal time in radians (0..<2π) by the IAU-82 formula, as Vallado uses
    /// it for SGP4's TEME frame.
    ///
    /// - Parameter julianDay: The Julian day in UT1. Waymark passes UTC: the difference (under
    ///   0.9 s) turns the sky by under 0.004°.
    static func gmst(julianDay: Double) -> Double {
        let centuries = (julianDay - 2451545.0) / 36525.0
        var seconds = -6.2e-6 * centuries * centuries * centuries + 0.093104 * centuries * centuries
            + (876600.0 * 3600 + 8640184.812866) * centuries + 67310.54841
        // 360°/86400 s = 1/240 degree per second of time.
        seconds = fmod(seconds * (Double.pi / 180) / 240.0, 2 * Double.pi)
        return seconds < 0 ? seconds + 2 * Double.pi : seconds
    }

    /// Splits a time into a Julian day number at 0h (…​.5) and the fraction of that day.
    static func julianDay(_ date: Date) -> (whole: Double, fraction: Double) {
        let days = date.timeIntervalSince1970 / 86400
        let whole = days.rounded(.down)
        return (2440587.5 + whole, days - whole)
    }
}
