import Fluent
import SQLKit

/// The first schema: consumers, routes, idempotency records and seen signatures (the replay
/// store of signature version 1, replaced by ``ReplaceSignatureStoreWithNonces``).
struct CreateWaymarkSchema: AsyncMigration {
    var name: String { "WaymarkSchemaV1" }

    /// The version-1 replay store's table (its model is gone; this migration still creates it).
    static let seenSignaturesSchema = "seen_signatures"

    func prepare(on database: any Database) async throws {
        try await database.schema(ConsumerModel.schema)
            .id()
            .field("name", .string, .required)
            .field("api_key", .string, .required)
            .field("secret", .string, .required)
            .field("created_at", .datetime, .required)
            .field("revoked_at", .datetime)
            .unique(on: "api_key")
            .create()
        try await database.schema(RouteModel.schema)
            .field("id", .string, .identifier(auto: false))
            .field("envelope", .string, .required)
            .field("lookup", .string)
            .field("delete_token_hash", .string)
            .field("creation_time", .int64, .required)
            .field("consumer_id", .uuid, .required, .references(ConsumerModel.schema, "id"))
            .create()
        try await database.schema(IdempotencyRecord.schema)
            .id()
            .field("consumer_id", .uuid, .required, .references(ConsumerModel.schema, "id"))
            .field("key", .string, .required)
            .field("request_hash", .string, .required)
            .field("route_id", .string, .required)
            .field("creation_time", .int64, .required)
            .unique(on: "consumer_id", "key")
            .create()
        try await database.schema(Self.seenSignaturesSchema)
            .id()
            .field("digest", .string, .required)
            .field("expires_at", .int64, .required)
            .unique(on: "digest")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "routes_lookup_idx").on(RouteModel.schema).column("lookup").run()
            try await sql.create(index: "seen_signatures_expires_idx").on(Self.seenSignaturesSchema).column("expires_at").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.seenSignaturesSchema).delete()
        try await database.schema(IdempotencyRecord.schema).delete()
        try await database.schema(RouteModel.schema).delete()
        try await database.schema(ConsumerModel.schema).delete()
    }
}
