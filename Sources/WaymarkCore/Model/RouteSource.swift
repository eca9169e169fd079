import Foundation

/// Where the tagger gets the route recorded with the nonce it read from a QR photo: an
/// encrypted envelope to open with the passphrase, or a route that is already plaintext here
/// (the recorder's own store on the computer that recorded it).
public protocol RouteProvider: Sendable {
    /// A short description for messages, e.g. the file name, the server URL or the store's path.
    var name: String { get }
    /// The route recorded with `nonce`, or nil when this provider has none.
    func route(forNonce nonce: String) async throws -> ProvidedRoute?
    /// The route recorded with `nonce` during `span` (the photos' time, with a margin): a provider
    /// that can ask for less than the whole route does; the others answer the whole.
    func route(forNonce nonce: String, during span: DateInterval?) async throws -> ProvidedRoute?
}

extension RouteProvider {
    public func route(forNonce nonce: String, during span: DateInterval?) async throws -> ProvidedRoute? {
        try await route(forNonce: nonce)
    }
}

/// What a ``RouteProvider`` found for a nonce.
public enum ProvidedRoute: Sendable {
    /// An envelope, opened with the passphrase and the nonce.
    case sealed(RouteEnvelope)
    /// A route already in plaintext, with a short account of where it is, e.g. "route 3, recorded 2024-06-01T10:00:00.000Z".
    case plaintext(Route, detail: String)
    /// What an OwnTracks device sent (DESIGN §3.13): its key sealed under the passphrase with the
    /// nonce, and the `data` of its encrypted messages, whose fixes in `span` make the route.
    case owntracks(sealedKey: RouteEnvelope, messages: [String], span: DateInterval?)
}

/// Where the tagger gets an encrypted route for the nonce it read from a QR photo.
///
/// A file on disk answers with its one envelope whatever the nonce; the route service
/// (`waymark serve`) answers by the lookup key derived from the nonce.
public protocol RouteSource: RouteProvider {
    /// The envelope of the route recorded with `nonce`, or nil when this source has none.
    func envelope(forNonce nonce: String) async throws -> RouteEnvelope?
}

extension RouteSource {
    /// The envelope, sealed: an envelope source holds nothing else.
    public func route(forNonce nonce: String) async throws -> ProvidedRoute? {
        try await envelope(forNonce: nonce).map(ProvidedRoute.sealed)
    }
}

/// A route envelope stored in a file (DESIGN §3.2 JSON, or the same JSON Base64-encoded).
public struct EnvelopeFile: RouteSource {
    public var url: URL
    public var name: String { url.lastPathComponent }

    public init(url: URL) { self.url = url }

    public func envelope(forNonce nonce: String) async throws -> RouteEnvelope? {
        let data = try Data(contentsOf: url)
        if let envelope = try? RouteEnvelope.decode(json: data) { return envelope }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let decoded = Data(base64Encoded: text), let envelope = try? RouteEnvelope.decode(json: decoded) { return envelope }
        return try RouteEnvelope.decode(json: data)  // rethrows the error that names the bad field
    }
}
