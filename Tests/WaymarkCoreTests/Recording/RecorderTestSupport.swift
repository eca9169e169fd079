import Foundation
import WaymarkCore

/// Instants and fixes built by hand for recorder tests: no real clock, no sleeping.
enum RecorderFixture {
    /// 2025-06-01T10:00:00Z, a plausible wall clock.
    static let base = Date(timeIntervalSince1970: 1_748_772_000)
    /// A uptime origin far from zero, so that code mixing up wall and uptime fails.
    static let uptimeOrigin = 5_000.0

    /// The instant `seconds` after the start, wall clock and uptime advancing together.
    static func at(_ seconds: Double, wall: Date = base) -> RecorderInstant {
        RecorderInstant(wall: wall.addingTimeInterval(seconds), uptime: uptimeOrigin + seconds)
    }

    /// A fix `seconds` after `base` (GPS time), `north` metres north of 48.85° N 2.35° E.
    static func fix(_ seconds: Double, north: Double = 0, accuracy: Double? = 5, base: Date = base) -> Fix {
        Fix(latitude: 48.85 + north / 111_200, longitude: 2.35, altitude: 35, accuracy: accuracy,
            time: base.addingTimeInterval(seconds))
    }

    static func engine(_ settings: RecorderSettings = RecorderSettings(), live: Bool = true,
                       start: RecorderInstant = at(0)) -> RecorderEngine {
        RecorderEngine(settings: settings, nonce: "2OANEZK7Q1XD", sourceIsLive: live, start: start)
    }
}
