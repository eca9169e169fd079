import Foundation
import WaymarkCore

/// The route the photos are placed on, and where it came from.
public struct LoadedRoute: Sendable {
    public var route: Route
    /// Where each part came from: file names, or "route.json (nonce 2OANEZK7Q1XD)".
    public var sources: [String]
    /// The QR refresh period the recorder used, when an encrypted route said so.
    public var qrPeriod: Double?

    public var fixCount: Int { route.tracks.reduce(0) { $0 + $1.fixes.count } }
}

extension Geotagger {
    /// Reads the track files and finds the route of each nonce the QR photos showed (or
    /// `routeNonce`): each route source is asked in turn, and the first that has it wins.
    /// The photos' time in UTC with a margin, for a route source that can ask for less than a
    /// whole route (an OwnTracks device sends for months). The clock is synced with the default
    /// QR period here; the route's own period moves it by seconds, well inside the margin.
    static func photoSpan(_ photos: [InspectedPhoto], options: GeotagOptions) -> DateInterval? {
        guard let clock = try? clockCorrection(photos: photos, options: options, qrPeriod: options.qrPeriod).0 else { return nil }
        let times = photos.compactMap(\.camera).map { clock.utc(for: $0) }
        guard let first = times.min(), let last = times.max() else { return nil }
        let margin = max(600, options.correlation.maxGap + options.correlation.maxExtrapolation)
        return DateInterval(start: first - margin, end: last + margin)
    }

    static func loadRoute(options: GeotagOptions, nonces: [String], qrSearch: QRSearchReport, span: DateInterval? = nil) async throws -> LoadedRoute {
        var tracks: [Track] = []
        var sources: [String] = []
        var qrPeriod: Double?
        for url in options.trackFiles {
            do {
                tracks += try TrackFile.read(contentsOf: url)
                sources.append(url.lastPathComponent)
            } catch {
                throw GeotagError("\(error)")
            }
        }
        let providers = options.routeSources
        if !providers.isEmpty {
            let candidates = (options.routeNonce.map { [$0] } ?? []) + nonces.filter { $0 != options.routeNonce }
            guard !candidates.isEmpty else { throw noNonceError(options: options, qrSearch: qrSearch) }
            var passphrase: String?
            var opened = false
            var sealedFailure: (source: String, error: any Error)?
            for nonce in candidates {
                var readFailures: [String] = []
                providers: for provider in providers {
                    let answer: ProvidedRoute?
                    do {
                        answer = try await provider.route(forNonce: nonce, during: span)
                    } catch {
                        readFailures.append("Cannot read the route from \(provider.name): \(error)")
                        continue
                    }
                    switch answer {
                    case nil:
                        continue providers
                    case let .plaintext(route, detail)?:
                        tracks += route.tracks
                        qrPeriod = route.qrPeriod ?? qrPeriod
                        sources.append(detail)
                    case let .owntracks(sealedKey, messages, span)?:
                        if passphrase == nil {
                            guard let ask = options.passphrase else {
                                throw GeotagError("Opening what the OwnTracks device sent to \(provider.name) needs the passphrase: set WAYMARK_PASSPHRASE, give --passphrase-file, or run in a terminal to be asked.")
                            }
                            passphrase = try ask()
                        }
                        let key: OwnTracksKey
                        do {
                            key = try OwnTracksHistory.key(sealed: sealedKey, passphrase: passphrase ?? "", nonce: nonce)
                        } catch {
                            sealedFailure = (provider.name, error)
                            continue providers
                        }
                        let history = OwnTracksHistory(messages: messages, key: key, span: span)
                        tracks += history.route(nonce: nonce).tracks
                        sources.append("OwnTracks device \(nonce) at \(provider.name): \(history.fixes.count) position\(history.fixes.count == 1 ? "" : "s")"
                            + (history.unreadable > 0 ? ", \(history.unreadable) message\(history.unreadable == 1 ? "" : "s") that did not open" : ""))
                    case let .sealed(envelope)?:
                        if passphrase == nil {
                            guard let ask = options.passphrase else {
                                throw GeotagError("Opening the route from \(provider.name) needs the passphrase: set WAYMARK_PASSPHRASE, give --passphrase-file, or run in a terminal to be asked.")
                            }
                            passphrase = try ask()
                        }
                        do {
                            let route = try envelope.open(passphrase: passphrase ?? "", nonce: nonce)
                            tracks += route.tracks
                            qrPeriod = route.qrPeriod ?? qrPeriod
                            sources.append("\(provider.name) (nonce \(nonce))")
                        } catch {
                            sealedFailure = (provider.name, error)
                            continue providers
                        }
                    }
                    opened = true
                    readFailures = []
                    break providers
                }
                // A source that could not be asked may hold the route: say so rather than tag without it.
                if let failure = readFailures.first { throw GeotagError(failure) }
            }
            if !opened {
                let tried = candidates.joined(separator: ", ")
                if let sealedFailure {
                    throw GeotagError("The route in \(sealedFailure.source) does not open with this passphrase and the QR nonce \(tried): \(sealedFailure.error). Check the passphrase, and that the QR photo belongs to this route.")
                }
                let looked = providers.map(\.name).joined(separator: ", then ")
                throw GeotagError("""
                    No route for the QR nonce \(tried): looked in \(looked).
                    Give the route with --track FILE (a track from the device that recorded it) or --route FILE (its encrypted envelope), \
                    or name the route service that holds it with --server URL (or WAYMARK_SERVER).
                    """)
            }
        }
        let route = Route(tracks: tracks).normalized()
        guard !route.tracks.isEmpty else {
            if options.trackFiles.isEmpty && providers.isEmpty {
                throw GeotagError("No route to place the photos on: give --track FILE (GPX, KML, GeoJSON or NMEA) or --route FILE (an encrypted Waymark route).")
            }
            throw GeotagError("The route has no fixes with times: \(sources.joined(separator: ", ")) hold nothing to place photos on.")
        }
        return LoadedRoute(route: route, sources: sources, qrPeriod: qrPeriod)
    }

    /// Why no route source could be asked: no QR photo showed a nonce and none was given.
    private static func noNonceError(options: GeotagOptions, qrSearch: QRSearchReport) -> GeotagError {
        let names = options.routeSources.map(\.name).joined(separator: " and ")
        let searched = qrSearch.purpose == .off
            ? "the photos were not searched for QR codes (--qr-search off)"
            : "no Waymark QR code was found in the \(qrSearch.searched) photo\(qrSearch.searched == 1 ? "" : "s") searched"
        let remedy = "Put the photo of the recorder's QR code in the folder, or give --nonce NONCE"
        if options.trackFiles.isEmpty && !options.routeSources.allSatisfy({ $0 is any RouteSource }) {
            // Nothing named a route: the recorder's store was only a guess.
            return GeotagError("""
                No route to place the photos on: give --track FILE (GPX, KML, GeoJSON, NMEA…) or --route FILE (an encrypted Waymark route).
                Without them, the route recorded with the QR code's nonce is looked for in \(names), but \(searched). \
                \(remedy) (`waymark routes list --json` shows the nonces recorded here).
                """)
        }
        return GeotagError("""
            The route in \(names) is encrypted together with its QR nonce, and \(searched).
            \(remedy) (the recorder shows it).
            """)
    }
}
