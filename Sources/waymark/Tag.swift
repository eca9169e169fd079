import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkMedia
import WaymarkClient
import WaymarkRecorder

extension QRSearchMode: ExpressibleByArgument {}

/// `waymark tag`: geotag folders of photos from a track or an encrypted route.
struct Tag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write GPS positions into photos from a recorded route.",
        discussion: """
            The camera clock is synced from the first of these that applies: --sync, --offset or --timezone \
            (used as given), Waymark QR codes photographed with the camera (found in the folders; two or more \
            also fix clock drift), or the cameras' own OffsetTimeOriginal. With --sync, --offset or --timezone \
            the photos are not searched for QR codes, except: --check-qr (or --qr-search auto|all) searches \
            them and reports each QR photo that disagrees with the setting, and a route found by its QR nonce \
            (--route, --server, the local recorder) without --nonce makes Waymark search only until the first \
            Waymark code. Either way the setting alone sets the clock.

            The route: --track files and --route win. Without them, the route recorded with the QR photo's \
            nonce is taken from this computer's recorder store (as `waymark record` wrote it; plaintext, \
            so no passphrase is asked), else from the route service when one is configured: a route stored \
            there, or what an OwnTracks device with that nonce sent during the photos' time (`waymark owntracks pair`).

            Photos are replaced atomically (temporary file, fsync, rename); every other tag and the image \
            data stay as they were.

            Examples:
              waymark tag ~/Pictures/trip        (the route recorded on this computer)
              waymark tag ~/Pictures/trip --track trip.gpx
              waymark tag ~/Pictures/trip --route route.json
              waymark tag ~/Pictures/trip --server http://127.0.0.1:8080
              waymark tag trip --track log.nmea --timezone Europe/Berlin --dry-run
            """
    )

    @Argument(help: "Folders (or single photos) to geotag.", completion: .directory)
    var folders: [String]

    @Flag(name: [.short, .long], help: "Also look in sub-folders.")
    var recursive = false

    @Option(name: .long, help: "A track file: GPX 1.0/1.1, KML, GeoJSON, NMEA 0183 (with Magellan PMGNTRK), Garmin FIT or TCX, IGC, or CSV with time, lat and lon columns (repeatable).", completion: .file())
    var track: [String] = []

    @Option(name: .long, help: "An encrypted Waymark route envelope (JSON, or Base64 of it).", completion: .file())
    var route: String?

    @Option(name: .long, help: "The route's nonce, when no QR photo is in the folders.")
    var nonce: String?

    @OptionGroup(title: "The local recorder (the route is found by the QR photo's nonce when no --track or --route is given)")
    var recorderStore: StoreOptions

    @OptionGroup var passphrase: PassphraseOptions

    @OptionGroup(title: "Route service (the route is found by the QR photo's nonce)") var service: ServerOptions

    @Option(name: .long, help: "PHOTO=TIME: a photo of a clock and the time it showed, ISO 8601 with a zone (2024-05-01T10:15:00+02:00). Sets the clock; no QR search.",
            transform: GeotagOptions.ManualSync.init(parsing:))
    var sync: GeotagOptions.ManualSync?

    @Option(name: .long, parsing: .unconditional, help: "±[D.]HH:MM:SS to add to the camera's time to get UTC (e.g. -02:00:00). Sets the clock; no QR search.",
            transform: ClockOffset.init(parsing:))
    var offset: ClockOffset?

    @Option(name: .long, help: "The IANA time zone the camera clock was set to (Europe/Berlin); daylight saving is applied per photo. Sets the clock; no QR search.",
            transform: { name in _ = try ClockSync.timeZone(name); return name })
    var timezone: String?

    @Flag(name: .long, help: "With --sync, --offset or --timezone: search the photos for QR codes anyway and report each QR photo that disagrees with the setting (which still sets the clock).")
    var checkQr = false

    @Option(name: .long, help: "Seconds between QR refreshes (1 to 30), when the route does not say (the recorder's default is 5).")
    var qrPeriod: Double = 5

    @Option(name: .long, help: "Which photos to search for QR codes: auto (the first and last of each shooting session, all if none there; the default), all, or off. Naming auto or all with --sync, --offset or --timezone means --check-qr.")
    var qrSearch: QRSearchMode?

    @Option(name: .long, help: "Longest time between two fixes to interpolate across, in seconds.")
    var maxGap: Double = 60

    @Option(name: .long, help: "How far beyond a track's start or end a photo still gets the end fix, in seconds.")
    var maxExtrapolation: Double = 30

    @Flag(name: .long, help: "Replace GPS positions photos already have.")
    var overwrite = false

    @Flag(name: .long, help: "Show what would be done; write nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Write XMP sidecars (NAME.EXT.xmp) instead of touching the photos.")
    var sidecar = false

    @Flag(name: .long, help: "Print one JSON object per photo on standard output (the summary goes to standard error).")
    var json = false

    func validate() throws {
        if !(maxGap.isFinite && maxGap > 0) { throw ValidationError("--max-gap is in seconds and must be more than 0, e.g. --max-gap 60.") }
        if !(maxExtrapolation.isFinite && maxExtrapolation >= 0) {
            throw ValidationError("--max-extrapolation is in seconds and must be 0 or more, e.g. --max-extrapolation 30.")
        }
        if !(1...30).contains(qrPeriod) { throw ValidationError("--qr-period is in seconds, from 1 to 30 (the recorder's default is 5).") }
        if checkQr && qrSearch == .off { throw ValidationError("--check-qr searches the photos for QR codes; it cannot go with --qr-search off.") }
        if nonce != nil && route == nil && !service.isGiven && !track.isEmpty {
            throw ValidationError("--nonce only makes sense with --route, --server, or without --track (the route from this computer's recorder).")
        }
        if route != nil && service.isGiven && service.server != nil { throw ValidationError("Give --route FILE or --server URL, not both.") }
    }

    func run() async throws {
        var options = GeotagOptions(folders: folders.map { URL(fileURLWithPath: $0) })
        options.recursive = recursive
        options.trackFiles = track.map { URL(fileURLWithPath: $0) }
        if let route {
            options.routeSources = [EnvelopeFile(url: URL(fileURLWithPath: route))]
        } else if track.isEmpty {
            // The route recorded here first (plaintext, no passphrase), then the route service.
            let store = recorderStore.store.map { URL(fileURLWithPath: $0) } ?? RecorderPaths.defaultStoreLocation()
            options.routeSources = [RecorderRouteProvider(storeURL: store)]
            if service.isGiven {
                let client = try service.client()
                options.routeSources += [ServerRouteSource(client: client), OwnTracksRouteSource(client: client)]
            }
        } else if service.server != nil {
            // --server with --track fetches too; WAYMARK_SERVER from the environment does not, so
            // that someone with it set can still tag from a GPX file alone.
            let client = try service.client()
            options.routeSources = [ServerRouteSource(client: client), OwnTracksRouteSource(client: client)]
        }
        options.routeNonce = nonce
        options.passphrase = passphrase.provider()
        options.qrPeriod = qrPeriod
        options.qrSearch = qrSearch ?? .auto
        options.correlation = CorrelationOptions(maxGap: maxGap, maxExtrapolation: maxExtrapolation)
        options.overwrite = overwrite
        options.dryRun = dryRun
        options.sidecar = sidecar
        options.manualSync = sync
        options.offset = offset?.seconds
        options.timeZone = timezone
        // Naming a search mode with a clock set by hand asks for the search, so it checks.
        options.checkQR = checkQr || (options.hasManualClock && qrSearch != nil && qrSearch != .off)

        let bar = ProgressBar(enabled: Terminal.stdoutIsTerminal && !json)
        let result: GeotagRun
        do {
            result = try await Geotagger(options: options).run { event in
                switch event {
                case .found: break
                case .inspecting(let done, let total): bar.update("Reading", done: done, total: total)
                case .writing(let done, let total): bar.update(dryRun ? "Placing" : "Writing", done: done, total: total)
                }
            }
        } catch let error as GeotagError {
            bar.finish()
            Terminal.printError("error: \(error.message)")
            throw ExitCode(2)
        }
        bar.finish()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            for report in result.photos {
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            }
            for line in result.summaryLines { Terminal.printError(line) }
        } else {
            for line in result.summaryLines { print(line) }
        }
        if result.hasFailures { throw ExitCode.failure }
    }
}
