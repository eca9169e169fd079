import Foundation
import Logging
import WaymarkCore

/// Replays a recorded track (GPX, KML, GeoJSON or NMEA) as if it were being walked now.
///
/// All fixes of all tracks play in time order, re-timed to the present and paced by their
/// original spacing divided by `speed` (see ``ReplaySchedule``). Pausing does not stop the
/// walk: fixes due while paused are skipped. The stream finishes after the last fix. Not live:
/// its times must not correct the computer's clock.
public struct GPXReplaySource: LocationSource {
    /// The replayed track file.
    public let url: URL
    /// How many times faster than real time the track plays.
    public let speed: Double
    private let schedule: ReplaySchedule

    /// A replay of the track file at `url`, `speed` times faster than it was recorded, paced by `clock`.
    public init(url: URL, speed: Double = 1, clock: some Clock<Duration> = ContinuousClock(),
                logger: Logger = Logger(label: "waymark.recorder.replay")) {
        self.url = url
        self.speed = speed
        schedule = ReplaySchedule(speed: speed, clock: clock, logger: logger)
    }

    /// `replay of walk.gpx at 10×`.
    public var description: String { "replay of \(url.lastPathComponent) at \(Self.format(speed: speed))×" }

    /// Always `false`: a replay's times are made up.
    public var isLive: Bool { false }

    /// The fixes from now until the track is over; throws when the file cannot be read or has no times.
    public func events() -> AsyncThrowingStream<LocationEvent, Error> {
        let url = url
        return schedule.events {
            try await ReplaySchedule.blocking {
                let fixes = try TrackFile.read(contentsOf: url).flatMap(\.fixes)
                guard !fixes.isEmpty else { throw ReplayError.noTimes(file: url.lastPathComponent) }
                return fixes
            }
        }
    }

    /// A speed factor without needless decimals: `1`, `2.5`, `10`.
    static func format(speed: Double) -> String {
        speed == speed.rounded() && abs(speed) < 1e9 ? String(Int(speed)) : String(speed)
    }
}
