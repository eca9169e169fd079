import Fluent
import Foundation

/// A stored route: only what the client sent, which the server cannot read.
final class RouteModel: Model, @unchecked Sendable {
    static let schema = "routes"

    /// The route id: 22 characters of base64url (16 random bytes).
    @ID(custom: "id", generatedBy: .user) var id: String?
    /// The envelope as compact JSON (DESIGN §3.2).
    @Field(key: "envelope") var envelope: String
    /// Lowercase hex lookup key; indexed.
    @OptionalField(key: "lookup") var lookup: String?
    /// Lowercase hex SHA-256 of the delete token; without it the route cannot be deleted.
    @OptionalField(key: "delete_token_hash") var deleteTokenHash: String?
    /// Unix seconds.
    @Field(key: "creation_time") var creationTime: Int64
    @Field(key: "consumer_id") var consumerID: UUID

    init() {}

    init(id: String, envelope: String, lookup: String?, deleteTokenHash: String?, creationTime: Int64, consumerID: UUID) {
        self.id = id
        self.envelope = envelope
        self.lookup = lookup
        self.deleteTokenHash = deleteTokenHash
        self.creationTime = creationTime
        self.consumerID = consumerID
    }
}
