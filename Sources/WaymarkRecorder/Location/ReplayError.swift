import Foundation

/// A replay that cannot run.
public enum ReplayError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The speed factor is zero, negative or not finite.
    case invalidSpeed(Double)
    /// The track file has no fix with a time.
    case noTimes(file: String)

    public var description: String {
        switch self {
        case .invalidSpeed(let speed):
            "A replay speed of \(speed) cannot run: give a factor above 0, e.g. 1 for real time or 10 for ten times faster."
        case .noTimes(let file):
            "\(file) has no points with times, so it cannot be replayed. Export the track again with timestamps."
        }
    }
}
