import Foundation
import WaymarkCore

/// What happened to one photo; `waymark tag --json` prints one of these per line.
public struct PhotoReport: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        /// GPS written into the photo, or into its sidecar (`sidecar` says which).
        case tagged
        /// The photo already had GPS and `--overwrite` was not given.
        case keptExistingGPS = "kept-existing-gps"
        /// The photo's time does not fall on the route (see `reason` and `secondsFromRoute`).
        case outsideRoute = "outside-route"
        /// The photo has no capture time; nothing is guessed.
        case noCaptureTime = "no-capture-time"
        /// The photo could not be read or written (see `reason`).
        case failed
    }

    /// The photo's path as given on the command line (folder + relative path).
    public var file: String
    /// The camera's own reading, as written in EXIF ("2019:08:01 11:10:02.25").
    public var captureTime: String?
    /// The corrected UTC time of the photo, ISO 8601.
    public var utcTime: String?
    public var status: Status
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    public var accuracy: Double?
    /// Why the photo was not tagged, or where its position went (e.g. a sidecar).
    public var reason: String?
    /// True when the position went into `NAME.EXT.xmp` instead of the photo itself.
    public var sidecar: Bool
    /// How the position went into the photo itself (nil for a sidecar or a photo not tagged).
    public var writeMethod: GPSWriteMethod?
    /// Seconds between the photo and the nearest fix, when the photo is outside the route.
    public var secondsFromRoute: Double?
    /// False on `--dry-run`: what would have been written was not.
    public var written: Bool
    /// For a QR photo checked with `--check-qr`: seconds by which the given clock setting (`--sync`,
    /// `--offset`, `--timezone`) puts the photo later than the time its QR code shows (negative:
    /// earlier; the middle of the code's period is the reference). `nil` for every other photo.
    public var qrClockDifference: Double?
    /// For a photo whose Waymark QR code was read: the image it was read in (its Exif thumbnail, an
    /// embedded preview, or the full image). `nil` for every other photo.
    public var qrImage: QRImageSource?

    public init(file: String, captureTime: String? = nil, utcTime: String? = nil, status: Status,
                latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil, accuracy: Double? = nil,
                reason: String? = nil, sidecar: Bool = false, secondsFromRoute: Double? = nil, written: Bool = false,
                qrClockDifference: Double? = nil, qrImage: QRImageSource? = nil) {
        self.file = file
        self.captureTime = captureTime
        self.utcTime = utcTime
        self.status = status
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
        self.reason = reason
        self.sidecar = sidecar
        self.secondsFromRoute = secondsFromRoute
        self.written = written
        self.qrClockDifference = qrClockDifference
        self.qrImage = qrImage
    }
}

extension PhotoReport {
    private enum CodingKeys: String, CodingKey {
        case file, captureTime, utcTime, status, latitude, longitude, altitude, accuracy, reason, sidecar, writeMethod, secondsFromRoute, written
        case qrClockDifference, qrImage
    }

    /// Every key is always present (null when unknown), in the documented order, so scripts can rely on them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(captureTime, forKey: .captureTime)
        try c.encode(utcTime, forKey: .utcTime)
        try c.encode(status, forKey: .status)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(altitude, forKey: .altitude)
        try c.encode(accuracy, forKey: .accuracy)
        try c.encode(reason, forKey: .reason)
        try c.encode(sidecar, forKey: .sidecar)
        try c.encode(writeMethod, forKey: .writeMethod)
        try c.encode(secondsFromRoute, forKey: .secondsFromRoute)
        try c.encode(written, forKey: .written)
        try c.encode(qrClockDifference, forKey: .qrClockDifference)
        try c.encode(qrImage, forKey: .qrImage)
    }
}

/// Human wording of a time span: "45 s", "12 min 05 s", "2 h 00 min", "3 d 4 h".
public func describeDuration(_ seconds: Double) -> String {
    let total = Int(abs(seconds).rounded())
    switch total {
    case ..<60: return "\(total) s"
    case ..<3600: return String(format: "%d min %02d s", total / 60, total % 60)
    case ..<86_400: return String(format: "%d h %02d min", total / 3600, (total % 3600) / 60)
    default: return "\(total / 86_400) d \((total % 86_400) / 3600) h"
    }
}
