import Fluent
import SQLKit

/// Request signature version 2 (DESIGN §3.3): the replay store keeps (consumer, nonce) pairs
/// instead of version 1's signature digests.
///
/// Only the replay store changes: consumers, routes and idempotency records stay as they are,
/// so a database from before keeps every key and route. The old signatures are dropped with
/// their table, as no version-1 request is accepted any more.
struct ReplaceSignatureStoreWithNonces: AsyncMigration {
    var name: String { "WaymarkSignatureV2Nonces" }

    func prepare(on database: any Database) async throws {
        try await database.schema(SeenNonce.schema)
            .id()
            .field("consumer_id", .uuid, .required)
            .field("nonce", .string, .required)
            .field("expires_at", .int64, .required)
            .unique(on: "consumer_id", "nonce")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "seen_nonces_expires_idx").on(SeenNonce.schema).column("expires_at").run()
        }
        try await database.schema(CreateWaymarkSchema.seenSignaturesSchema).delete()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CreateWaymarkSchema.seenSignaturesSchema)
            .id()
            .field("digest", .string, .required)
            .field("expires_at", .int64, .required)
            .unique(on: "digest")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "seen_signatures_expires_idx").on(CreateWaymarkSchema.seenSignaturesSchema).column("expires_at").run()
        }
        try await database.schema(SeenNonce.schema).delete()
    }
}
