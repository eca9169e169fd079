import Foundation

/// A clock offset given by hand (`--offset`): seconds to add to the camera's time to get UTC.
public struct ClockOffset: Sendable, Hashable {
    /// Seconds to add to camera time; negative when the camera clock is ahead of UTC.
    public var seconds: Double

    /// An offset of `seconds`.
    public init(seconds: Double) { self.seconds = seconds }

    /// Reads `±[D.]HH:MM:SS(.fff)` as ``ClockSync/parseOffset(_:)`` does.
    ///
    /// - Throws: ``ClockSyncError/invalidOffset(_:)``, whose description shows the format.
    public init(parsing text: String) throws {
        seconds = try ClockSync.parseOffset(text)
    }
}
