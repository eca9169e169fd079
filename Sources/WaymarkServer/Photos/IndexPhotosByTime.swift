import Fluent
import Foundation
import SQLKit

/// Makes two searches of a million photos fast where photos are dense:
/// - "newest first" and time filters: SQLite gains a second R*Tree, of place and capture time
///   (``times``), PostgreSQL an index on `captured_at`, so that a search can read the newest
///   photos of a place window by window instead of every photo within the radius. The place-only
///   R*Tree stays for nearest-first searches: a tree split by time as well would make them read
///   every leaf of a city;
/// - map tiles down to zoom 16: the map's cell index gains levels 15…18 (filled from the photos
///   already stored), so that a city street view counts cells instead of reading photos.
struct IndexPhotosByTime: AsyncMigration {
    var name: String { "WaymarkPhotosByTime" }

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        if sql.dialect.name == "postgresql" {
            try await sql.raw("CREATE INDEX photos_captured_idx ON \(ident: CreatePhotos.table) (captured_at)").run()
        } else {
            try await Self.createTimes(on: sql)
            try await sql.raw("""
                INSERT INTO \(ident: Self.times) (min_lat, max_lat, min_lon, max_lon, min_t, max_t, photo_id) \
                SELECT latitude, latitude, longitude, longitude, captured_at / \(bind: Self.secondsPerUnit), \
                captured_at / \(bind: Self.secondsPerUnit), id FROM \(ident: CreatePhotos.table) \
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

    /// SQLite's R*Tree of photo places and capture times.
    static let times = "photo_times"
    /// The R*Tree's unit of time: a Julian year, so that its leaves are split by place and by
    /// time alike (in seconds, time would dwarf degrees and every leaf would span a continent).
    static let secondsPerUnit = 31_557_600.0

    /// Creates ``times`` (32-bit boxes, rounded outwards; the photo's id rides along).
    static func createTimes(on sql: any SQLDatabase) async throws {
        try await sql.raw("""
            CREATE VIRTUAL TABLE \(ident: times) USING rtree(key, min_lat, max_lat, min_lon, max_lon, min_t, max_t, +photo_id)
            """).run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase else { return }
        try await sql.raw("DELETE FROM \(ident: PhotoCellIndex.table) WHERE level > 14").run()
        if sql.dialect.name == "postgresql" {
            try await sql.raw("DROP INDEX IF EXISTS photos_captured_idx").run()
        } else {
            try await sql.drop(table: Self.times).ifExists().run()
        }
    }
}
