import Foundation
import SQLKit
import WaymarkCore

/// The public photos of the map counted per Web Mercator cell, level by level, kept up to date as
/// photos come, change and go, so that a tile of the whole world is 16 rows, not a million photos.
///
/// A cell of level L is a 2^L × 2^L grid square; the tiles of zoom z are cut into the cells of
/// level z + 2 (4 × 4 per tile, 64 px each). Levels 2…18 (zooms 0…16, a street) are kept;
/// closer zooms read the photos themselves. A row holds the count, the sums of the coordinates (for the
/// mean), the extent and the newest photo, both recomputed from the level below when a photo
/// on the extent, or the newest, goes.
enum PhotoCellIndex {
    static let table = "photo_cells"
    static let levels = 2...18
    /// The closest zoom whose tiles are read from this index.
    static var maxZoom: Int { levels.upperBound - 2 }

    /// 8-byte floating point on both databases (SQLKit's `.real` is 4 bytes on PostgreSQL).
    private static let double = SQLDataType.custom(SQLRaw("DOUBLE PRECISION"))

    /// Creates the table (part of ``CreatePhotos``).
    static func create(on sql: any SQLDatabase) async throws {
        try await sql.create(table: table)
            .column("level", type: .int, .notNull)
            .column("cx", type: .bigint, .notNull)
            .column("cy", type: .bigint, .notNull)
            .column("count", type: .bigint, .notNull)
            .column("sum_lat", type: double, .notNull)
            .column("sum_lon", type: double, .notNull)
            .column("min_lat", type: double, .notNull)
            .column("min_lon", type: double, .notNull)
            .column("max_lat", type: double, .notNull)
            .column("max_lon", type: double, .notNull)
            .column("newest_id", type: .text, .notNull)
            .column("newest_at", type: double, .notNull)
            .primaryKey(["level", "cx", "cy"])
            .run()
    }

    /// Whether a photo is counted: public, with a place on the Web Mercator map (within 85.05° of
    /// the equator; the polar caps are on no tile).
    static func counts(_ photo: Photo) -> Bool {
        guard photo.visibility == .public, let place = photo.place else { return false }
        return abs(place.latitude) <= MapTile.maxLatitude
    }

    /// Adds public photos with a place (the others are ignored), cell by cell, in as few statements as the cells allow.
    static func add(_ photos: [Photo], levels: ClosedRange<Int> = levels, on sql: any SQLDatabase) async throws {
        let counted = photos.filter(counts)
        guard !counted.isEmpty else { return }
        // Rows are locked in one order everywhere — finest level first, cells by coordinate, as
        // `remove` goes — so that an upload and a deletion at one place cannot deadlock on PostgreSQL.
        for level in levels.reversed() {
            var cells: [Key: PhotoClusters.Cell] = [:]
            for photo in counted {
                guard let place = photo.place else { continue }
                let cell = MapTile.cell(level: level, latitude: place.latitude, longitude: place.longitude)
                cells[Key(level: level, cx: cell.x, cy: cell.y), default: PhotoClusters.Cell()].add(photo)
            }
            let ordered = cells.sorted { ($0.key.cx, $0.key.cy) < ($1.key.cx, $1.key.cy) }
            for slice in stride(from: 0, to: ordered.count, by: 500).map({ ordered[$0..<min($0 + 500, ordered.count)] }) {
                var insert = sql.insert(into: table)
                    .columns("level", "cx", "cy", "count", "sum_lat", "sum_lon", "min_lat", "min_lon", "max_lat", "max_lon", "newest_id", "newest_at")
                for (key, cell) in slice {
                    insert = insert.values(
                        SQLBind(key.level), SQLBind(Int64(key.cx)), SQLBind(Int64(key.cy)), SQLBind(Int64(cell.count)),
                        SQLBind(cell.sumLatitude), SQLBind(cell.sumLongitude), SQLBind(cell.minLatitude), SQLBind(cell.minLongitude),
                        SQLBind(cell.maxLatitude), SQLBind(cell.maxLongitude), SQLBind(cell.newest?.uuidString ?? ""), SQLBind(cell.newestCapturedAt)
                    )
                }
                try await sql.raw("""
                    \(insert.query) ON CONFLICT (level, cx, cy) DO UPDATE SET \
                    count = \(ident: table).count + excluded.count, \
                    sum_lat = \(ident: table).sum_lat + excluded.sum_lat, sum_lon = \(ident: table).sum_lon + excluded.sum_lon, \
                    min_lat = CASE WHEN excluded.min_lat < \(ident: table).min_lat THEN excluded.min_lat ELSE \(ident: table).min_lat END, \
                    min_lon = CASE WHEN excluded.min_lon < \(ident: table).min_lon THEN excluded.min_lon ELSE \(ident: table).min_lon END, \
                    max_lat = CASE WHEN excluded.max_lat > \(ident: table).max_lat THEN excluded.max_lat ELSE \(ident: table).max_lat END, \
                    max_lon = CASE WHEN excluded.max_lon > \(ident: table).max_lon THEN excluded.max_lon ELSE \(ident: table).max_lon END, \
                    newest_id = CASE WHEN excluded.newest_at >= \(ident: table).newest_at THEN excluded.newest_id ELSE \(ident: table).newest_id END, \
                    newest_at = CASE WHEN excluded.newest_at >= \(ident: table).newest_at THEN excluded.newest_at ELSE \(ident: table).newest_at END
                    """).run()
            }
        }
    }

