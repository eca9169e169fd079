import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkRecorder

/// The recorded routes of this computer, as `routes list --json` and `routes show --json` print them.
struct RecordedRouteJSON: Encodable {
    var id: Int64
    var nonce: String
    var state: String
    var serverRouteID: String?
    var created: String
    var distance: Double
    var duration: Double
    var trackCount: Int
    var fixCount: Int
    var lastError: String?
    var tracks: [TrackJSON]?

    struct TrackJSON: Encodable {
        var start: String?
        var end: String?
        var fixCount: Int
    }

    enum CodingKeys: String, CodingKey {
        case id, nonce, state, created, distance, duration, tracks
        case serverRouteID = "server_route_id", trackCount = "track_count", fixCount = "fix_count", lastError = "last_error"
    }

    init(_ route: StoredRoute, tracks: [Track]? = nil) {
        id = route.id
        nonce = route.nonce
        state = route.state.rawValue
        serverRouteID = route.serverRouteID
        created = route.created.utcTimestamp
        distance = route.distance
        duration = route.duration
        trackCount = route.trackCount
        fixCount = route.fixCount
        lastError = route.lastError
        self.tracks = tracks?.map { TrackJSON(start: $0.start?.utcTimestamp, end: $0.end?.utcTimestamp, fixCount: $0.fixes.count) }
    }

    /// Explicit nulls, so that a missing server id reads as "not stored yet" rather than as an absent field.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(nonce, forKey: .nonce)
        try container.encode(state, forKey: .state)
        try container.encode(serverRouteID, forKey: .serverRouteID)
        try container.encode(created, forKey: .created)
        try container.encode(distance, forKey: .distance)
        try container.encode(duration, forKey: .duration)
        try container.encode(trackCount, forKey: .trackCount)
        try container.encode(fixCount, forKey: .fixCount)
        try container.encode(lastError, forKey: .lastError)
        try container.encodeIfPresent(tracks, forKey: .tracks)
    }
}

extension Routes {
    /// `waymark routes list`: the routes recorded here, newest first (SHO-01, SHO-02).
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the routes recorded on this computer, newest first.")

        @Flag(name: .long, help: "Print JSON.") var json = false
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let store = try storeOptions.open()
            let routes = try await store.routes()
            if json { return try printJSON(routes.map { RecordedRouteJSON($0) }) }
            guard !routes.isEmpty else { return print("No routes recorded yet: `waymark record` records one.") }
            let units = try await store.settings().units
            let rows = routes.map { route in
                [String(route.id), localTime(route.created, seconds: false), route.state.rawValue,
                 RecorderFormat.distance(route.distance, units: units), RecorderFormat.duration(route.duration),
                 String(route.trackCount), route.serverRouteID ?? "—"]
            }
            printTable(header: ["ID", "RECORDED", "STATE", "DISTANCE", "TIME", "TRACKS", "SERVER ROUTE ID"], rows: rows)
        }
    }

    /// `waymark routes show ID`: one recorded route (SRD-01, SRD-03, SRD-09).
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a recorded route: distance, time, tracks and the id the route service gave it.")

        @Argument(help: "The route's number, as `waymark routes list` shows it.") var id: Int64
        @Flag(name: .long, help: "Print JSON.") var json = false
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let store = try storeOptions.open()
            guard let route = try await store.route(id) else {
                Terminal.printError("error: there is no recorded route \(id); `waymark routes list` shows them.")
                throw ExitCode.failure
            }
            let tracks = try await store.tracks(of: id)
            if json { return try printJSON(RecordedRouteJSON(route, tracks: tracks)) }
            let units = try await store.settings().units
            var lines = [
                "Route \(route.id)",
                "  Recorded   \(localTime(route.created, seconds: true))",
                "  State      \(route.state.rawValue)",
                "  Server id  \(route.serverRouteID ?? "— (not stored yet)")",
                "  Distance   \(RecorderFormat.distance(route.distance, units: units))",
                "  Time       \(RecorderFormat.duration(route.duration))",
                "  Nonce      \(route.nonce)",
                "  Tracks     \(tracks.count), \(route.fixCount) fixes",
            ]
            for (index, track) in tracks.enumerated() {
                let span = [track.start, track.end].compactMap { $0.map { localTime($0, seconds: true) } }.joined(separator: " – ")
                lines.append("    \(index + 1)  \(span)  \(track.fixes.count) fix\(track.fixes.count == 1 ? "" : "es")")
            }
            if route.state == .queued, let error = route.lastError { lines.append("  Last upload attempt failed: \(error)") }
            print(lines.joined(separator: "\n"))
        }
    }

    /// `waymark routes sync`: uploads the queued routes and does the queued remote deletes now.
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload the queued routes to the route service now, and carry out queued deletes.",
            discussion: "Retries with backoff until everything is done or --timeout passes; nothing queued is ever dropped. Routes a recorder left unfinished are finished first (that needs the passphrase)."
        )

        @Option(name: .long, help: "Give up retrying after this many seconds (what is left stays queued).") var timeout: Double = 120
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var service: ServerOptions
        @OptionGroup var passphrase: PassphraseOptions

        func run() async throws {
            let store = try storeOptions.open()
            // The passphrase is asked only when a route needs sealing: the same recovery as `waymark record`'s.
            if try await !store.unfinishedRoutes().isEmpty {
                let secret = try await adoptPassphrase(store: store, options: passphrase, command: "routes sync")
                try await recoverUnfinished(store: store) { try RouteUpload.seal(route: $0, passphrase: secret) }
            }
            try await uploadQueued(store: store, service: service, settings: try await store.settings(), within: timeout)
        }
    }
}

/// Uploads what is queued, printing the grouped outcome ("3 routes stored") once; fails when something stays queued.
func uploadQueued(store: SQLiteRecordingStore, service: ServerOptions, settings: RecorderSettings, within seconds: Double) async throws {
    let uploader = RouteUploader(store: store, client: RouteUploader.client(for: try service.credentials()), wifiOnly: settings.wifiOnly)
    let report = await uploader.sync(until: Date().addingTimeInterval(seconds), ignoreSchedule: true)
    if report.stored.count == 1, let only = report.stored.first {
        print("1 route stored: route \(only.route) has the server route id \(only.serverRouteID).")
    } else if report.stored.isEmpty && report.stillQueued == 0 && report.stopped == nil && report.deletesDone == 0 && report.pendingDeletes == 0 {
        print("Nothing to upload: every route is stored.")
    } else {
        print(report.summary)
    }
    if report.stillQueued > 0 || report.pendingDeletes > 0 || report.stopped != nil {
        Terminal.printError("What is not done stays queued; `waymark routes sync` tries again. Nothing is lost.")
        throw ExitCode.failure
    }
}
