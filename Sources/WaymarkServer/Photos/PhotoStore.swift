import Fluent
import FluentPostgresDriver
import Foundation
import SQLKit
import WaymarkCore

/// Where photos and their places live.
protocol PhotoStore: Sendable {
    /// Stores photos (one, or a bulk load) with their places, centroids and receipts, in one transaction.
    func insert(_ photos: [Photo]) async throws
    func photo(id: UUID) async throws -> Photo?
    /// The photo an owner uploaded with an `Idempotency-Key`.
    func photo(owner: UUID, idempotencyKey: String) async throws -> Photo?
    /// Changes what an owner may change (title, visibility, place); the place index follows.
    func update(_ photo: Photo) async throws
    /// Deletes a photo, unless an area holds it as evidence (``PhotoStoreError/evidence``);
    /// returns the photo that was deleted.
    func delete(id: UUID, claims: PhotoClaims) async throws -> Photo?
    /// How many photos refer to a blob.
    func references(sha256: String) async throws -> Int
    /// The photos with a place inside a latitude/longitude rectangle that the viewer may see.
    func photos(in box: GeoBox, viewer: UUID?) async throws -> [Photo]
    /// The markers of a map tile: the public photos (and the viewer's own private ones) by cell.
    func markers(of tile: MapTile, viewer: UUID?) async throws -> [PhotoClusters.Marker]
    /// One page of the photos within a radius that the viewer may see, in the query's order.
    func nearby(_ query: NearbyQuery) async throws -> (items: [NearbyPhoto], more: Bool)
    /// The signed receipt stored with a photo; `nil` for a photo stored before receipts (or none such).
    func receipt(of photoID: UUID) async throws -> PhotoReceipt?
}

extension PhotoStore {
    /// A store that keeps no receipts.
    func receipt(of photoID: UUID) async throws -> PhotoReceipt? { nil }
}

/// ``PhotoStore`` on the server's database: SQLite with an R*Tree, PostgreSQL with PostGIS.
///
/// On SQLite the R*Tree narrows the search to the circle's bounding boxes and Vincenty's geodesic
/// distance on WGS-84 decides (and orders); on PostgreSQL `ST_DWithin` on the `geography` column
/// (GiST index) finds them and `ST_Distance` (PostGIS's spheroid distance) orders them.
struct SQLPhotoStore: PhotoStore {
    let database: ServerDatabase
    /// Where a newest-first search starts reading back from.
    let clock: WallClock

    static let columns = ["id", "owner_id", "title", "captured_at", "uploaded_at", "latitude", "longitude", "altitude", "accuracy",
                          "azimuth", "tilt", "width", "height", "bytes", "mime", "sha256", "visibility", "idempotency_key"]

    /// Columns added since (``AddPhotoReceipts``): the centroid. Kept apart from ``columns``,
    /// which the migrations before them read and write.
    static let centroidColumns = ["centroid_latitude", "centroid_longitude", "centroid_samples"]
    /// The receipt's columns, written with a new photo and read only by ``receipt(of:)``.
    static let receiptColumns = ["receipt_metadata", "receipt_sha256_metadata", "receipt_received_at", "receipt_signature", "receipt_public_key"]

    /// Where the place came from (``AddPhotoPlaceSource``), after the receipts.
    static let placeSourceColumns = ["place_source"]

    /// What a read of a photo selects.
    static let readColumns = columns + centroidColumns + placeSourceColumns

    /// The columns of ``readColumns`` as read from the photos table `p`.
    private static let selected = SQLQueryString(readColumns.map { "p.\($0)" }.joined(separator: ", "))

    private func sql() throws -> any SQLDatabase {
        guard let sql = try database.db as? any SQLDatabase else { throw PhotoStoreError.notSQL }
        return sql
    }

    func insert(_ photos: [Photo]) async throws {
        guard !photos.isEmpty else { return }
        let postgres = database.isPostgres
        try await database.transaction { connection in
            guard let sql = connection as? any SQLDatabase else { throw PhotoStoreError.notSQL }
            // In slices: a statement has at most 32,766 bind parameters on SQLite, 65,535 on PostgreSQL.
            for slice in stride(from: 0, to: photos.count, by: 1_000).map({ photos[$0..<min($0 + 1_000, photos.count)] }) {
                var insert = sql.insert(into: CreatePhotos.table).columns(Self.columns + Self.centroidColumns + Self.receiptColumns + Self.placeSourceColumns + (postgres ? ["place"] : []))
                for photo in slice {
                    var values: [any SQLExpression] = Self.binds(photo) + Self.centroidBinds(photo) + Self.receiptBinds(photo) + [Self.placeSourceBind(photo)]
                    if postgres {
                        if let place = photo.place {
                            values.append(Self.geography(latitude: place.latitude, longitude: place.longitude))
                        } else {
                            values.append(SQLLiteral.null)
                        }
                    }
                    insert = insert.values(values)
                }
                try await insert.run()
                try await PhotoCellIndex.add(Array(slice), on: sql)
                if !postgres {
                    let placed = slice.filter { $0.place != nil }
                    guard !placed.isEmpty else { continue }
                    try await Self.addPlaces(placed, on: sql)
                }
            }
        }
    }

