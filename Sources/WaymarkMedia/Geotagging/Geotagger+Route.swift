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
    /// Reads the track files and opens the encrypted route for the nonces the QR photos showed.
    static func loadRoute(options: GeotagOptions, nonces: [String]) async throws -> LoadedRoute {
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
        if let source = options.routeSource {
            let candidates = (options.routeNonce.map { [$0] } ?? []) + nonces.filter { $0 != options.routeNonce }
            guard !candidates.isEmpty else {
                throw GeotagError("""
                    The route in \(source.name) is encrypted together with its QR nonce, and no Waymark QR code was found in the photos.
                    Put the photo of the QR code in the folder, or give --nonce NONCE (the recorder shows it).
                    """)
            }
            guard let ask = options.passphrase else {
                throw GeotagError("Opening \(source.name) needs the passphrase: set WAYMARK_PASSPHRASE, give --passphrase-file, or run in a terminal to be asked.")
            }
            let passphrase = try ask()
            var opened = false
            var lastError: (any Error)?
            for nonce in candidates {
                let envelope: RouteEnvelope?
                do {
                    envelope = try await source.envelope(forNonce: nonce)
                } catch {
                    throw GeotagError("Cannot read the route from \(source.name): \(error)")
                }
                guard let envelope else { continue }
                do {
                    let route = try envelope.open(passphrase: passphrase, nonce: nonce)
                    tracks += route.tracks
                    qrPeriod = route.qrPeriod ?? qrPeriod
                    sources.append("\(source.name) (nonce \(nonce))")
                    opened = true
                } catch {
                    lastError = error
                }
            }
            if !opened {
                let tried = candidates.joined(separator: ", ")
                if let lastError {
                    throw GeotagError("The route in \(source.name) does not open with this passphrase and the QR nonce \(tried): \(lastError). Check the passphrase, and that the QR photo belongs to this route.")
                }
                throw GeotagError("\(source.name) has no route for the QR nonce \(tried).")
            }
        }
        let route = Route(tracks: tracks).normalized()
        guard !route.tracks.isEmpty else {
            if options.trackFiles.isEmpty && options.routeSource == nil {
                throw GeotagError("No route to place the photos on: give --track FILE (GPX, KML, GeoJSON or NMEA) or --route FILE (an encrypted Waymark route).")
            }
            throw GeotagError("The route has no fixes with times: \(sources.joined(separator: ", ")) hold nothing to place photos on.")
        }
        return LoadedRoute(route: route, sources: sources, qrPeriod: qrPeriod)
    }
}
