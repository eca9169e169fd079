/// Why a camera clock could not be synchronised, with what to do about it.
public enum ClockSyncError: Error, Equatable, CustomStringConvertible {
    /// No QR photo was given to fit.
    case noSamples
    /// A QR sample carries a QR period outside 1–30 s (or not a number).
    case invalidQRPeriod(photo: String, period: Double)
    /// Exactly two QR photos that no plausible clock can reconcile.
    case disagreeingPair(first: String, second: String, disagreement: Double)
    /// The QR photos would need the camera clock to drift faster than any real clock does.
    case driftTooLarge(photos: [String], ppm: Double)
    /// Three or more QR photos without two that agree, or with several groups that agree equally well.
    case noConsensus(offsets: [PhotoOffset])
    /// `--timezone` named a zone this system does not know.
    case unknownTimeZone(String)
    /// `--offset` text that is not `±[D.]HH:MM:SS`.
    case invalidOffset(String)
    /// `--sync PHOTO=TIME` time that is not ISO 8601 with a zone.
    case invalidSyncTime(String, reason: String)
    /// `--sync` text that is not `PHOTO=TIME` (no `=`, no photo or no time).
    case invalidSyncArgument(String, reason: String)

    /// The clock offset one QR photo suggests on its own.
    public struct PhotoOffset: Sendable, Equatable {
        /// The photo's name.
        public var photo: String
        /// Seconds to add to its camera time to reach the QR code's time.
        public var offset: Double
    }

    public var description: String {
        switch self {
        case .noSamples:
            return "No QR photo to synchronise the camera clock with. Photograph the recorder's QR code with this camera, or pass --sync PHOTO=TIME, --offset or --timezone."
        case let .invalidQRPeriod(photo, period):
            return "The QR period of \(photo) is \(period) s; it must be between 1 and 30 s. Is the route's qrPeriod damaged?"
        case let .disagreeingPair(first, second, disagreement):
            return "The QR photos \(first) and \(second) disagree about the camera clock by \(Self.seconds(disagreement)) — more than a real clock drifts between them. Check that both QR photos come from this camera (and that its clock was not changed in between), remove one of them, or pass --sync PHOTO=TIME."
        case let .driftTooLarge(photos, ppm):
            return "The QR photos \(photos.joined(separator: ", ")) would need the camera clock to drift by \(Int(ppm.rounded())) ppm, far beyond any real clock (under 1000 ppm). Check that they all come from this camera and that its clock was not set in between, or pass --sync PHOTO=TIME."
        case let .noConsensus(offsets):
            let list = offsets.map { "\($0.photo) (\(Self.signedSeconds($0.offset)))" }.joined(separator: ", ")
            return "The QR photos do not agree about the camera clock: \(list). Check that they all come from this camera and that its clock was not set in between, remove the odd ones, or pass --sync PHOTO=TIME."
        case let .unknownTimeZone(name):
            return "Unknown time zone \"\(name)\". Use an IANA name such as Europe/Berlin or America/New_York (see the TZ identifier column of https://en.wikipedia.org/wiki/List_of_tz_database_time_zones, or list /usr/share/zoneinfo)."
        case let .invalidOffset(text):
            return "Cannot read the clock offset \"\(text)\". Write it as ±[D.]HH:MM:SS, e.g. +1:00:00 (camera 1 h behind), -0:02:30, +1.02:00:00 (1 day 2 h) or 00:00:12.5."
        case let .invalidSyncTime(text, reason):
            return "Cannot read the sync time \"\(text)\": \(reason). Write it in ISO 8601 with a zone, e.g. 2019-08-01T12:34:56+02:00 or 2019-08-01T10:34:56Z."
        case let .invalidSyncArgument(text, reason):
            return "Cannot read --sync \"\(text)\": \(reason). Write PHOTO=TIME, the photo of a clock and the time it showed in ISO 8601 with a zone, e.g. IMG_0001.JPG=2024-05-01T10:15:00+02:00."
        }
    }

    static func seconds(_ value: Double) -> String {
        String(format: "%.1f s", abs(value))
    }

    static func signedSeconds(_ value: Double) -> String {
        String(format: "%+.1f s", value)
    }
}
