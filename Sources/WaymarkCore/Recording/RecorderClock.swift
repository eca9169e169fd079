import Foundation

/// One reading of the recorder's two clocks: the wall clock and a monotonic one.
///
/// The wall clock tells the date (and may be wrong, or stepped by NTP); the monotonic clock
/// only measures durations (elapsed time, alerts) and never jumps.
public struct RecorderInstant: Sendable, Hashable {
    /// The computer's wall clock.
    public var wall: Date
    /// Monotonic seconds since an arbitrary origin (e.g. the system's uptime).
    public var uptime: Double

    public init(wall: Date, uptime: Double) {
        self.wall = wall
        self.uptime = uptime
    }
}

/// Where the recorder reads the time; tests pass instants they build by hand.
public protocol RecorderClock: Sendable {
    /// The current instant.
    func now() -> RecorderInstant
}

/// The computer's clocks: `Date()` and `ProcessInfo.systemUptime`.
public struct SystemRecorderClock: RecorderClock {
    public init() {}

    /// The current wall-clock date and system uptime.
    public func now() -> RecorderInstant {
        RecorderInstant(wall: Date(), uptime: ProcessInfo.processInfo.systemUptime)
    }
}
