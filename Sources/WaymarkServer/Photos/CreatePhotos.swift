import Fluent
import SQLKit

/// Photos (DESIGN §3.6) and their place index (§3.7): an R*Tree virtual table on SQLite, a
/// PostGIS `geography(Point, 4326)` column with a GiST index on PostgreSQL.
///
/// On PostgreSQL the migration creates the `postgis` extension if it is missing, which needs a
/// role allowed to (the database owner on PostgreSQL 13 and later, as PostGIS is trusted… or a
/// superuser); without PostGIS installed on the server, it fails saying so.
struct CreatePhotos: AsyncMigration {
    var name: String { "WaymarkPhotos" }

    static let table = "photos"
    /// SQLite's R*Tree of photo places.
    static let places = "photo_places"

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        let postgres = sql.dialect.name == "postgresql"
        if postgres {
            try await sql.raw("CREATE EXTENSION IF NOT EXISTS postgis").run()
        }
        try await database.schema(Self.table)
            .id()
            .field("owner_id", .uuid, .required, .references(AccountModel.schema, "id"))
            .field("title", .string, .required)
            .field("captured_at", .double, .required)
            .field("uploaded_at", .double, .required)
            .field("latitude", .double)
            .field("longitude", .double)
            .field("altitude", .double)
            .field("accuracy", .double)
            .field("azimuth", .double)
            .field("tilt", .double)
            .field("width", .int64, .required)
            .field("height", .int64, .required)
            .field("bytes", .int64, .required)
            .field("mime", .string, .required)
            .field("sha256", .string, .required)
            .field("visibility", .string, .required)
            .field("idempotency_key", .string)
            .unique(on: "owner_id", "idempotency_key")
            .create()
        try await sql.create(index: "photos_owner_idx").on(Self.table).column("owner_id").run()
        try await sql.create(index: "photos_sha256_idx").on(Self.table).column("sha256").run()
        try await PhotoCellIndex.create(on: sql)
        if postgres {
            try await sql.raw("ALTER TABLE \(ident: Self.table) ADD COLUMN place geography(Point, 4326)").run()
            try await sql.raw("CREATE INDEX photos_place_idx ON \(ident: Self.table) USING GIST (place)").run()
            // Map tiles are latitude/longitude rectangles: a planar index answers them exactly.
            try await sql.raw("CREATE INDEX photos_place_geometry_idx ON \(ident: Self.table) USING GIST ((place::geometry))").run()
        } else {
            // The photo's id rides along as an auxiliary column; the R*Tree numbers its rows itself.
            try await sql.raw("CREATE VIRTUAL TABLE \(ident: Self.places) USING rtree(key, min_lat, max_lat, min_lon, max_lon, +photo_id)").run()
        }
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            try await sql.drop(table: PhotoCellIndex.table).ifExists().run()
            if sql.dialect.name != "postgresql" {
                try await sql.drop(table: Self.places).ifExists().run()
            }
        }
        try await database.schema(Self.table).delete()
    }
}
