import Fluent
import Foundation

/// A request signature already accepted, kept until its timestamp leaves the allowed window,
/// so that a replay is refused even by another server process or after a restart.
final class SeenSignature: Model, @unchecked Sendable {
    static let schema = "seen_signatures"

    @ID(key: .id) var id: UUID?
    /// Lowercase hex SHA-256 of key and signature (the signature itself is not stored); unique.
    @Field(key: "digest") var digest: String
    /// Unix seconds after which the row may be purged.
    @Field(key: "expires_at") var expiresAt: Int64

    init() {}

    init(digest: String, expiresAt: Int64) {
        self.digest = digest
        self.expiresAt = expiresAt
    }
}
