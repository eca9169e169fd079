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

        /// Reads `PHOTO=TIME` as `--sync` takes it (see ``ClockSync/parseSyncArgument(_:)``).
        ///
        /// - Throws: ``ClockSyncError``, whose description says what was expected.
        public init(parsing text: String) throws {
            (photo, time) = try ClockSync.parseSyncArgument(text)
        }
    }

    public var folders: [URL]
    public var recursive = false
    /// Track files (GPX, KML, GeoJSON, NMEA): `--track`.
    public var trackFiles: [URL] = []
    /// Where the route recorded with a QR photo's nonce comes from, asked in this order for each
    /// nonce (the first that has it wins): `--route FILE`, or the local recorder's store and
    /// then the route service.
    public var routeSources: [any RouteProvider] = []
    /// The route's nonce, for when no QR photo shows it.
    public var routeNonce: String?
    /// Asked only when an encrypted route must be opened.
    public var passphrase: (@Sendable () throws -> String)?
    /// `--sync`, `--offset` and `--timezone` set the clock as given (the first of them, in this
    /// order): the photos are then not searched for QR codes to sync the clock, only for a
    /// route's nonce when a route source needs one and `routeNonce` is not given (stopping at
    /// the first code), or when `checkQR` asks.
    public var manualSync: ManualSync?
    /// Seconds to add to camera time to get UTC: `--offset`.
    public var offset: Double?
    /// The IANA zone the camera clock was set to: `--timezone`.
    public var timeZone: String?
    /// With a clock set by hand: search the photos for QR codes anyway (as `qrSearch` says) and
    /// report each QR photo that disagrees with the setting; the setting still sets the clock.
    public var checkQR = false
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
