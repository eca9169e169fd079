import Foundation

/// Where the tagger gets an encrypted route for the nonce it read from a QR photo.
///
/// A file on disk answers with its one envelope whatever the nonce; the route service
/// (`waymark serve`) answers by the lookup key derived from the nonce.
public protocol RouteSource: Sendable {
    /// A short description for messages, e.g. the file name or the server URL.
    var name: String { get }
    /// The envelope of the route recorded with `nonce`, or nil when this source has none.
    func envelope(forNonce nonce: String) async throws -> RouteEnvelope?
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
