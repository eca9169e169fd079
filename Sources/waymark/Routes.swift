import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkClient
import WaymarkCore
import WaymarkMedia

/// `waymark routes`: the routes recorded here, and routes stored on the route service.
struct Routes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, show, sync and delete recorded routes; get or export routes stored on the route service.",
        subcommands: [List.self, Show.self, Sync.self, Delete.self, Get.self, Export.self]
    )

    /// `waymark routes get (ID | --lookup HEX)`: the stored record, as JSON.
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a stored route (still encrypted) as JSON.")

        @Argument(help: "The route id the service gave.") var id: String?
        @Option(name: .long, help: "The lookup key (64 hex digits) instead of the id.") var lookup: String?
        @OptionGroup var service: ServerOptions

        func validate() throws {
            if (id == nil) == (lookup == nil) { throw ValidationError("Give a route id or --lookup HEX, one of the two.") }
        }

        func run() async throws {
            let client = try service.client()
            let found: RouteRecord?, wanted: String
            if let lookup {
                found = try await fetch { try await client.route(lookup: lookup) }
                wanted = "with lookup \(lookup)"
            } else if let id {
                found = try await fetch { try await client.route(id: id) }
                wanted = id
            } else {
                throw ValidationError("Give a route id or --lookup HEX, one of the two.")
            }
            guard let record = found else {
                Terminal.printError("error: the service has no route \(wanted).")
                throw ExitCode.failure
            }
            try printJSON(record)
        }
    }

    /// `waymark routes delete ID…`: recorded routes by number (SHO-06, SRD-04), stored ones by the service's id.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete routes: recorded ones by number (also from the service), or a stored one by the service's route id.",
            discussion: "A recorded route is deleted here at once and its copy on the route service is deleted by the next upload run (`waymark routes sync`). A route id the service gave is deleted there directly; the passphrase proves it is yours."
        )

        @Argument(help: "Route numbers from `waymark routes list`, or route ids the service gave.") var ids: [String]
        @Flag(name: .long, help: "Do not ask for confirmation.") var yes = false
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var service: ServerOptions
        @OptionGroup var passphrase: PassphraseOptions

        func validate() throws {
            if ids.isEmpty { throw ValidationError("Give the routes to delete: numbers from `waymark routes list`, or route ids the service gave.") }
        }

        func run() async throws {
            guard yes || confirm("Delete \(ids.count == 1 ? "this route" : "these \(ids.count) routes")? [y/N] ") else {
                Terminal.printError(Terminal.stdinIsTerminal ? "Nothing was deleted." : "Nothing was deleted: confirm with --yes when not at a terminal.")
                throw ExitCode.failure
            }
            let local = ids.compactMap { Int64($0) }
            if !local.isEmpty {
                let store = try storeOptions.open()
                for id in local {
                    guard try await store.delete(route: id) else {
                        Terminal.printError("error: there is no recorded route \(id); `waymark routes list` shows them.")
                        throw ExitCode.failure
                    }
                    print("Deleted route \(id) here; its copy on the route service, if any, is deleted by the next `waymark routes sync`.")
                }
            }
            for id in ids where Int64(id) == nil { try await deleteStored(id) }
        }

        private func deleteStored(_ id: String) async throws {
            let client = try service.client()
            guard let record = try await fetch({ try await client.route(id: id) }) else {
                Terminal.printError("error: the service has no route \(id).")
                throw ExitCode.failure
            }
            // DESIGN §3.2: the delete token comes from the same master key as the route's encryption key.
            let token = RouteKeys.deleteToken(master: try record.envelope.masterKey(passphrase: try passphrase.provider()()))
            try await fetch { try await client.deleteRoute(id: id, deleteToken: token) }
            print("Deleted route \(id) from the route service.")
        }
    }

    /// `waymark routes export`: fetches, decrypts locally, writes GPX, KML or GeoJSON.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decrypt a stored route on this computer and write it as GPX, KML or GeoJSON.",
            discussion: """
                The nonce is part of the encryption, so it is always needed: give it with --nonce, or --qr PHOTO to read it \
                from the QR photo (which also finds the route without its id). --owntracks NONCE writes what that OwnTracks \
                device sent (between --from and --to), decrypted here with the passphrase.
                """
        )

        @Argument(help: "The route id (optional with --qr).") var id: String?
        @Option(name: .long, help: "The route's nonce, as the recorder showed it.") var nonce: String?
        @Option(name: .long, help: "A photo of the route's QR code: gives the nonce.", completion: .file()) var qr: String?
        @Option(name: .long, help: "Write GPX to this file.", completion: .file()) var gpx: String?
        @Option(name: .long, help: "Write KML to this file.", completion: .file()) var kml: String?
        @Option(name: .long, help: "Write GeoJSON to this file.", completion: .file()) var geojson: String?
        @Option(name: .long, help: "An OwnTracks device's nonce (from `waymark owntracks pair` or /account): export what it sent.")
        var owntracks: String?
        @Option(name: .long, help: "With --owntracks: the first instant, ISO 8601 with its zone (2026-06-01T08:00:00Z).", transform: Self.instant)
        var from: Date?
        @Option(name: .long, help: "With --owntracks: the last instant, ISO 8601 with its zone.", transform: Self.instant)
        var to: Date?
        @OptionGroup var service: ServerOptions
        @OptionGroup var passphrase: PassphraseOptions

        static func instant(_ text: String) throws -> Date {
            guard let date = InternetTime.date(text) else { throw ValidationError("\(text) is not an ISO 8601 time with its zone, e.g. 2026-06-01T08:00:00Z.") }
            return date
        }

        func validate() throws {
            if [gpx, kml, geojson].compactMap({ $0 }).count != 1 { throw ValidationError("Give one of --gpx FILE, --kml FILE or --geojson FILE.") }
            if let owntracks {
                if id != nil || nonce != nil || qr != nil { throw ValidationError("--owntracks NONCE names what to export; give no route id, --nonce or --qr with it.") }
                if !QRPayload.isWaymarkNonce(owntracks) { throw ValidationError("--owntracks takes the device's nonce: 12 characters of 0-9 and A-Z.") }
                if let from, let to, from > to { throw ValidationError("--from must come before --to.") }
                return
            }
            if from != nil || to != nil { throw ValidationError("--from and --to go with --owntracks.") }
            if (nonce == nil) == (qr == nil) { throw ValidationError("Give --nonce NONCE or --qr PHOTO: the route only opens with its nonce.") }
            if id == nil && qr == nil { throw ValidationError("Give the route id, or --qr PHOTO to find it by the QR code's nonce.") }
        }

        func run() async throws {
            if let owntracks { return try await exportOwnTracks(owntracks) }
            let routeNonce: String
            if let nonce { routeNonce = nonce } else { routeNonce = try await nonceFromPhoto() }
            let client = try service.client()
            let found = try await fetch {
                if let id { return try await client.route(id: id) }
                return try await client.route(lookup: RouteKeys.lookupKey(nonce: routeNonce))
            }
            guard let record = found else {
                Terminal.printError("error: the service has no route \(id ?? "for the nonce \(routeNonce)").")
                throw ExitCode.failure
            }
            let route: Route
            do {
                route = try record.envelope.open(passphrase: try passphrase.provider()(), nonce: routeNonce)
            } catch {
                Terminal.printError("error: \(error)")
                throw ExitCode(2)
            }
            try write(route)
        }

        private func write(_ route: Route) throws {
            guard let (format, path) = gpx.map({ (WritableTrackFormat.gpx, $0) }) ?? kml.map({ (.kml, $0) }) ?? geojson.map({ (.geoJSON, $0) }) else {
                throw ValidationError("Give one of --gpx FILE, --kml FILE or --geojson FILE.")
            }
            try TrackFile.write(route.tracks, as: format).write(to: URL(fileURLWithPath: path), options: .atomic)
            let fixes = route.tracks.reduce(0) { $0 + $1.fixes.count }
            print("Wrote \(route.tracks.count) track\(route.tracks.count == 1 ? "" : "s"), \(fixes) fixes to \(path).")
        }

        /// What an OwnTracks device sent between --from and --to, opened here.
        private func exportOwnTracks(_ nonce: String) async throws {
            let history = try await OwnTracksExport.history(nonce: nonce, from: from, to: to, service: service, passphrase: passphrase)
            guard !history.fixes.isEmpty else {
                Terminal.printError("error: the OwnTracks device \(nonce) sent no position\(from.map { " from \($0.utcTimestamp)" } ?? "")\(to.map { " to \($0.utcTimestamp)" } ?? "").")
                throw ExitCode.failure
            }
            try write(history.route(nonce: nonce))
        }

        private func nonceFromPhoto() async throws -> String {
            guard let qr else { throw ValidationError("Give --nonce NONCE or --qr PHOTO: the route only opens with its nonce.") }
            let found = try await QRSearch.run(folders: [URL(fileURLWithPath: qr)], recursive: false)
            guard let payload = found.qrPhotos.first?.payloads.first, let parsed = QRPayload(payload) else {
                throw ValidationError("\(qr) shows no Waymark QR code that can be read.")
            }
            return parsed.nonce
        }
    }
}

/// Runs a client call, printing its error once and exiting non-zero.
private func fetch<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as WaymarkClientError {
        Terminal.printError("error: \(error)")
        throw ExitCode.failure
    }
}