    func photo(id: UUID) async throws -> Photo? {
        try await sql().select().columns(Self.readColumns.map { SQLIdentifier($0) }).from(CreatePhotos.table)
            .where("id", .equal, SQLBind(id))
            .first()
            .map(Self.photo(from:))
    }

    func photo(owner: UUID, idempotencyKey: String) async throws -> Photo? {
        try await sql().select().columns(Self.readColumns.map { SQLIdentifier($0) }).from(CreatePhotos.table)
            .where("owner_id", .equal, SQLBind(owner)).where("idempotency_key", .equal, SQLBind(idempotencyKey))
            .first()
            .map(Self.photo(from:))
    }

    func update(_ photo: Photo) async throws {
        guard let before = try await self.photo(id: photo.id) else { return }
        let postgres = database.isPostgres
        try await database.transaction { connection in
            guard let sql = connection as? any SQLDatabase else { throw PhotoStoreError.notSQL }
            var update = sql.update(CreatePhotos.table)
                .set("title", to: SQLBind(photo.title)).set("visibility", to: SQLBind(photo.visibility.rawValue))
                .set("latitude", to: photo.place.map { SQLBind($0.latitude) as any SQLExpression } ?? SQLLiteral.null)
                .set("longitude", to: photo.place.map { SQLBind($0.longitude) as any SQLExpression } ?? SQLLiteral.null)
                .set("altitude", to: photo.place?.altitude.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null)
                .set("accuracy", to: photo.place?.accuracy.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null)
                .set("place_source", to: Self.placeSourceBind(photo))
            if postgres {
                update = update.set("place", to: photo.place.map {
                    Self.geography(latitude: $0.latitude, longitude: $0.longitude) as any SQLExpression
                } ?? SQLLiteral.null)
            }
            try await update.where("id", .equal, SQLBind(photo.id)).run()
            try await PhotoCellIndex.remove(before, on: sql)
            try await PhotoCellIndex.add([photo], on: sql)
            if !postgres, before.place != photo.place {
                try await Self.removePlaces(of: before, on: sql)
                // The capture time is the stored one: an edit cannot change it.
                var placed = photo
                placed.capturedAt = before.capturedAt
                if placed.place != nil { try await Self.addPlaces([placed], on: sql) }
            }
        }
    }

    /// SQLite: enters photos (each with a place) into both R*Trees, the place's (``CreatePhotos/places``)
    /// and the place-and-time one (``IndexPhotosByTime/times``).
    private static func addPlaces(_ photos: [Photo], on sql: any SQLDatabase) async throws {
        var places = sql.insert(into: CreatePhotos.places).columns("min_lat", "max_lat", "min_lon", "max_lon", "photo_id")
        var times = sql.insert(into: IndexPhotosByTime.times).columns("min_lat", "max_lat", "min_lon", "max_lon", "min_t", "max_t", "photo_id")
        for photo in photos {
            guard let place = photo.place else { continue }
            let point: [any SQLExpression] = [SQLBind(place.latitude), SQLBind(place.latitude), SQLBind(place.longitude), SQLBind(place.longitude)]
            let time = SQLBind(photo.capturedAt.timeIntervalSince1970 / IndexPhotosByTime.secondsPerUnit)
            places = places.values(point + [SQLBind(photo.id)])
            times = times.values(point + [time, time, SQLBind(photo.id)])
        }
        try await places.run()
        try await times.run()
    }

    /// SQLite: takes a photo out of both R*Trees, found through each tree's own index (the point's
    /// box, and its time), not by a scan of the auxiliary column.
    private static func removePlaces(of photo: Photo, on sql: any SQLDatabase) async throws {
        guard let place = photo.place else { return }
        let point: SQLQueryString = """
            min_lat <= \(bind: place.latitude) AND max_lat >= \(bind: place.latitude) \
            AND min_lon <= \(bind: place.longitude) AND max_lon >= \(bind: place.longitude) AND photo_id = \(bind: photo.id)
            """
        try await sql.raw("DELETE FROM \(ident: CreatePhotos.places) WHERE key IN (SELECT key FROM \(ident: CreatePhotos.places) WHERE \(point))").run()
        let time = photo.capturedAt.timeIntervalSince1970 / IndexPhotosByTime.secondsPerUnit
        try await sql.raw("""
            DELETE FROM \(ident: IndexPhotosByTime.times) WHERE key IN (SELECT key FROM \(ident: IndexPhotosByTime.times) \
            WHERE \(point) AND min_t <= \(bind: time) AND max_t >= \(bind: time))
            """).run()
    }

