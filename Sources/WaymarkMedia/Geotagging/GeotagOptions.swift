import Foundation
import WaymarkCore

/// Everything `waymark tag` was asked to do.
public struct GeotagOptions: Sendable {
    /// A photo of a clock (any clock) and the true time it shows: `--sync PHOTO=TIME`.
    public struct ManualSync: Sendable {
        public var photo: String
        public var time: Date
        public init(photo: String, time: Date) {
            self.photo = photo
            self.time = time
        }
    }

    public var folders: [URL]
    public var recursive = false
    /// Track files (GPX, KML, GeoJSON, NMEA): `--track`.
    public var trackFiles: [URL] = []
    /// Where encrypted routes come from: `--route FILE` today, the route service later.
    public var routeSource: (any RouteSource)?
    /// The route's nonce, for when no QR photo shows it.
    public var routeNonce: String?
    /// Asked only when an encrypted route must be opened.
    public var passphrase: (@Sendable () throws -> String)?
    public var manualSync: ManualSync?
    /// Seconds to add to camera time to get UTC: `--offset`.
    public var offset: Double?
    /// The IANA zone the camera clock was set to: `--timezone`.
    public var timeZone: String?
    /// The QR refresh period to assume when the route does not say (DESIGN §3.1 default 5 s).
    public var qrPeriod: Double = 5
    public var correlation = CorrelationOptions()
    public var overwrite = false
    public var dryRun = false
    public var sidecar = false
    public var qrSearch: QRSearchMode = .auto
    /// The QR scanner's scales.
    public var scanner = QRScanner()
    /// Worker threads for reading and writing photos.
    public var concurrency = max(2, ProcessInfo.processInfo.activeProcessorCount)

    public init(folders: [URL]) { self.folders = folders }
}

/// Which photos are searched for time-sync QR codes.
public enum QRSearchMode: String, Sendable, CaseIterable {
    /// The first and last photos of each shooting session (where the recorder's code is shot),
    /// and every photo only when none of those shows a code.
    case auto
    /// Every photo (costs one scaled JPEG decode per photo).
    case all
    /// None: the clock comes from --sync, --offset or --timezone.
    case off
}

/// Why a run could not go ahead: a usage, route or clock-sync problem. The description says what to do.
public struct GeotagError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Where a run is, for a progress bar.
public enum GeotagProgress: Sendable {
    case found(photos: Int)
    case inspecting(done: Int, total: Int)
    case writing(done: Int, total: Int)
}