    /// Takes a photo out (if it was counted). When it was a cell's newest, or lay on the cell's
    /// extent, the cell's newest and extent are found again, from the photos themselves at the
    /// closest level and from the four cells below at every other: a cluster's box never keeps
    /// the corner of a photo that was made private, moved or deleted (#34).
    static func remove(_ photo: Photo, on sql: any SQLDatabase) async throws {
        guard counts(photo), let place = photo.place else { return }
        for level in levels.reversed() {
            let cell = MapTile.cell(level: level, latitude: place.latitude, longitude: place.longitude)
            let key = Key(level: level, cx: cell.x, cy: cell.y)
            try await sql.raw("""
                UPDATE \(ident: table) SET count = count - 1, sum_lat = sum_lat - \(bind: place.latitude), sum_lon = sum_lon - \(bind: place.longitude) \
                WHERE level = \(bind: level) AND cx = \(bind: Int64(cell.x)) AND cy = \(bind: Int64(cell.y))
                """).run()
            try await sql.raw("DELETE FROM \(ident: table) WHERE level = \(bind: level) AND cx = \(bind: Int64(cell.x)) AND cy = \(bind: Int64(cell.y)) AND count <= 0").run()
            guard let row = try await row(key, on: sql) else { continue }
            let onEdge = place.latitude <= row.minLatitude || place.latitude >= row.maxLatitude
                || place.longitude <= row.minLongitude || place.longitude >= row.maxLongitude
            guard row.newest == photo.id || onEdge else { continue }
            var rest = PhotoClusters.Cell()
            var newest: (id: UUID, at: Double)?
            func consider(_ id: UUID, _ at: Double) {
                if newest.map({ at > $0.at || (at == $0.at && id.uuidString > $0.id.uuidString) }) ?? true { newest = (id, at) }
            }
            if level == levels.upperBound {
                // The closest level's cell is small: its photos are read.
                for candidate in try await SQLPhotoStore.photos(in: key.box, visible: .public, on: sql) where counts(candidate) && candidate.id != photo.id {
                    guard let spot = candidate.place,
                          MapTile.cell(level: level, latitude: spot.latitude, longitude: spot.longitude) == (cell.x, cell.y) else { continue }
                    rest.add(candidate)
                    consider(candidate.id, candidate.capturedAt.timeIntervalSince1970)
                }
            } else {
                for child in key.children {
                    guard let below = try await self.row(child, on: sql) else { continue }
                    rest.merge(below)
                    if let id = below.newest { consider(id, below.newestCapturedAt) }
                }
            }
            guard let newest, rest.count > 0 else { continue }
            try await sql.raw("""
                UPDATE \(ident: table) SET newest_id = \(bind: newest.id.uuidString), newest_at = \(bind: newest.at), \
                min_lat = \(bind: rest.minLatitude), min_lon = \(bind: rest.minLongitude), max_lat = \(bind: rest.maxLatitude), max_lon = \(bind: rest.maxLongitude) \
                WHERE level = \(bind: level) AND cx = \(bind: Int64(cell.x)) AND cy = \(bind: Int64(cell.y))
                """).run()
        }
    }