    /// Deletes a photo, unless an area holds it as evidence (``PhotoStoreError/evidence``, a photo
    /// sent with an inspection task): the check and the deletion are one transaction, and on
    /// PostgreSQL the row that says so is locked first (``PhotoClaims/Evidence``). A photo deleted
    /// by another request meanwhile answers `nil`, and the map's counts are lowered once.
    func delete(id: UUID, claims: PhotoClaims) async throws -> Photo? {
        guard let photo = try await photo(id: id) else { return nil }
        let postgres = database.isPostgres
        return try await database.transaction { connection in
            guard let sql = connection as? any SQLDatabase else { throw PhotoStoreError.notSQL }
            if try await claims.isEvidence(id, on: sql, lock: postgres) { throw PhotoStoreError.evidence }
            if !postgres { try await Self.removePlaces(of: photo, on: sql) }
            let removed = try await sql.raw("DELETE FROM \(ident: CreatePhotos.table) WHERE id = \(bind: id) RETURNING id").all()
            guard !removed.isEmpty else { return nil }
            try await PhotoCellIndex.remove(photo, on: sql)
            return photo
        }
    }

    func references(sha256: String) async throws -> Int {
        struct Count: Decodable { var count: Int }
        return try await sql().raw("SELECT COUNT(*) AS count FROM \(ident: CreatePhotos.table) WHERE sha256 = \(bind: sha256)")
            .first(decoding: Count.self)?.count ?? 0
    }

    func nearby(_ query: NearbyQuery) async throws -> (items: [NearbyPhoto], more: Bool) {
        let sql = try sql()
        switch query.order {
        case .distance:
            if sql.dialect.name == "postgresql" { return try await nearest(query, on: sql) }
            // Nearest first: a circle grows from the cursor until it holds the page and one more,
            // or is the whole radius. Everything inside it is read, so its nearest are exact, and
            // a search in a city of a hundred thousand photos reads a few hundred, not all. The
            // first circle is sized by the map's cell counts to hold about 1.5 pages.
            // The cursor's distance is within 0…radius (``NearbyCursor/fits(radius:)``), and the
            // circle grows at least 1.5× a step from at least 10 m, so it is the whole radius
            // within ``maxProbes`` steps; the last step reads the whole radius whatever came before.
            let skipped = min(max(query.after?.distance ?? 0, 0), query.radius)
            var probe = min(query.radius, skipped + Self.firstProbe)
            if let density = try await PhotoCellIndex.density(latitude: query.latitude, longitude: query.longitude, atLeast: query.limit + 1, on: sql) {
                let wanted = 1.5 * Double(query.limit + 1) / (.pi * density)
                probe = min(query.radius, max(skipped + 10, (skipped * skipped + wanted).squareRoot()))
            }
            for step in 1...Self.maxProbes {
                if step == Self.maxProbes { probe = query.radius }
                let rest = query.rest(of: try await candidates(within: probe, query, on: sql))
                // A photo left outside is farther than `probe`; its distance rounds to at least probe − 0.5 mm.
                if probe >= query.radius || (rest.count > query.limit && rest[query.limit - 1].distance < probe - 0.001) {
                    return (Array(rest.prefix(query.limit)), rest.count > query.limit)
                }
                // Grow by the density seen so far (area ∝ r²), by 1.5× to 4× a step.
                let grow = rest.isEmpty ? 4 : min(4, max(1.5, (Double(query.limit + 1) / Double(rest.count)).squareRoot() * 1.25))
                probe = min(query.radius, max(probe, 10) * grow)
            }
            preconditionFailure("the last probe reads the whole radius")
        case .recent:
            if sql.dialect.name == "postgresql" { return try await newestInWindows(query, on: sql) }
            return try await newest(query, on: sql)
        }
    }

    /// Nearest first on PostgreSQL: PostGIS's nearest-neighbour scan of the plain longitude/
    /// latitude index (`ORDER BY place::geometry <-> centre`, in degrees), then the exact order by
    /// the spheroid's distance, in one statement. The geography index's own scan orders by the
    /// sphere, but reads ten times as many index pages in a dense city (its three-dimensional
    /// boxes overlap: 500 pages and 6–8 ms for 51 photos where the plain index reads 90 in
    /// under 1 ms), so the plain one is used with a bound: within the radius, a degree of plain
    /// distance is at least `least` and at most `most` metres of geodesic
    /// (``Geodesy/degreeScales(latitude:radius:)``). A row the scan has not reached is at least
    /// as far in degrees as the farthest it read, so at least `least` times that in metres; when
    /// the page's last photo is nearer, no unread row can come before it and the page is exact.
    /// The scan reads the page's rows times `most / least` (the degree circle is an ellipse on the
    /// ground, longer north–south away from the equator) and a quarter more, so that a second,
    /// larger read is rare; PostgreSQL sorts them by the spheroid and sends the page and one more,
    /// with how far each side of the antimeridian read and whether it read all there is.
    private func nearest(_ query: NearbyQuery, on sql: any SQLDatabase) async throws -> (items: [NearbyPhoto], more: Bool) {
        let scales = Geodesy.degreeScales(latitude: query.latitude, radius: query.radius)
        // Rows per side: the page (and one more) × how much longer north–south the degree circle
        // is on the ground, and a quarter more; at most 16 pages' worth (at a pole, `least` is 0).
        let stretch = scales.least > 0 ? min(16, scales.most / scales.least * 1.25) : 16
        var limit = Int(Double(query.limit + 1) * stretch) + 2
        var exactOrder = false
        while true {
            let rows: [any SQLRow]
            do {
                rows = try await sql.raw(Self.nearestStatement(query, scales: scales, limit: limit, exactOrder: exactOrder)).all()
            } catch where !exactOrder && Self.isKNNOrderFailure(error) {
                // PostGIS's nearest-neighbour scan can stop with "index returned tuples in wrong
                // order" when rounding makes an index bound exceed a row's distance (schemathesis
                // found it on the geography index with a photo at longitude −1.8e−67 among many
                // at 0°, 0°). Ordered by the spheroid itself, `reach` is the bound in metres.
                exactOrder = true
                continue
            }
            guard let first = rows.first else { return ([], false) }
            var admitted: [NearbyPhoto] = []
            for row in rows where try row.decode(column: "admitted", as: Bool.self) {
                admitted.append(try Self.nearbyPhoto(from: row))
            }
            let rest = query.rest(of: admitted)
            // Where no side read all there is, the nearest a row not read can be on the ground.
            guard let unreadFrom = try first.decode(column: "unread_from", as: Double?.self) else {
                return (Array(rest.prefix(query.limit)), rest.count > query.limit)
            }
            let nearestUnread = exactOrder ? unreadFrom : scales.least * unreadFrom
            if rest.count > query.limit, rest[query.limit - 1].distance < 0.999 * nearestUnread - 0.001 {
                return (Array(rest.prefix(query.limit)), true)
            }
            limit *= 4
        }
    }

