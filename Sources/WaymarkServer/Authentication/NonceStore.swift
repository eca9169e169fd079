import Fluent
import Foundation
import WaymarkAPI

/// Remembers each consumer's accepted request nonces until their request's timestamp has left
/// the window (DESIGN §3.3), so that a replayed request is refused.
protocol NonceStore: Sendable {
    /// Records a nonce in a commit of its own; returns `false` when this consumer used it before (a replay).
    func recordFirstUse(_ pending: PendingNonce) async throws -> Bool
    /// Deletes nonces whose window has passed at `now`.
    func purgeExpired(now: Date) async throws
}

extension NonceStore {
    /// Records a nonce; returns `false` when this consumer used it before (a replay).
    func recordFirstUse(consumerID: UUID, nonce: String, timestamp: Int) async throws -> Bool {
        try await recordFirstUse(PendingNonce(consumerID: consumerID, nonce: nonce, timestamp: timestamp))
    }
}

/// ``NonceStore`` in the server's database, so that a replay is refused also by another server
/// process or after a restart.
struct FluentNonceStore: NonceStore {
    let database: ServerDatabase

    func recordFirstUse(_ pending: PendingNonce) async throws -> Bool {
        let consumerID = pending.consumerID, nonce = pending.nonce
        do {
            try await database.write { connection in
                try await pending.model.create(on: connection)
            }
            return true
        } catch {
            // A unique-index violation means another request (maybe in another process) came first.
            let earlier = try await SeenNonce.query(on: database.db)
                .filter(\.$consumerID == consumerID)
                .filter(\.$nonce == nonce)
                .first()
            if earlier != nil { return false }
            throw error
        }
    }

    func purgeExpired(now: Date) async throws {
        let cutoff = Int64(now.timeIntervalSince1970)
        try await database.write { connection in
            try await SeenNonce.query(on: connection).filter(\.$expiresAt < cutoff).delete()
        }
    }
}

/// A nonce whose request passed the signature check, not yet recorded.
struct PendingNonce: Sendable {
    var consumerID: UUID
    var nonce: String
    /// The request's `X-API-Timestamp`.
    var timestamp: Int

    /// The row that records it, kept until the timestamp has left the window.
    var model: SeenNonce {
        SeenNonce(consumerID: consumerID, nonce: nonce, expiresAt: Int64(timestamp + RequestSigning.maxClockSkew + 1))
    }
}
