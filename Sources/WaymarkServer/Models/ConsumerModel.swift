import Fluent
import Foundation

/// A consumer of the API: the holder of one key and its secret (`waymark keys`).
final class ConsumerModel: Model, @unchecked Sendable {
    static let schema = "consumers"

    @ID(key: .id) var id: UUID?
    /// A name for people, e.g. "alice's phone".
    @Field(key: "name") var name: String
    /// The public key sent as `X-API-Key`.
    @Field(key: "api_key") var apiKey: String
    /// The HMAC secret; kept in full because the server must compute the same HMAC.
    @Field(key: "secret") var secret: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "revoked_at") var revokedAt: Date?

    init() {}

    init(name: String, apiKey: String, secret: String, createdAt: Date) {
        self.name = name
        self.apiKey = apiKey
        self.secret = secret
        self.createdAt = createdAt
    }
}
