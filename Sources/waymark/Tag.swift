import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkMedia
import WaymarkClient

extension QRSearchMode: ExpressibleByArgument {}

/// `waymark tag`: geotag folders of photos from a track or an encrypted route.
struct Tag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write GPS positions into photos from a recorded route.",
        discussion: """
            The camera clock is synced from the first of these that applies: Waymark QR codes photographed \
            with the camera (found in the folders; two or more also fix clock drift), --sync, --offset, \
            --timezone, or the cameras' own OffsetTimeOriginal. Photos are replaced atomically (temporary \
            file, fsync, rename); every other tag and the image data stay as they were.

            Examples:
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

    @OptionGroup var passphrase: PassphraseOptions

    @OptionGroup(title: "Route service (the route is found by the QR photo's nonce)") var service: ServerOptions

    @Option(name: .long, help: "PHOTO=TIME: a photo of a clock and the time it showed, ISO 8601 with a zone (2024-05-01T10:15:00+02:00).")
    var sync: String?

    @Option(name: .long, parsing: .unconditional, help: "±[D.]HH:MM:SS to add to the camera's time to get UTC (e.g. -02:00:00).")
    var offset: String?

    @Option(name: .long, help: "The IANA time zone the camera clock was set to (Europe/Berlin); daylight saving is applied per photo.")
    var timezone: String?

    @Option(name: .long, help: "Seconds between QR refreshes, when the route does not say (the recorder's default is 5).")
    var qrPeriod: Double = 5

    @Option(name: .long, help: "Which photos to search for QR codes: auto (the first and last of each shooting session, all if none there), all, or off.")
    var qrSearch: QRSearchMode = .auto

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
        if let sync, !sync.contains("=") { throw ValidationError("--sync takes PHOTO=TIME, e.g. --sync IMG_0001.JPG=2024-05-01T10:15:00+02:00") }
        if maxGap <= 0 || maxExtrapolation < 0 { throw ValidationError("--max-gap must be positive and --max-extrapolation not negative.") }
        if !(1...60).contains(qrPeriod) { throw ValidationError("--qr-period is in seconds, between 1 and 60.") }
        if route == nil && !service.isGiven && nonce != nil { throw ValidationError("--nonce only makes sense with --route or --server.") }
        if route != nil && service.isGiven && service.server != nil { throw ValidationError("Give --route FILE or --server URL, not both.") }
    }

    func run() async throws {
        var options = GeotagOptions(folders: folders.map { URL(fileURLWithPath: $0) })
        options.recursive = recursive
        options.trackFiles = track.map { URL(fileURLWithPath: $0) }
        if let route {
            options.routeSource = EnvelopeFile(url: URL(fileURLWithPath: route))
        } else if service.server != nil || (track.isEmpty && service.isGiven) {
            // --server always fetches; WAYMARK_SERVER from the environment only when no --track is
            // given, so that someone with it set can still tag from a GPX file alone.
            options.routeSource = ServerRouteSource(client: try service.client())
        }
        options.routeNonce = nonce
        options.passphrase = passphrase.provider()
        options.qrPeriod = qrPeriod
        options.qrSearch = qrSearch
        options.correlation = CorrelationOptions(maxGap: maxGap, maxExtrapolation: maxExtrapolation)
        options.overwrite = overwrite
        options.dryRun = dryRun
        options.sidecar = sidecar
        do {
            if let sync {
                let parts = sync.split(separator: "=", maxSplits: 1).map(String.init)
                options.manualSync = .init(photo: parts[0], time: try ClockSync.parseSyncTime(parts[1]))
            }
            options.offset = try offset.map(ClockSync.parseOffset)
            options.timeZone = timezone
        } catch {
            throw ValidationError("\(error)")
        }

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
