import Foundation

extension Date {
    /// The instant as UTC with milliseconds, `2024-05-01T12:34:56.789Z`: the form Waymark writes
    /// in track files, reports and messages.
    public var utcTimestamp: String { TrackTime.format(self) }
}