    /// The statement of ``nearest(_:on:)``: for each side of the antimeridian the circle's box
    /// covers, the `limit` nearest rows in plain degrees (in spheroid metres when `exactOrder`);
    /// then the rows after the cursor within the radius first, in the page's order, the page and
    /// one more, each with `admitted` and `unread_from` (how near a row not read can be: degrees,
    /// or metres when `exactOrder`; NULL when every side read all there is).
    private static func nearestStatement(_ query: NearbyQuery, scales: (least: Double, most: Double), limit: Int, exactOrder: Bool) -> SQLQueryString {
        let point = geography(latitude: query.latitude, longitude: query.longitude)
        let longitude = remainder(query.longitude, 360)
        let boxes = Geodesy.boundingBoxes(around: (query.latitude, longitude), radius: query.radius)
        var parts: SQLQueryString = ""
        for (index, box) in boxes.enumerated() {
            // The centre as seen from the box's side of the antimeridian.
            let shift = longitude < box.minLongitude ? 360.0 : longitude > box.maxLongitude ? -360.0 : 0
            let plain: SQLQueryString = "p.place::geometry <-> ST_SetSRID(ST_MakePoint(\(bind: longitude + shift), \(bind: query.latitude)), 4326)"
            let key = exactOrder ? "ST_Distance(p.place, \(point))" : plain
            var skip: SQLQueryString = ""
            if let cursor = query.after, !exactOrder {
                // Nearer in degrees than this, a photo is nearer on the ground than the cursor.
                skip = " AND \(plain) >= \(bind: 0.999 * cursor.distance / scales.most)"
            }
            parts += (index == 0 ? "" : " UNION ALL ") as SQLQueryString
            // Distances to the millimetre, as NearbyPhoto rounds them (half away from zero) and the
            // cursor carries them: the order and the cursor's condition are the page's own.
            parts += """
                (SELECT \(selected), floor(ST_Distance(p.place, \(point)) * 1000 + 0.5) / 1000 AS distance, \(key) AS reach, \(literal: index) AS part \
                FROM \(ident: CreatePhotos.table) p \
                WHERE p.place::geometry && ST_MakeEnvelope(\(bind: box.minLongitude), \(bind: box.minLatitude), \(bind: box.maxLongitude), \(bind: box.maxLatitude), 4326) \
                AND \(Visible(viewer: query.viewer).condition)\(timeCondition(query))\(skip) \
                ORDER BY \(key) LIMIT \(bind: limit))
                """
        }
        var afterCursor: SQLQueryString = "TRUE"
        if let cursor = query.after {
            // The cursor's own order (NearbyCursor.sortsAfter): farther, or as far and older, or as old with a greater id.
            afterCursor = """
                (distance > \(bind: cursor.distance) OR (distance = \(bind: cursor.distance) AND (captured_at < \(bind: cursor.capturedAt) \
                OR (captured_at = \(bind: cursor.capturedAt) AND id > \(bind: cursor.id)))))
                """
        }
        let admits: SQLQueryString = "(distance <= \(bind: query.radius) AND \(afterCursor)) AS admitted"
        let order: SQLQueryString = "ORDER BY admitted DESC, distance, captured_at DESC, id LIMIT \(bind: query.limit + 1)"
        // One side of the antimeridian, nearly always, needs one level less for the planner to
        // parse and plan (0.22 ms against 0.34 nested, in PostgreSQL's statement log).
        if boxes.count == 1 {
            return """
                SELECT knn.*, CASE WHEN count(*) OVER () >= \(bind: limit) THEN max(reach) OVER () END AS unread_from, \(admits) \
                FROM \(parts) knn \(order)
                """
        }
        return """
            SELECT counted.*, min(CASE WHEN part_read >= \(bind: limit) THEN part_reach END) OVER () AS unread_from, \(admits) FROM (\
            SELECT parts.*, count(*) OVER (PARTITION BY part) AS part_read, max(reach) OVER (PARTITION BY part) AS part_reach \
            FROM (\(parts)) parts) counted \(order)
            """
    }

