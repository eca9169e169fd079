import Foundation

/// Where a recorded route is in its life (SHO-02, SRD-03).
public enum RouteState: String, Sendable, Codable, CaseIterable {
    /// Being recorded; its fixes are saved as they come.
    case recording
    /// Stopped and encrypted, waiting for the upload.
    case queued
    /// The route service holds it; `serverRouteID` is known.
    case stored
}

/// A route as the local store keeps it: everything but its fixes.
public struct StoredRoute: Sendable, Hashable, Codable {
    /// The local id, small and stable, for `waymark routes show ID`.
    public var id: Int64
    /// The session nonce its QR codes carried.
    public var nonce: String
    /// When recording started (the computer's clock, corrected by GPS time when it had any).
    public var created: Date
    public var state: RouteState
    /// The id the route service gave, once stored (SRD-09).
    public var serverRouteID: String?
    /// Seconds between QR codes while it was recorded.
    public var qrPeriod: Int
    /// Metres recorded, summed within tracks.
    public var distance: Double
    /// Seconds recorded, pauses excluded.
    public var duration: Double
    public var trackCount: Int
    public var fixCount: Int
    /// Upload attempts so far, and when the next may start.
    public var uploadAttempts: Int
    public var nextAttempt: Date?
    /// Why the last upload attempt failed, for `waymark routes show`.
    public var lastError: String?

    public init(id: Int64, nonce: String, created: Date, state: RouteState, serverRouteID: String? = nil,
                qrPeriod: Int, distance: Double = 0, duration: Double = 0, trackCount: Int = 0, fixCount: Int = 0,
                uploadAttempts: Int = 0, nextAttempt: Date? = nil, lastError: String? = nil) {
        self.id = id
        self.nonce = nonce
        self.created = created
        self.state = state
        self.serverRouteID = serverRouteID
        self.qrPeriod = qrPeriod
        self.distance = distance
        self.duration = duration
        self.trackCount = trackCount
        self.fixCount = fixCount
        self.uploadAttempts = uploadAttempts
        self.nextAttempt = nextAttempt
        self.lastError = lastError
    }
}

/// What the upload of one route sends, fixed when recording stops so that every retry sends
/// the same bytes with the same idempotency key.
public struct RouteUpload: Sendable, Hashable, Codable {
    /// The envelope's JSON (DESIGN §3.2).
    public var envelope: Data
    /// Lowercase hex SHA-256 of `waymark-route-lookup-v1:` + nonce.
    public var lookupKey: String
    /// The delete token (lowercase hex), kept on this computer to delete the route later
    /// without asking for the passphrase again.
    public var deleteToken: String
    /// Lowercase hex SHA-256 of the token's bytes, as the server stores it.
    public var deleteTokenHash: String
    /// The `Idempotency-Key` of every attempt.
    public var idempotencyKey: String

    public init(envelope: Data, lookupKey: String, deleteToken: String, deleteTokenHash: String, idempotencyKey: String) {
        self.envelope = envelope
        self.lookupKey = lookupKey
        self.deleteToken = deleteToken
        self.deleteTokenHash = deleteTokenHash
        self.idempotencyKey = idempotencyKey
    }
}

/// A remote delete still to do: the route is gone locally (SHO-06, SRD-04).
public struct PendingDelete: Sendable, Hashable, Codable {
    public var id: Int64
    /// The server's id, when the upload had succeeded; else the route is found by lookup key,
    /// because an upload whose answer was lost may still have stored it.
    public var serverRouteID: String?
    public var lookupKey: String
    public var deleteToken: String
    public var attempts: Int
    public var nextAttempt: Date?

    public init(id: Int64, serverRouteID: String?, lookupKey: String, deleteToken: String, attempts: Int = 0, nextAttempt: Date? = nil) {
        self.id = id
        self.serverRouteID = serverRouteID
        self.lookupKey = lookupKey
        self.deleteToken = deleteToken
        self.attempts = attempts
        self.nextAttempt = nextAttempt
    }
}

/// The recorder's local, durable store: routes and their fixes, the upload and delete queues,
/// the settings and the passphrase verifier. SQLite behind it on every platform.
///
/// Every method is atomic: it either happens completely or not at all.
public protocol RecordingStore: Sendable {
    // MARK: Recording
    /// Starts a route in state ``RouteState/recording`` and returns its local id.
    func startRoute(nonce: String, created: Date, qrPeriod: Int) async throws -> Int64
    /// Appends fixes to track `track` (0-based) of a route being recorded, with the route's
    /// distance and duration so far, in one transaction.
    func append(_ fixes: [Fix], track: Int, route: Int64, distance: Double, duration: Double) async throws
    /// Moves a recording route to ``RouteState/queued`` with what its upload will send.
    func queue(route: Int64, upload: RouteUpload, distance: Double, duration: Double) async throws

    // MARK: Reading
    /// All routes, newest first (SHO-01).
    func routes() async throws -> [StoredRoute]
    func route(_ id: Int64) async throws -> StoredRoute?
    /// The route's tracks with their fixes, in order.
    func tracks(of id: Int64) async throws -> [Track]

    // MARK: Upload queue
    /// Queued routes whose next attempt is due at `now` (or not set), oldest first.
    func dueUploads(now: Date) async throws -> [(route: StoredRoute, upload: RouteUpload)]
    /// Records the server's answer: the route is ``RouteState/stored``.
    func markStored(route: Int64, serverRouteID: String) async throws
    /// Records a failed attempt; the route stays queued until `nextAttempt`.
    func markUploadFailed(route: Int64, error: String, nextAttempt: Date) async throws

    // MARK: Deleting
    /// Deletes a route locally; if it was queued or stored, queues its remote delete. Returns
    /// false when there is no such route.
    func delete(route: Int64) async throws -> Bool
    /// Remote deletes whose next attempt is due at `now`.
    func dueDeletes(now: Date) async throws -> [PendingDelete]
    func markDeleted(_ id: Int64) async throws
    func markDeleteFailed(_ id: Int64, nextAttempt: Date) async throws

    // MARK: Settings and passphrase
    func settings() async throws -> RecorderSettings
    func save(_ settings: RecorderSettings) async throws
    func passphraseVerifier() async throws -> PassphraseVerifier?
    /// Saves the verifier, or deletes it when nil (SCO-12).
    func save(_ verifier: PassphraseVerifier?) async throws
}
