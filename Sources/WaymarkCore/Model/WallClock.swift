import Foundation

/// The time of day, as a dependency: the one way the server, the API client and the tools read
/// the wall clock, so that tests set it instead of sleeping or racing the real one.
///
/// The recorder, which also needs a monotonic clock, has ``RecorderClock``.
public struct WallClock: Sendable {
    /// The current instant.
    public let now: @Sendable () -> Date

    /// A clock that reads `now`.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The computer's clock.
    public static let system = WallClock { Date() }

    /// A clock stopped at `instant`.
    public static func fixed(_ instant: Date) -> WallClock {
        WallClock { instant }
    }

    /// The current time in whole Unix seconds.
    public var unixSeconds: Int { Int(now().timeIntervalSince1970) }
}

extension Duration {
    /// The duration in seconds, with fractions.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
