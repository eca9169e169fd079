import Foundation
import WaymarkCore

/// The routes recorded on this computer, found by their QR nonce: plugs into `waymark tag`, which
/// asks it before the route service.
///
/// The store keeps the fixes in plaintext (they never left this computer unencrypted), so the
/// route is handed back as it is: no passphrase is asked, since anyone who can read the store
/// can read its fixes anyway.
public struct RecorderRouteProvider: RouteProvider {
    /// The store file; when it does not exist, nothing was recorded here and every nonce answers nil.
    public var storeURL: URL

    public var name: String {
        FileManager.default.fileExists(atPath: storeURL.path)
            ? "the local recorder's store (\(storeURL.path))"
            : "the local recorder's store (\(storeURL.path), which does not exist: nothing was recorded on this computer)"
    }

    /// A provider over the store file at `storeURL`, opened only when asked (and never created).
    public init(storeURL: URL) { self.storeURL = storeURL }

    public func route(forNonce nonce: String) async throws -> ProvidedRoute? {
        guard FileManager.default.fileExists(atPath: storeURL.path) else { return nil }
        return try await Self.route(forNonce: nonce, in: try SQLiteRecordingStore(path: storeURL.path))
    }

    /// The route recorded with `nonce` in `store`, with every fix it kept (a route still being
    /// recorded, or cut short by a crash, included), or nil.
    public static func route(forNonce nonce: String, in store: any RecordingStore) async throws -> ProvidedRoute? {
        guard let stored = try await store.routes().first(where: { $0.nonce == nonce }) else { return nil }
        let tracks = try await store.tracks(of: stored.id)
        let route = Route(nonce: stored.nonce, qrPeriod: Double(stored.qrPeriod), tracks: tracks)
        return .plaintext(route, detail: "local recorder: route \(stored.id), recorded \(stored.created.utcTimestamp)")
    }
}
