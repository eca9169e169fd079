import Fluent
import Foundation
import WaymarkAPI

/// Remembers each consumer's accepted request nonces in the database until their request's
/// timestamp has left the window (DESIGN §3.3), so that a replayed request is refused.
struct NonceStore: Sendable {
    let database: any Database
    /// The SQLite database's ``WriteGate``, if any.
    var writeGate: WriteGate? = nil

    /// Records a nonce; returns `false` when this consumer used it before (a replay).
    func recordFirstUse(consumerID: UUID, nonce: String, timestamp: Int) async throws -> Bool {
        try await recordFirstUse(PendingNonce(consumerID: consumerID, nonce: nonce, timestamp: timestamp))
    }

    /// Records a nonce in a commit of its own; returns `false` when this consumer used it before (a replay).
    func recordFirstUse(_ pending: PendingNonce) async throws -> Bool {
        let consumerID = pending.consumerID, nonce = pending.nonce
        do {
            try await database.withWriteConnection(gate: writeGate) { connection in
                try await pending.model.create(on: connection)
            }
            return true
        } catch {
            // A unique-index violation means another request (maybe in another process) came first.
            let earlier = try await SeenNonce.query(on: database)
                .filter(\.$consumerID == consumerID)
                .filter(\.$nonce == nonce)
                .first()
            if earlier != nil { return false }
            throw error
        }
    }

    /// Deletes nonces whose window has passed at `now`.
    func purgeExpired(now: Date) async throws {
        let cutoff = Int64(now.timeIntervalSince1970)
        try await database.withWriteConnection(gate: writeGate) { connection in
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
