import Fluent
import Foundation
import WaymarkAPI

/// Remembers each consumer's accepted request nonces in the database until their request's
/// timestamp has left the window (DESIGN §3.3), so that a replayed request is refused.
struct NonceStore: Sendable {
    let database: any Database

    /// Records a nonce; returns `false` when this consumer used it before (a replay).
    func recordFirstUse(consumerID: UUID, nonce: String, timestamp: Int) async throws -> Bool {
        let expiresAt = Int64(timestamp + RequestSigning.maxClockSkew + 1)
        do {
            try await database.withWriteConnection { connection in
                try await SeenNonce(consumerID: consumerID, nonce: nonce, expiresAt: expiresAt).create(on: connection)
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
        try await database.withWriteConnection { connection in
            try await SeenNonce.query(on: connection).filter(\.$expiresAt < cutoff).delete()
        }
    }
}