    /// Whether PostgreSQL stopped a KNN index scan because the index's distances were out of order.
    static func isKNNOrderFailure(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let message = error.serverInfo?[.message] else { return false }
        return message.contains("index returned tuples in wrong order")
    }

    /// A row of PostgreSQL's searches: the photo and its `distance` column (PostGIS's spheroid).
    private static func nearbyPhoto(from row: any SQLRow) throws -> NearbyPhoto {
        NearbyPhoto(photo: try photo(from: row), distance: try row.decode(column: "distance", as: Double.self))
    }

    /// The most circles a nearest-first search on SQLite reads: from 10 m, 1.5× a step reaches
    /// 50 km in 22.
    static let maxProbes = 24

    /// The first circle a nearest-first search reads, in metres beyond the cursor, where the map's
    /// cells know too few photos to size it.
    static let firstProbe = 250.0

    /// Every photo the query admits within `radius` of its centre (≤ the query's radius), with its
    /// distance; only those taken in `window` (from its lower bound, before its upper) when given,
    /// and only those after the cursor in newest-first order when `afterCursor` is set. SQLite's.
    private func candidates(within radius: Double, _ query: NearbyQuery, window: (lower: Double?, upper: Double?)? = nil,
                            afterCursor: Bool = false, on sql: any SQLDatabase) async throws -> [NearbyPhoto] {
        let visible = Visible(viewer: query.viewer).condition
        var time = Self.timeCondition(query)
        var lower = query.from?.timeIntervalSince1970, upper = query.to?.timeIntervalSince1970
        if let window {
            if let bound = window.lower { time += " AND p.captured_at >= \(bind: bound)"; lower = max(lower ?? bound, bound) }
            if let bound = window.upper { time += " AND p.captured_at < \(bind: bound)"; upper = min(upper ?? bound, bound) }
        }
        if afterCursor, let cursor = query.after {
            time += Self.after(cursor)
            upper = min(upper ?? cursor.capturedAt, cursor.capturedAt)
        }
        // With a time bound, the place-and-time R*Tree (in its unit of time) narrows by both.
        var period: SQLQueryString = ""
        if let lower { period += " AND r.max_t >= \(bind: lower / IndexPhotosByTime.secondsPerUnit)" }
        if let upper { period += " AND r.min_t <= \(bind: upper / IndexPhotosByTime.secondsPerUnit)" }
        let tree = lower == nil && upper == nil ? CreatePhotos.places : IndexPhotosByTime.times
        var found: [NearbyPhoto] = [], seen = Set<UUID>()
        for box in Geodesy.boundingBoxes(around: (query.latitude, query.longitude), radius: radius) {
            let rows = try await sql.raw("""
                SELECT \(Self.selected) FROM \(ident: tree) r JOIN \(ident: CreatePhotos.table) p ON p.id = r.photo_id \
                WHERE \(Self.overlaps(box))\(period) AND \(visible)\(time)
                """).all()
            for row in rows {
                // A point on the antimeridian lies in both halves of a split circle.
                if let near = try Self.near(row, query, within: radius), seen.insert(near.photo.id).inserted { found.append(near) }
            }
        }
        return found
    }

    /// Newest first within the radius, on SQLite. The photos are read back in time, window by window (the
    /// last day, then a span grown by the count found so far, 1.5× to 8× a step, and after a
    /// century all before), until the windows read hold the page and one more. Everything after
    /// a window's start has been read then, so the newest are exact; in a city of a hundred
    /// thousand photos a page reads a few hundred.
    private func newest(_ query: NearbyQuery, on sql: any SQLDatabase) async throws -> (items: [NearbyPhoto], more: Bool) {
        let anchor = query.after?.capturedAt ?? min(query.to?.timeIntervalSince1970 ?? .infinity, clock.now().timeIntervalSince1970)
        let from = query.from?.timeIntervalSince1970 ?? -.infinity
        var found: [NearbyPhoto] = [], seen = Set<UUID>()
        var upper: Double?
        var span = 86_400.0
        while true {
            var lower: Double? = span < Self.century ? anchor - span : nil
            if let bound = lower, bound <= from { lower = nil }  // the filter's own start ends the search
            for near in try await candidates(within: query.radius, query, window: (lower, upper), afterCursor: true, on: sql)
            where seen.insert(near.photo.id).inserted {
                found.append(near)
            }
            if found.count > query.limit || lower == nil { break }
            upper = lower
            span *= found.isEmpty ? 8 : min(8, max(1.5, 1.3 * Double(query.limit + 1) / Double(found.count)))
        }
        return query.page(of: found)
    }

