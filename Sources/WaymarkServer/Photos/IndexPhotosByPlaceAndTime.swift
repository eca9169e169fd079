import Fluent
import WaymarkCore
import SQLKit

/// PostgreSQL's newest-first search reads a photo's place and capture time from one
/// three-dimensional R-tree, as SQLite's ``IndexPhotosByTime/times`` does: PostGIS's N-D GiST
/// index of the point (longitude, latitude, years since 1970). The index by capture time that
/// came before left the choice to the planner, which at a million photos read either every
/// photo of a dense circle or the newest photos of the whole world (p99 152 ms); it is dropped.
/// SQLite is unchanged.
struct IndexPhotosByPlaceAndTime: AsyncMigration {
    var name: String { "WaymarkPhotosPlaceTime" }

    /// The indexed point, as a query must write it for the planner to use the index.
    static let point: SQLQueryString = "ST_MakePoint(ST_X(place::geometry), ST_Y(place::geometry), captured_at / 31557600.0)"

    /// The box of longitudes, latitudes and capture times (seconds since 1970) that the index
    /// is asked for; an open end of time is a million years away.
    static func box(_ box: GeoBox, from lower: Double?, to upper: Double?) -> SQLQueryString {
        let unit = IndexPhotosByTime.secondsPerUnit
        let start = (lower ?? -1e6 * unit) / unit, end = (upper ?? 1e6 * unit) / unit
        return """
            ST_MakeLine(ST_MakePoint(\(bind: box.minLongitude), \(bind: box.minLatitude), \(bind: start)), \
            ST_MakePoint(\(bind: box.maxLongitude), \(bind: box.maxLatitude), \(bind: end)))
            """
    }

    func prepare(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        try await sql.raw("""
            CREATE INDEX photos_place_time_idx ON \(ident: CreatePhotos.table) USING GIST ((\(Self.point)) gist_geometry_ops_nd)
            """).run()
        // Statistics of the indexed point at once, not at autovacuum's next visit: without them
        // the planner guesses the selectivity of `&&&`.
        try await sql.raw("ANALYZE \(ident: CreatePhotos.table)").run()
        try await sql.raw("DROP INDEX IF EXISTS photos_captured_idx").run()
    }

    func revert(on database: any Database) async throws {
        guard let sql = database as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        try await sql.raw("CREATE INDEX IF NOT EXISTS photos_captured_idx ON \(ident: CreatePhotos.table) (captured_at)").run()
        try await sql.raw("DROP INDEX IF EXISTS photos_place_time_idx").run()
    }
}
