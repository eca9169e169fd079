import Fluent
import Foundation

/// The answer given to a create request that carried an `Idempotency-Key`, so that a retry
/// gets the same answer. Unique per (consumer, key); kept after the route is deleted.
final class IdempotencyRecord: Model, @unchecked Sendable {
    static let schema = "idempotency_keys"

    @ID(key: .id) var id: UUID?
    @Field(key: "consumer_id") var consumerID: UUID
    @Field(key: "key") var key: String
    /// Lowercase hex SHA-256 of the request's content, to tell a retry from a different request.
    @Field(key: "request_hash") var requestHash: String
    @Field(key: "route_id") var routeID: String
    @Field(key: "creation_time") var creationTime: Int64

    init() {}

    init(consumerID: UUID, key: String, requestHash: String, routeID: String, creationTime: Int64) {
        self.consumerID = consumerID
        self.key = key
        self.requestHash = requestHash
        self.routeID = routeID
        self.creationTime = creationTime
    }
}