    /// Newest first within the radius, on PostgreSQL: the same reading back in time as on SQLite,
    /// in one query, since a round trip each cost more than the windows (~1.5 ms each, nine a
    /// search). Its windows are fixed: the last day, then twice as long each, up to 90 years,
    /// then all before; so the window that completes a page holds about as many photos as all
    /// before it (8× as long each read up to eight pages in a dense city, p50 19 ms). Each
    /// window is its own newest page from PostGIS's index of place and time
    /// (``IndexPhotosByPlaceAndTime``), joined by `UNION ALL` under one `LIMIT`: PostgreSQL
    /// reads the parts of an append in order and stops once the limit is reached, so the windows
    /// after the page's are never read. (A parallel append could interleave them; under this
    /// `LIMIT` the serial plan costs a fraction of a parallel one's setup, so it is never chosen.)
    private func newestInWindows(_ query: NearbyQuery, on sql: any SQLDatabase) async throws -> (items: [NearbyPhoto], more: Bool) {
        let point = Self.geography(latitude: query.latitude, longitude: query.longitude)
        let anchor = query.after?.capturedAt ?? min(query.to?.timeIntervalSince1970 ?? .infinity, clock.now().timeIntervalSince1970)
        let boxes = Geodesy.boundingBoxes(around: (query.latitude, query.longitude), radius: query.radius)
        let admitted = " AND \(Visible(viewer: query.viewer).condition)\(Self.timeCondition(query))" as SQLQueryString
            + (query.after.map(Self.after) ?? "")
        // Window w holds the photos taken from bounds[w + 1] until before bounds[w]; nil is open.
        let bounds: [Double?] = [nil] + (0..<16).map { anchor - 86_400 * pow(2, Double($0)) } + [nil]
        var union: SQLQueryString = ""
        for window in 0..<(bounds.count - 1) {
            let upper = bounds[window], lower = bounds[window + 1]
            if let from = query.from?.timeIntervalSince1970, let upper, upper <= from { break }
            var period: SQLQueryString = ""
            if let lower { period += " AND p.captured_at >= \(bind: lower)" }
            if let upper { period += " AND p.captured_at < \(bind: upper)" }
            // PostGIS keeps the index's boxes in single precision (about 100 s at today's years),
            // rounded outwards; the box is a second wider either side, and the exact window is
            // the condition on captured_at above.
            var places: SQLQueryString = ""
            for (index, box) in boxes.enumerated() {
                places += (index == 0 ? "" : " OR ") as SQLQueryString
                places += "\(IndexPhotosByPlaceAndTime.point) &&& \(IndexPhotosByPlaceAndTime.box(box, from: lower.map { $0 - 1 }, to: upper.map { $0 + 1 }))"
            }
            union += (window == 0 ? "" : " UNION ALL ") as SQLQueryString
            union += """
                (SELECT \(Self.selected), ST_Distance(p.place, \(point)) AS distance FROM \(ident: CreatePhotos.table) p \
                WHERE (\(places)) AND ST_Distance(p.place, \(point)) <= \(bind: query.radius)\(admitted)\(period) \
                ORDER BY p.captured_at DESC, p.id LIMIT \(bind: query.limit + 1))
                """
        }
        let rows = try await sql.raw("SELECT * FROM (" + union + ") windows LIMIT \(bind: query.limit + 1)").all()
        return query.page(of: try rows.map(Self.nearbyPhoto(from:)))
    }

    /// How far back a newest-first search reads window by window before it reads all the rest.
    static let century = 100 * 365.25 * 86_400

    /// The R*Tree's boxes that overlap `box`.
    private static func overlaps(_ box: GeoBox) -> SQLQueryString {
        "r.max_lat >= \(bind: box.minLatitude) AND r.min_lat <= \(bind: box.maxLatitude) AND r.max_lon >= \(bind: box.minLongitude) AND r.min_lon <= \(bind: box.maxLongitude)"
    }

    /// The cursor's condition in newest-first order: older, or as old with a greater id.
    private static func after(_ cursor: NearbyCursor) -> SQLQueryString {
        " AND (p.captured_at < \(bind: cursor.capturedAt) OR (p.captured_at = \(bind: cursor.capturedAt) AND p.id > \(bind: cursor.id)))"
    }

    /// A point as PostGIS's geography.
    static func geography(latitude: Double, longitude: Double) -> SQLQueryString {
        "ST_SetSRID(ST_MakePoint(\(bind: longitude), \(bind: latitude)), 4326)::geography"
    }

    private static func timeCondition(_ query: NearbyQuery) -> SQLQueryString {
        var time: SQLQueryString = ""
        if let from = query.from { time += " AND p.captured_at >= \(bind: from.timeIntervalSince1970)" }
        if let to = query.to { time += " AND p.captured_at <= \(bind: to.timeIntervalSince1970)" }
        return time
    }

