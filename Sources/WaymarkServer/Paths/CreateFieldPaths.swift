import Fluent
import SQLKit

/// The `field_paths` table (DESIGN §3.10): each walked path of an account with its measures,
/// so that the list answers without reading the points, and the points as compact JSON text
/// (`[[lat, lon, alt | null, unixTime], …]`, a day of them about 4 MB).
///
/// `area` and `perimeter` are NULL for a path of fewer than 3 different places (it encloses
/// nothing); `idempotency_key` is unique per owner, so that a resent path is stored once.
struct CreateFieldPaths: AsyncMigration {
    var name: String { "WaymarkFieldPaths" }

    static let table = "field_paths"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.table)
            .id()
            .field("owner_id", .uuid, .required, .references(AccountModel.schema, "id"))
            .field("name", .string)
            .field("points", .string, .required)
            .field("point_count", .int64, .required)
            .field("area", .double)
            .field("perimeter", .double)
            .field("length", .double, .required)
            .field("started_at", .double, .required)
            .field("ended_at", .double, .required)
            .field("created_at", .double, .required)
            .field("idempotency_key", .string)
            .unique(on: "owner_id", "idempotency_key")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "field_paths_owner_created_idx").on(Self.table).column("owner_id").column("created_at").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.table).delete()
    }
}
