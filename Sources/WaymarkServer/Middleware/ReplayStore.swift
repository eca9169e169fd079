import Crypto
import Fluent
import Foundation
import WaymarkAPI

/// Remembers accepted signatures in the database until their timestamp leaves the window.
struct ReplayStore: Sendable {
    let database: any Database

    /// Records a signature; returns `false` when it had been recorded before (a replay).
    func recordFirstUse(apiKey: String, signature: String, timestamp: Int) async throws -> Bool {
        let digest = SHA256.hash(data: Data("\(apiKey)\n\(signature)".utf8)).map { String(format: "%02x", $0) }.joined()
        let expiresAt = Int64(timestamp + RequestSigning.maxClockSkew + 1)
        do {
            try await database.withWriteConnection { connection in
                try await SeenSignature(digest: digest, expiresAt: expiresAt).create(on: connection)
            }
            return true
        } catch {
            // A unique-index violation means another request (maybe in another process) won.
            if try await SeenSignature.query(on: database).filter(\.$digest == digest).first() != nil {
                return false
            }
            throw error
        }
    }

    /// Deletes signatures whose window has passed.
    func purgeExpired(now: Date = Date()) async throws {
        let cutoff = Int64(now.timeIntervalSince1970)
        try await database.withWriteConnection { connection in
            try await SeenSignature.query(on: connection).filter(\.$expiresAt < cutoff).delete()
        }
    }
}