    /// The row's photo with its geodesic distance (Vincenty on WGS-84) when within `radius`.
    private static func near(_ row: any SQLRow, _ query: NearbyQuery, within radius: Double) throws -> NearbyPhoto? {
        let photo = try photo(from: row)
        guard let place = photo.place else { return nil }
        let distance = Geodesy.distance((query.latitude, query.longitude), (place.latitude, place.longitude))
        return distance <= radius ? NearbyPhoto(photo: photo, distance: distance) : nil
    }

    func photos(in box: GeoBox, viewer: UUID?) async throws -> [Photo] {
        try await Self.photos(in: box, visible: Visible(viewer: viewer), on: sql())
    }

    func markers(of tile: MapTile, viewer: UUID?) async throws -> [PhotoClusters.Marker] {
        let sql = try sql()
        let bounds = tile.bounds
        let box = GeoBox(minLatitude: bounds.south, maxLatitude: bounds.north, minLongitude: bounds.west, maxLongitude: bounds.east)
        guard tile.z <= PhotoCellIndex.maxZoom else {
            return PhotoClusters.markers(of: try await Self.photos(in: box, visible: Visible(viewer: viewer), on: sql), in: tile)
        }
        var cells = try await PhotoCellIndex.cells(of: tile, on: sql)
        var titles: [UUID: String] = [:]
        if let viewer {
            // The viewer's own private photos join the public counts.
            for photo in try await Self.photos(in: box, visible: .privateOf(viewer), on: sql) {
                guard let place = photo.place, let cell = tile.cell(latitude: place.latitude, longitude: place.longitude) else { continue }
                cells[cell.row * MapTile.cellsPerSide + cell.column, default: PhotoClusters.Cell()].add(photo)
                titles[photo.id] = photo.title
            }
        }
        let wanted = cells.values.compactMap(\.newest).filter { titles[$0] == nil }
        if !wanted.isEmpty {
            struct Title: Decodable { var id: UUID; var title: String }
            let rows = try await sql.select().columns("id", "title").from(CreatePhotos.table)
                .where("id", .in, SQLBind.group(wanted)).all(decoding: Title.self)
            for row in rows { titles[row.id] = row.title }
        }
        return PhotoClusters.markers(cells, titles: titles)
    }

    /// Which photos a read may return.
    enum Visible {
        case `public`
        case publicOrOwnedBy(UUID)
        case privateOf(UUID)

        /// What a viewer (none: anyone) may see.
        init(viewer: UUID?) {
            self = viewer.map { .publicOrOwnedBy($0) } ?? .public
        }

        var condition: SQLQueryString {
            switch self {
            case .public: return "p.visibility = 'public'"
            case let .publicOrOwnedBy(owner): return "(p.visibility = 'public' OR p.owner_id = \(bind: owner))"
            case let .privateOf(owner): return "(p.visibility = 'private' AND p.owner_id = \(bind: owner))"
            }
        }
    }

    /// The photos with a place inside a latitude/longitude rectangle (R*Tree on SQLite; the planar
    /// GiST index of place::geometry on PostgreSQL), the exact coordinates deciding.
    static func photos(in box: GeoBox, visible: Visible, on sql: any SQLDatabase) async throws -> [Photo] {
        let condition = visible.condition
        let rows: [any SQLRow]
        if sql.dialect.name == "postgresql" {
            rows = try await sql.raw("""
                SELECT \(Self.selected) FROM \(ident: CreatePhotos.table) p WHERE p.place::geometry && \
                ST_MakeEnvelope(\(bind: box.minLongitude), \(bind: box.minLatitude), \(bind: box.maxLongitude), \(bind: box.maxLatitude), 4326) AND \(condition)
                """).all()
        } else {
            rows = try await sql.raw("""
                SELECT \(Self.selected) FROM \(ident: CreatePhotos.places) r JOIN \(ident: CreatePhotos.table) p ON p.id = r.photo_id \
                WHERE \(overlaps(box)) AND \(condition)
                """).all()
        }
        // The R*Tree keeps 32-bit boxes, rounded outwards: the exact coordinates decide.
        return try rows.map(Self.photo(from:)).filter { photo in
            photo.place.map { box.contains(latitude: $0.latitude, longitude: $0.longitude) } ?? false
        }
    }

    static func binds(_ photo: Photo) -> [any SQLExpression] {
        func optional(_ value: Double?) -> any SQLExpression { value.map { SQLBind($0) } ?? SQLLiteral.null }
        return [
            SQLBind(photo.id), SQLBind(photo.ownerID), SQLBind(photo.title), SQLBind(photo.capturedAt.timeIntervalSince1970),
            SQLBind(photo.uploadedAt.timeIntervalSince1970), optional(photo.place?.latitude), optional(photo.place?.longitude),
            optional(photo.place?.altitude), optional(photo.place?.accuracy), optional(photo.azimuth), optional(photo.tilt),
            SQLBind(Int64(photo.width)), SQLBind(Int64(photo.height)), SQLBind(Int64(photo.bytes)), SQLBind(photo.mime),
            SQLBind(photo.sha256), SQLBind(photo.visibility.rawValue), photo.idempotencyKey.map { SQLBind($0) } ?? SQLLiteral.null,
        ]
    }

