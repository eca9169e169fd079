import Fluent
import Foundation
import SQLKit

/// Makes two searches of a million photos fast where photos are dense:
/// - "newest first": SQLite's R*Tree gains capture time as a third dimension, PostgreSQL an index
///   on `captured_at`, so that a search can read the newest photos of a place window by window
///   instead of every photo within the radius;
/// - map tiles down to zoom 16: the map's cell index gains levels 15…18 (filled from the photos
///   already stored), so that a city street view counts cells instead of reading photos.
struct IndexPhotosByTime: AsyncMigration {
    var name: String { "WaymarkPhotosByTime" }

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        if sql.dialect.name == "postgresql" {
            try await sql.raw("CREATE INDEX photos_captured_idx ON \(ident: CreatePhotos.table) (captured_at)").run()
        } else {
            try await sql.drop(table: CreatePhotos.places).run()
            try await Self.createPlaces(on: sql)
            try await sql.raw("""
                INSERT INTO \(ident: CreatePhotos.places) (min_lat, max_lat, min_lon, max_lon, min_t, max_t, photo_id) \
                SELECT latitude, latitude, longitude, longitude, captured_at, captured_at, id FROM \(ident: CreatePhotos.table) \
                WHERE latitude IS NOT NULL AND longitude IS NOT NULL
                """).run()
        }
        // The new levels of the cell index, from the photos already stored, 10,000 at a time.
        var last: UUID?
        while true {
            var select = sql.select().columns(SQLPhotoStore.columns.map { SQLIdentifier($0) }).from(CreatePhotos.table)
                .where("visibility", .equal, SQLBind(Visibility.public.rawValue))
            if let last { select = select.where("id", .greaterThan, SQLBind(last)) }
            let photos = try await select.orderBy("id").limit(10_000).all().map(SQLPhotoStore.photo(from:))
            guard let end = photos.last else { break }
            try await PhotoCellIndex.add(photos, levels: 15...18, on: sql)
            last = end.id
        }
    }

    /// SQLite's R*Tree of photo places and capture times (32-bit boxes, rounded outwards; the
    /// photo's id rides along as an auxiliary column).
    static func createPlaces(on sql: any SQLDatabase) async throws {
        try await sql.raw("""
            CREATE VIRTUAL TABLE \(ident: CreatePhotos.places) USING rtree(key, min_lat, max_lat, min_lon, max_lon, min_t, max_t, +photo_id)
            """).run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.raw("DELETE FROM \(ident: PhotoCellIndex.table) WHERE level > 14").run()
        if sql.dialect.name == "postgresql" {
            try await sql.raw("DROP INDEX IF EXISTS photos_captured_idx").run()
        } else {
            try await sql.drop(table: CreatePhotos.places).run()
            try await sql.raw("CREATE VIRTUAL TABLE \(ident: CreatePhotos.places) USING rtree(key, min_lat, max_lat, min_lon, max_lon, +photo_id)").run()
            try await sql.raw("""
                INSERT INTO \(ident: CreatePhotos.places) (min_lat, max_lat, min_lon, max_lon, photo_id) \
                SELECT latitude, latitude, longitude, longitude, id FROM \(ident: CreatePhotos.table) WHERE latitude IS NOT NULL AND longitude IS NOT NULL
                """).run()
        }
    }
}
