import Fluent
import SQLKit

/// Scenes and their rephotographs (DESIGN §3.9), with the scenes' own place index: an R*Tree
/// virtual table on SQLite, a PostGIS `geography(Point, 4326)` column with a GiST index on
/// PostgreSQL (the photos' index cannot serve: a scene's place is its pin, which the photo
/// API may not move, and a search of photos would read every photo near a scene).
///
/// Deleting a scene's reference photo through the photo API deletes the scene (and its
/// rephotograph rows, not their photos); deleting the feet shot leaves the scene without one;
/// deleting a rephotograph's photo takes it out of its scene.
struct CreateScenes: AsyncMigration {
    var name: String { "WaymarkScenes" }

    static let scenes = "scenes"
    static let rephotographs = "scene_photos"
    /// SQLite's R*Tree of scene places.
    static let places = "scene_places"

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        let postgres = sql.dialect.name == "postgresql"
        try await database.schema(Self.scenes)
            .id()
            .field("owner_id", .uuid, .required, .references(AccountModel.schema, "id"))
            .field("name", .string)
            .field("reference_photo_id", .uuid, .required, .references(CreatePhotos.table, "id", onDelete: .cascade))
            .field("feet_shot_photo_id", .uuid, .references(CreatePhotos.table, "id", onDelete: .setNull))
            .field("latitude", .double, .required)
            .field("longitude", .double, .required)
            .field("accuracy", .double)
            .field("captured_at", .double, .required)
            .field("attitude_w", .double, .required)
            .field("attitude_x", .double, .required)
            .field("attitude_y", .double, .required)
            .field("attitude_z", .double, .required)
            .field("heading", .double)
            .field("created_at", .double, .required)
            .field("idempotency_key", .string)
            .unique(on: "owner_id", "idempotency_key")
            .create()
        try await sql.create(index: "scenes_owner_idx").on(Self.scenes).column("owner_id").column("created_at").run()
        try await sql.create(index: "scenes_reference_idx").on(Self.scenes).column("reference_photo_id").run()
        try await sql.create(index: "scenes_feet_shot_idx").on(Self.scenes).column("feet_shot_photo_id").run()
        try await database.schema(Self.rephotographs)
            .id()
            .field("scene_id", .uuid, .required, .references(Self.scenes, "id", onDelete: .cascade))
            .field("photo_id", .uuid, .required, .references(CreatePhotos.table, "id", onDelete: .cascade))
            .field("attitude_w", .double, .required)
            .field("attitude_x", .double, .required)
            .field("attitude_y", .double, .required)
            .field("attitude_z", .double, .required)
            .field("heading", .double)
            .field("added_by", .uuid, .required, .references(AccountModel.schema, "id"))
            .field("added_at", .double, .required)
            .field("idempotency_key", .string)
            .unique(on: "photo_id")
            .unique(on: "added_by", "idempotency_key")
            .create()
        try await sql.create(index: "scene_photos_scene_idx").on(Self.rephotographs).column("scene_id").run()
        if postgres {
            try await sql.raw("ALTER TABLE \(ident: Self.scenes) ADD COLUMN place geography(Point, 4326)").run()
            try await sql.raw("CREATE INDEX scenes_place_idx ON \(ident: Self.scenes) USING GIST (place)").run()
        } else {
            try await sql.raw("CREATE VIRTUAL TABLE \(ident: Self.places) USING rtree(key, min_lat, max_lat, min_lon, max_lon, +scene_id)").run()
        }
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase, sql.dialect.name != "postgresql" {
            try await sql.drop(table: Self.places).ifExists().run()
        }
        try await database.schema(Self.rephotographs).delete()
        try await database.schema(Self.scenes).delete()
    }
}