    /// The cells of a tile (zoom ≤ ``maxZoom``), by their place in the tile (row × 4 + column).
    static func cells(of tile: MapTile, on sql: any SQLDatabase) async throws -> [Int: PhotoClusters.Cell] {
        let level = tile.cellLevel, side = MapTile.cellsPerSide
        let rows = try await sql.raw("""
            SELECT * FROM \(ident: table) WHERE level = \(bind: level) \
            AND cx >= \(bind: Int64(tile.x * side)) AND cx < \(bind: Int64((tile.x + 1) * side)) \
            AND cy >= \(bind: Int64(tile.y * side)) AND cy < \(bind: Int64((tile.y + 1) * side))
            """).all()
        var cells: [Int: PhotoClusters.Cell] = [:]
        for row in rows {
            let cell = try decode(row)
            let cx = Int(try row.decode(column: "cx", as: Int64.self)), cy = Int(try row.decode(column: "cy", as: Int64.self))
            cells[(cy - tile.y * side) * side + (cx - tile.x * side)] = cell
        }
        return cells
    }

    /// Public photos per square metre around a place, from the smallest of the cells around it
    /// at levels 16, 14, 12, 10 and 8 that holds at least `atLeast` photos; `nil` when none does.
    /// A nearby search sizes its first circle with it.
    static func density(latitude: Double, longitude: Double, atLeast: Int, on sql: any SQLDatabase) async throws -> Double? {
        guard abs(latitude) <= MapTile.maxLatitude else { return nil }
        // One primary-key lookup per level (an OR of the five would scan the table on SQLite).
        let lookups = [16, 14, 12, 10, 8].map { level -> SQLQueryString in
            let cell = MapTile.cell(level: level, latitude: latitude, longitude: longitude)
            return "SELECT level, count FROM \(ident: table) WHERE level = \(bind: level) AND cx = \(bind: Int64(cell.x)) AND cy = \(bind: Int64(cell.y))"
        }
        struct Row: Decodable { var level: Int; var count: Int }
        var union = lookups[0]
        for lookup in lookups.dropFirst() { union += " UNION ALL " + lookup }
        let rows = try await sql.raw(union).all(decoding: Row.self)
        guard let finest = rows.filter({ $0.count >= atLeast }).max(by: { $0.level < $1.level }) else { return nil }
        // Web Mercator is conformal: a cell is a square of the equator's length × cos(latitude) / 2^level on each side.
        let side = 40_075_016.686 * cos(latitude * .pi / 180) / Double(1 << finest.level)
        return Double(finest.count) / (side * side)
    }

    struct Key: Hashable {
        var level: Int
        var cx: Int
        var cy: Int

        /// The four cells of the next level that make up this one.
        var children: [Key] {
            [(0, 0), (1, 0), (0, 1), (1, 1)].map { Key(level: level + 1, cx: cx * 2 + $0.0, cy: cy * 2 + $0.1) }
        }

        /// The cell's latitude/longitude rectangle.
        var box: GeoBox {
            let n = Double(1 << level)
            func latitude(_ row: Double) -> Double { atan(sinh(.pi * (1 - 2 * row / n))) * 180 / .pi }
            return GeoBox(minLatitude: latitude(Double(cy + 1)), maxLatitude: latitude(Double(cy)),
                          minLongitude: Double(cx) / n * 360 - 180, maxLongitude: Double(cx + 1) / n * 360 - 180)
        }
    }

    private static func row(_ key: Key, on sql: any SQLDatabase) async throws -> PhotoClusters.Cell? {
        try await sql.raw("""
            SELECT * FROM \(ident: table) WHERE level = \(bind: key.level) AND cx = \(bind: Int64(key.cx)) AND cy = \(bind: Int64(key.cy))
            """).first().map(decode)
    }

    private static func decode(_ row: any SQLRow) throws -> PhotoClusters.Cell {
        PhotoClusters.Cell(
            count: Int(try row.decode(column: "count", as: Int64.self)),
            sumLatitude: try row.decode(column: "sum_lat", as: Double.self), sumLongitude: try row.decode(column: "sum_lon", as: Double.self),
            minLatitude: try row.decode(column: "min_lat", as: Double.self), minLongitude: try row.decode(column: "min_lon", as: Double.self),
            maxLatitude: try row.decode(column: "max_lat", as: Double.self), maxLongitude: try row.decode(column: "max_lon", as: Double.self),
            newest: UUID(uuidString: try row.decode(column: "newest_id", as: String.self)),
            newestCapturedAt: try row.decode(column: "newest_at", as: Double.self)
        )
    }
}
