import Fluent
import Foundation

/// A request nonce already accepted from a consumer, kept until the request's timestamp leaves
/// the allowed window, so that a replay is refused even by another server process or after a
/// restart. Unique per (consumer, nonce).
final class SeenNonce: Model, @unchecked Sendable {
    static let schema = "seen_nonces"

    @ID(key: .id) var id: UUID?
    @Field(key: "consumer_id") var consumerID: UUID
    /// The `X-API-Nonce` as sent (16 to 64 characters of `A-Za-z0-9_-`; not a secret).
    @Field(key: "nonce") var nonce: String
    /// Unix seconds after which the row may be purged.
    @Field(key: "expires_at") var expiresAt: Int64

    init() {}

    init(consumerID: UUID, nonce: String, expiresAt: Int64) {
        self.consumerID = consumerID
        self.nonce = nonce
        self.expiresAt = expiresAt
    }
}
