import Foundation

/// What ``RecordingStore/adopt(passphrase:confirmation:cost:)`` did with a passphrase.
///
/// Only ``matched`` and ``saved`` let a recording go on; the shell words the others.
public enum PassphraseAdoption: Sendable, Equatable {
    /// It matches the verifier kept since the first one (SCO-10).
    case matched
    /// No passphrase was kept yet; this one is now (SCO-09).
    case saved
    /// A passphrase is kept and this one differs from it (SCO-10); nothing changed.
    case mismatch
    /// It is empty or only whitespace (SCO-07, SCO-08); nothing changed.
    case empty
    /// No passphrase was kept yet and the confirmation typed differs from it; nothing was kept.
    case confirmationDiffers

    /// Whether the passphrase may seal routes: it matched the kept one or is kept now.
    public var isAccepted: Bool { self == .matched || self == .saved }
}

/// What became of a route a recorder left unfinished (a crash, a power cut, a closed terminal).
public enum RecoveredRoute: Sendable, Hashable {
    /// Its saved fixes were sealed and queued for upload.
    case queued(StoredRoute)
    /// It had not a single fix, and was removed.
    case removed(StoredRoute)

    /// The route as it was found, unfinished.
    public var route: StoredRoute {
        switch self {
        case let .queued(route), let .removed(route): return route
        }
    }
}

extension RecordingStore {
    /// Whether a passphrase verifier is kept, so a shell knows whether to ask for the first
    /// passphrase twice (SCO-09) or once.
    public func keepsPassphrase() async throws -> Bool {
        try await passphraseVerifier() != nil
    }

    /// Checks a passphrase against the kept verifier, or keeps it as the first (SCO-09, SCO-10).
    ///
    /// - Parameters:
    ///   - confirmation: The passphrase typed a second time, when the shell asked for it; it
    ///     only matters when no passphrase is kept yet.
    ///   - cost: scrypt's `n` for a new verifier.
    /// - Returns: The outcome; only a failing store throws.
    public func adopt(passphrase: String, confirmation: String? = nil, cost: Int = 131_072) async throws -> PassphraseAdoption {
        guard let passphrase = try? Passphrase.validate(passphrase) else { return .empty }
        if let verifier = try await passphraseVerifier() {
            return try verifier.matches(passphrase) ? .matched : .mismatch
        }
        if let confirmation, confirmation != passphrase { return .confirmationDiffers }
        try await save(PassphraseVerifier.make(passphrase: passphrase, n: cost))
        return .saved
    }

    /// Routes still marked as recording although no recorder runs: the last one stopped
    /// unexpectedly (a crash, a power cut, a closed terminal).
    public func unfinishedRoutes() async throws -> [StoredRoute] {
        try await routes().filter { $0.state == .recording }
    }

    /// Finishes a route a recorder left unfinished: seals what was saved of it and queues it.
    ///
    /// - Returns: false when it had no fix at all, and was removed.
    public func finish(_ route: StoredRoute, seal: (Route) throws -> RouteUpload) async throws -> Bool {
        let tracks = try await tracks(of: route.id).filter { !$0.fixes.isEmpty }
        guard !tracks.isEmpty else {
            _ = try await delete(route: route.id)
            return false
        }
        let upload = try seal(Route(nonce: route.nonce, qrPeriod: Double(route.qrPeriod), tracks: tracks))
        try await queue(route: route.id, upload: upload, distance: route.distance, duration: route.duration)
        return true
    }

    /// Finishes every route a recorder left unfinished, oldest first: the ones with fixes are
    /// sealed and queued, the empty ones removed. Call it before recording or uploading, while
    /// no recorder runs on this store.
    ///
    /// - Parameter seal: Seals a route with the photographer's passphrase; only called for
    ///   routes with fixes.
    public func recoverUnfinished(seal: (Route) throws -> RouteUpload) async throws -> [RecoveredRoute] {
        var recovered: [RecoveredRoute] = []
        for route in try await unfinishedRoutes().sorted(by: { $0.id < $1.id }) {
            recovered.append(try await finish(route, seal: seal) ? .queued(route) : .removed(route))
        }
        return recovered
    }
}
