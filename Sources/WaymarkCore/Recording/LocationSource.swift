import Foundation

/// What a location source reports: a position with its GPS time, or that the receiver has none.
public enum LocationEvent: Sendable, Hashable {
    /// A position. `fix.time` is the GPS fix time, never the computer's wall clock.
    case fix(Fix)
    /// The receiver is working but has no position (gpsd mode 1, NMEA status `V`).
    case noFix
}

/// A GPS receiver or a replay of one: gpsd, NMEA 0183 from a serial device or a file, a GPX replay.
///
/// Pausing a recording (SRR-15) cancels the iteration of ``events()``, which must release the
/// receiver (close the connection, stop reading); resuming (SRR-16) calls ``events()`` again.
public protocol LocationSource: Sendable {
    /// A short human description, e.g. `gpsd at 127.0.0.1:2947` or `replay of walk.gpx at 10×`.
    var description: String { get }
    /// Whether fix times are live GPS time. A replay re-timed to the present is not live; its
    /// times must not correct the computer's clock.
    var isLive: Bool { get }
    /// Events until the iteration is cancelled, or until the source ends (a replay or file
    /// is over), when the stream finishes. A source that fails for good throws, with an error
    /// that says what to check.
    func events() -> AsyncThrowingStream<LocationEvent, Error>
}

extension LocationSource {
    /// The first position the source reports within `timeout`; nil when none comes in time or
    /// the source ends without one. The source is released (its iteration cancelled) either way;
    /// an error of the source is thrown.
    public func firstFix(within timeout: Duration) async throws -> Fix? {
        try await withThrowingTaskGroup(of: Fix?.self) { group in
            group.addTask {
                for try await event in events() {
                    if case let .fix(fix) = event { return fix }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}
