import Fluent
import SQLKit
import Foundation

/// A consumer of the route API: the holder of one key and its secret — a device of an account
/// (`POST /api/v1/keys`) or a key made with `waymark keys`, which belongs to no account.
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
    /// The account whose device this is; `nil` for a key made with `waymark keys`.
    @OptionalField(key: "user_id") var userID: UUID?

    init() {}

    init(_ consumer: Consumer) {
        id = consumer.id
        name = consumer.name
        apiKey = consumer.apiKey
        secret = consumer.secret
        createdAt = consumer.createdAt
        revokedAt = consumer.revokedAt
        userID = consumer.userID
    }

    var consumer: Consumer {
        Consumer(id: id ?? UUID(), name: name, apiKey: apiKey, secret: secret, createdAt: createdAt, revokedAt: revokedAt, userID: userID)
    }
}

/// Device keys belong to accounts: consumers get an owner (none for the keys made before, or
/// with `waymark keys`).
struct AddOwnerToConsumers: AsyncMigration {
    var name: String { "WaymarkConsumerOwner" }

    func prepare(on database: any Database) async throws {
        try await database.schema(ConsumerModel.schema).field("user_id", .uuid).update()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "consumers_user_idx").on(ConsumerModel.schema).column("user_id").run()
        }
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            try await sql.drop(index: "consumers_user_idx").run()
        }
        try await database.schema(ConsumerModel.schema).deleteField("user_id").update()
    }
}