    /// `place_source`: NULL without a place.
    static func placeSourceBind(_ photo: Photo) -> any SQLExpression {
        photo.place == nil ? SQLLiteral.null : SQLBind(photo.placeSource.rawValue)
    }

    static func centroidBinds(_ photo: Photo) -> [any SQLExpression] {
        guard let centroid = photo.centroid else { return [SQLLiteral.null, SQLLiteral.null, SQLLiteral.null] }
        return [SQLBind(centroid.latitude), SQLBind(centroid.longitude), SQLBind(Int64(centroid.samples))]
    }

    static func receiptBinds(_ photo: Photo) -> [any SQLExpression] {
        guard let receipt = photo.receipt, let metadata = receipt.metadata.canonicalJSON else { return Array(repeating: SQLLiteral.null, count: receiptColumns.count) }
        return [SQLBind(metadata), SQLBind(receipt.sha256Metadata), SQLBind(receipt.receivedAt), SQLBind(receipt.signature.base64EncodedString()),
                SQLBind(receipt.publicKey.base64EncodedString())]
    }

    func receipt(of photoID: UUID) async throws -> PhotoReceipt? {
        struct Row: Decodable {
            var sha256: String
            var receipt_metadata: String?
            var receipt_sha256_metadata: String?
            var receipt_received_at: String?
            var receipt_signature: String?
            var receipt_public_key: String?
        }
        guard let row = try await sql().select().columns((["sha256"] + Self.receiptColumns).map { SQLIdentifier($0) }).from(CreatePhotos.table)
            .where("id", .equal, SQLBind(photoID)).first(decoding: Row.self),
            let text = row.receipt_metadata, let sha256Metadata = row.receipt_sha256_metadata, let receivedAt = row.receipt_received_at,
            let signature = row.receipt_signature.flatMap({ Data(base64Encoded: $0) }), let publicKey = row.receipt_public_key.flatMap({ Data(base64Encoded: $0) })
        else { return nil }
        let metadata = try JSONDecoder().decode(ReceiptMetadata.self, from: Data(text.utf8))
        return PhotoReceipt(photoId: photoID, sha256Image: row.sha256, sha256Metadata: sha256Metadata, metadata: metadata, receivedAt: receivedAt,
                            signature: signature, publicKey: publicKey)
    }

    static func photo(from row: any SQLRow) throws -> Photo {
        let latitude = try row.decodeNil(column: "latitude") ? nil : try row.decode(column: "latitude", as: Double.self)
        let longitude = try row.decodeNil(column: "longitude") ? nil : try row.decode(column: "longitude", as: Double.self)
        var place: Place?
        if let latitude, let longitude {
            place = Place(latitude: latitude, longitude: longitude,
                          altitude: try row.decode(column: "altitude", as: Double?.self),
                          accuracy: try row.decode(column: "accuracy", as: Double?.self))
        }
        var photo = Photo(
            id: try row.decode(column: "id", as: UUID.self), ownerID: try row.decode(column: "owner_id", as: UUID.self),
            title: try row.decode(column: "title", as: String.self),
            capturedAt: Date(timeIntervalSince1970: try row.decode(column: "captured_at", as: Double.self)),
            uploadedAt: Date(timeIntervalSince1970: try row.decode(column: "uploaded_at", as: Double.self)),
            place: place, azimuth: try row.decode(column: "azimuth", as: Double?.self), tilt: try row.decode(column: "tilt", as: Double?.self),
            width: Int(try row.decode(column: "width", as: Int64.self)), height: Int(try row.decode(column: "height", as: Int64.self)),
            bytes: Int(try row.decode(column: "bytes", as: Int64.self)), mime: try row.decode(column: "mime", as: String.self),
            sha256: try row.decode(column: "sha256", as: String.self),
            visibility: Visibility(rawValue: try row.decode(column: "visibility", as: String.self)) ?? .private,
            idempotencyKey: try row.decode(column: "idempotency_key", as: String?.self),
            centroid: try centroid(from: row)
        )
        if row.contains(column: "place_source"), let text = try row.decode(column: "place_source", as: String?.self),
           let source = PlaceSource(rawValue: text) {
            photo.placeSource = source
        }
        return photo
    }

    /// The centroid, when the row has its columns (reads by the migrations before them do not) and one.
    private static func centroid(from row: any SQLRow) throws -> PhotoCentroid? {
        guard row.contains(column: "centroid_latitude"), let latitude = try row.decode(column: "centroid_latitude", as: Double?.self),
              let longitude = try row.decode(column: "centroid_longitude", as: Double?.self),
              let samples = try row.decode(column: "centroid_samples", as: Int64?.self)
        else { return nil }
        return PhotoCentroid(latitude: latitude, longitude: longitude, samples: Int(samples))
    }
}

enum PhotoStoreError: Error {
    case notSQL
    /// The photo was sent with an inspection task: evidence, never deleted (409 `photo_sent`).
    case evidence
}
