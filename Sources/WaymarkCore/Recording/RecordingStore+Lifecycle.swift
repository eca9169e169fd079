import Foundation

/// What ``RecordingStore/adopt(passphrase:cost:)`` did with a passphrase.
public enum PassphraseAdoption: Sendable, Equatable {
    /// It matches the verifier kept since the first one (SCO-10).
    case matched
    /// No passphrase was kept yet; this one is now (SCO-09).
    case saved
}

/// A passphrase that does not match the one the recorder keeps (SCO-10).
public struct PassphraseMismatch: Error, CustomStringConvertible, Sendable {
    public init() {}
    public var description: String {
        "This passphrase does not match the one the recorder keeps. Type it again, or forget the kept one with `waymark settings --reset-passphrase` (routes recorded before keep the passphrase they were encrypted with)."
    }
}

extension RecordingStore {
    /// Checks a passphrase against the kept verifier, or keeps it as the first (SCO-09, SCO-10).
    ///
    /// - Parameter cost: scrypt's `n` for a new verifier.
    /// - Throws: ``PassphraseMismatch`` when a verifier is kept and the passphrase differs.
    public func adopt(passphrase: String, cost: Int = 131_072) async throws -> PassphraseAdoption {
        let passphrase = try Passphrase.validate(passphrase)
        if let verifier = try await passphraseVerifier() {
            guard try verifier.matches(passphrase) else { throw PassphraseMismatch() }
            return .matched
        }
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
}
