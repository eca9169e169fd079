#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import WaymarkCore

/// NMEA 0183 from a receiver's device, a FIFO, or a log file replayed.
///
/// - A character device (a USB receiver at /dev/ttyACM0, a Bluetooth one at /dev/rfcomm0) or
///   a FIFO is live: it is opened (a tty in raw mode, at its current baud rate unless `baud`
///   is given) and read line by line with ``NMEAStreamParser``, one event per epoch, until the
///   iteration is cancelled (which closes the device) or the input ends.
/// - A regular file is a replay of the log: not live, its fixes paced by their times divided by
///   `speed` and re-timed to the present as ``GPXReplaySource`` does; the stream finishes at the
///   end of the log.
public struct NMEASource: LocationSource {
    /// The device, FIFO or log file.
    public let path: String
    /// How many times faster than real time a log file plays (devices ignore it).
    public let speed: Double
    /// The serial speed to set on a tty, or `nil` to keep the device's own.
    public let baud: Int?
    /// Whether `path` was a device or FIFO (or did not exist yet) when the source was made.
    public let isLive: Bool
    private let schedule: ReplaySchedule
    private let logger: Logger

    /// A source reading `path`; a log file plays `speed` times faster than recorded, paced by `clock`.
    public init(path: String, speed: Double = 1, baud: Int? = nil, clock: some Clock<Duration> = ContinuousClock(),
                logger: Logger = Logger(label: "waymark.recorder.nmea")) {
        self.path = path
        self.speed = speed
        self.baud = baud
        self.logger = logger
        isLive = PathKind(path: path) != .regularFile
        schedule = ReplaySchedule(speed: speed, clock: clock, logger: logger)
    }

    /// `NMEA receiver at /dev/ttyACM0` or `replay of walk.nmea at 10×`.
    public var description: String {
        isLive
            ? "NMEA receiver at \(path)"
            : "replay of \((path as NSString).lastPathComponent) at \(GPXReplaySource.format(speed: speed))×"
    }

    /// Events from the device, or the replayed log; throws with what to check when the path is
    /// missing, not readable (the `dialout` group), or a file without NMEA fixes.
    public func events() -> AsyncThrowingStream<LocationEvent, Error> {
        switch PathKind(path: path) {
        case .missing:
            return Self.failing(NMEASourceError.missing(path: path))
        case .other(let kind):
            return Self.failing(NMEASourceError.unsupportedKind(path: path, kind: kind))
        case .stream:
            return Self.liveEvents(path: path, baud: baud, logger: logger)
        case .regularFile:
            let path = path
            return schedule.events { try await ReplaySchedule.blocking { try Self.readLog(path) } }
        }
    }

    /// The fixes of an NMEA log file, read as `waymark tag` reads it.
    static func readLog(_ path: String) throws -> [Fix] {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if access(path, R_OK) != 0 && (errno == EACCES || errno == EPERM) {
                throw NMEASourceError.permissionDenied(path: path)
            }
            throw NMEASourceError.openFailed(path: path, reason: error.localizedDescription)
        }
        guard TrackFormat.detect(data: data, fileName: url.lastPathComponent) == .nmea else {
            throw NMEASourceError.notNMEA(path: path)
        }
        return try TrackFile.read(data, fileName: url.lastPathComponent).flatMap(\.fixes)
    }

    static func failing(_ error: any Error) -> AsyncThrowingStream<LocationEvent, Error> {
        AsyncThrowingStream { $0.finish(throwing: error) }
    }
}
