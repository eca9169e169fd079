import Fluent
import Foundation
import SQLKit
import WaymarkCore

/// Where scenes, their rephotographs and their places live.
protocol SceneStore: Sendable {
    /// Stores a new scene and its place.
    func insert(_ scene: Scene) async throws
    func scene(id: UUID) async throws -> Scene?
    /// The scene an owner created with an `Idempotency-Key`.
    func scene(owner: UUID, idempotencyKey: String) async throws -> Scene?
    /// An owner's scenes, newest first, after `cursor` (created at, id), at most `limit`.
    func scenes(owner: UUID, after cursor: SceneListCursor?, limit: Int) async throws -> [Scene]
    /// The scenes within a radius whose reference photo the viewer may see, nearest first.
    func nearby(_ query: SceneNearbyQuery) async throws -> (items: [NearbyScene], more: Bool)
    /// Deletes a scene (its rephotograph rows go with it); whether there was one.
    func delete(id: UUID) async throws -> Bool

    func addRephotograph(_ rephotograph: Rephotograph) async throws
    /// A scene's rephotographs, in the order they were added.
    func rephotographs(scene: UUID) async throws -> [Rephotograph]
    /// The rephotograph someone added with an `Idempotency-Key`.
    func rephotograph(addedBy: UUID, idempotencyKey: String) async throws -> Rephotograph?
    /// Takes a rephotograph out of its scene; whether it was in it.
    func removeRephotograph(scene: UUID, photo: UUID) async throws -> Bool
    /// How many rephotographs of each scene the viewer may see.
    func rephotographCounts(scenes: [UUID], viewer: UUID?) async throws -> [UUID: Int]
    /// How many scenes and rephotographs refer to a photo.
    func references(photo: UUID) async throws -> Int
    /// The feet shots of the scenes whose reference is `photo` (they follow its visibility).
    func feetShots(ofReference photo: UUID) async throws -> [UUID]
}

/// Where a page of an owner's scenes ended (newest first).
struct SceneListCursor: Sendable, Equatable, Codable {
    var createdAt: Double
    var id: UUID

    init(createdAt: Double, id: UUID) {
        self.createdAt = createdAt
        self.id = id
    }

    /// The list a cursor belongs to (``CursorSeal``): one owner's scenes.
    static func binding(owner: UUID) -> String { "my-scenes|\(owner.uuidString)" }
}

/// ``SceneStore`` on the server's database. On SQLite the R*Tree narrows a search to the
/// circle's bounding boxes and Vincenty's geodesic distance on WGS-84 decides and orders; on
/// PostgreSQL `ST_DWithin` on the `geography` column (GiST index) finds them and `ST_Distance`
/// (PostGIS's spheroid distance) orders them.
struct SQLSceneStore: SceneStore {
    let database: ServerDatabase

    static let columns = ["id", "owner_id", "name", "reference_photo_id", "feet_shot_photo_id", "latitude", "longitude", "accuracy",
                          "captured_at", "attitude_w", "attitude_x", "attitude_y", "attitude_z", "heading", "created_at", "idempotency_key"]
    static let rephotographColumns = ["scene_id", "photo_id", "attitude_w", "attitude_x", "attitude_y", "attitude_z", "heading", "added_by",
                                      "added_at", "idempotency_key"]
    private static let selected = SQLQueryString(columns.map { "s.\($0)" }.joined(separator: ", "))

    private func sql() throws -> any SQLDatabase {
        guard let sql = try database.db as? any SQLDatabase else { throw PhotoStoreError.notSQL }
        return sql
    }

    func insert(_ scene: Scene) async throws {
        let postgres = database.isPostgres
        try await database.transaction { connection in
            guard let sql = connection as? any SQLDatabase else { throw PhotoStoreError.notSQL }
            func optional(_ value: Double?) -> any SQLExpression { value.map { SQLBind($0) } ?? SQLLiteral.null }
            var values: [any SQLExpression] = [
                SQLBind(scene.id), SQLBind(scene.ownerID), scene.name.map { SQLBind($0) } ?? SQLLiteral.null, SQLBind(scene.referencePhotoID),
                scene.feetShotPhotoID.map { SQLBind($0) } ?? SQLLiteral.null, SQLBind(scene.latitude), SQLBind(scene.longitude),
                optional(scene.accuracy), SQLBind(scene.capturedAt.timeIntervalSince1970), SQLBind(scene.attitude.w), SQLBind(scene.attitude.x),
                SQLBind(scene.attitude.y), SQLBind(scene.attitude.z), optional(scene.heading), SQLBind(scene.createdAt.timeIntervalSince1970),
                scene.idempotencyKey.map { SQLBind($0) } ?? SQLLiteral.null,
            ]
            if postgres { values.append(SQLPhotoStore.geography(latitude: scene.latitude, longitude: scene.longitude)) }
            try await sql.insert(into: CreateScenes.scenes).columns(Self.columns + (postgres ? ["place"] : [])).values(values).run()
            if !postgres {
                try await sql.insert(into: CreateScenes.places).columns("min_lat", "max_lat", "min_lon", "max_lon", "scene_id")
                    .values(SQLBind(scene.latitude), SQLBind(scene.latitude), SQLBind(scene.longitude), SQLBind(scene.longitude), SQLBind(scene.id))
                    .run()
            }
        }
    }

    func scene(id: UUID) async throws -> Scene? {
        try await sql().select().columns(Self.columns.map { SQLIdentifier($0) }).from(CreateScenes.scenes)
            .where("id", .equal, SQLBind(id)).first().map(Self.scene(from:))
    }

    func scene(owner: UUID, idempotencyKey: String) async throws -> Scene? {
        try await sql().select().columns(Self.columns.map { SQLIdentifier($0) }).from(CreateScenes.scenes)
            .where("owner_id", .equal, SQLBind(owner)).where("idempotency_key", .equal, SQLBind(idempotencyKey))
            .first().map(Self.scene(from:))
    }

    func scenes(owner: UUID, after cursor: SceneListCursor?, limit: Int) async throws -> [Scene] {
        var after: SQLQueryString = ""
        if let cursor {
            after = " AND (s.created_at < \(bind: cursor.createdAt) OR (s.created_at = \(bind: cursor.createdAt) AND s.id > \(bind: cursor.id)))"
        }
        return try await sql().raw("""
            SELECT \(Self.selected) FROM \(ident: CreateScenes.scenes) s WHERE s.owner_id = \(bind: owner)\(after) \
            ORDER BY s.created_at DESC, s.id LIMIT \(bind: limit)
            """).all().map(Self.scene(from:))
    }

    func nearby(_ query: SceneNearbyQuery) async throws -> (items: [NearbyScene], more: Bool) {
        let sql = try sql()
        let visible = SQLPhotoStore.Visible(viewer: query.viewer).condition
        var found: [NearbyScene] = []
        if sql.dialect.name == "postgresql" {
            let point = SQLPhotoStore.geography(latitude: query.latitude, longitude: query.longitude)
            let rows = try await sql.raw("""
                SELECT \(Self.selected), ST_Distance(s.place, \(point)) AS distance \
                FROM \(ident: CreateScenes.scenes) s JOIN \(ident: CreatePhotos.table) p ON p.id = s.reference_photo_id \
                WHERE ST_DWithin(s.place, \(point), \(bind: query.radius)) AND \(visible)
                """).all()
            for row in rows {
                let near = NearbyScene(scene: try Self.scene(from: row), distance: try row.decode(column: "distance", as: Double.self))
                if near.distance <= query.radius { found.append(near) }
            }
        } else {
            var seen = Set<UUID>()
            for box in Geodesy.boundingBoxes(around: (query.latitude, query.longitude), radius: query.radius) {
                let rows = try await sql.raw("""
                    SELECT \(Self.selected) FROM \(ident: CreateScenes.places) r \
                    JOIN \(ident: CreateScenes.scenes) s ON s.id = r.scene_id JOIN \(ident: CreatePhotos.table) p ON p.id = s.reference_photo_id \
                    WHERE r.max_lat >= \(bind: box.minLatitude) AND r.min_lat <= \(bind: box.maxLatitude) \
                    AND r.max_lon >= \(bind: box.minLongitude) AND r.min_lon <= \(bind: box.maxLongitude) AND \(visible)
                    """).all()
                for row in rows {
                    let scene = try Self.scene(from: row)
                    // A point on the antimeridian lies in both halves of a split circle.
                    guard seen.insert(scene.id).inserted else { continue }
                    let distance = Geodesy.distance((query.latitude, query.longitude), (scene.latitude, scene.longitude))
                    if distance <= query.radius { found.append(NearbyScene(scene: scene, distance: distance)) }
                }
            }
        }
        var sorted = found.sorted { $1.cursor.sortsAfter($0.cursor, in: .distance) }
        if let after = query.after { sorted = sorted.filter { $0.cursor.sortsAfter(after, in: .distance) } }
        return (Array(sorted.prefix(query.limit)), sorted.count > query.limit)
    }

    func delete(id: UUID) async throws -> Bool {
        guard let scene = try await scene(id: id) else { return false }
        let postgres = database.isPostgres
        return try await database.transaction { connection in
            guard let sql = connection as? any SQLDatabase else { throw PhotoStoreError.notSQL }
            if !postgres {
                try await sql.raw("""
                    DELETE FROM \(ident: CreateScenes.places) WHERE key IN (SELECT key FROM \(ident: CreateScenes.places) \
                    WHERE min_lat <= \(bind: scene.latitude) AND max_lat >= \(bind: scene.latitude) \
                    AND min_lon <= \(bind: scene.longitude) AND max_lon >= \(bind: scene.longitude) AND scene_id = \(bind: id))
                    """).run()
            }
            try await sql.delete(from: CreateScenes.rephotographs).where("scene_id", .equal, SQLBind(id)).run()
            let deleted = try await sql.delete(from: CreateScenes.scenes).where("id", .equal, SQLBind(id)).returning("id").all()
            return !deleted.isEmpty
        }
    }

    func addRephotograph(_ rephotograph: Rephotograph) async throws {
        try await database.write { connection in
            guard let sql = connection as? any SQLDatabase else { throw PhotoStoreError.notSQL }
            func optional(_ value: Double?) -> any SQLExpression { value.map { SQLBind($0) } ?? SQLLiteral.null }
            try await sql.insert(into: CreateScenes.rephotographs).columns(["id"] + Self.rephotographColumns).values(
                SQLBind(UUID()), SQLBind(rephotograph.sceneID), SQLBind(rephotograph.photoID), SQLBind(rephotograph.attitude.w),
                SQLBind(rephotograph.attitude.x), SQLBind(rephotograph.attitude.y), SQLBind(rephotograph.attitude.z), optional(rephotograph.heading),
                SQLBind(rephotograph.addedBy), SQLBind(rephotograph.addedAt.timeIntervalSince1970),
                rephotograph.idempotencyKey.map { SQLBind($0) } ?? SQLLiteral.null
            ).run()
        }
    }

    func rephotographs(scene: UUID) async throws -> [Rephotograph] {
        try await sql().select().columns(Self.rephotographColumns.map { SQLIdentifier($0) }).from(CreateScenes.rephotographs)
            .where("scene_id", .equal, SQLBind(scene)).orderBy("added_at").orderBy("photo_id").all().map(Self.rephotograph(from:))
    }

    func rephotograph(addedBy: UUID, idempotencyKey: String) async throws -> Rephotograph? {
        try await sql().select().columns(Self.rephotographColumns.map { SQLIdentifier($0) }).from(CreateScenes.rephotographs)
            .where("added_by", .equal, SQLBind(addedBy)).where("idempotency_key", .equal, SQLBind(idempotencyKey))
            .first().map(Self.rephotograph(from:))
    }

    func removeRephotograph(scene: UUID, photo: UUID) async throws -> Bool {
        try await database.write { connection in
            guard let sql = connection as? any SQLDatabase else { throw PhotoStoreError.notSQL }
            return try await !sql.delete(from: CreateScenes.rephotographs).where("scene_id", .equal, SQLBind(scene))
                .where("photo_id", .equal, SQLBind(photo)).returning("id").all().isEmpty
        }
    }

    func rephotographCounts(scenes: [UUID], viewer: UUID?) async throws -> [UUID: Int] {
        guard !scenes.isEmpty else { return [:] }
        struct Count: Decodable { var scene_id: UUID; var count: Int }
        let rows = try await sql().raw("""
            SELECT r.scene_id, COUNT(*) AS count FROM \(ident: CreateScenes.rephotographs) r JOIN \(ident: CreatePhotos.table) p ON p.id = r.photo_id \
            WHERE r.scene_id IN \(SQLBind.group(scenes)) AND \(SQLPhotoStore.Visible(viewer: viewer).condition) GROUP BY r.scene_id
            """).all(decoding: Count.self)
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.scene_id, $0.count) })
    }

    func feetShots(ofReference photo: UUID) async throws -> [UUID] {
        struct Row: Decodable { var feet_shot_photo_id: UUID? }
        return try await sql().raw("""
            SELECT feet_shot_photo_id FROM \(ident: CreateScenes.scenes) WHERE reference_photo_id = \(bind: photo)
            """).all(decoding: Row.self).compactMap(\.feet_shot_photo_id)
    }

    func references(photo: UUID) async throws -> Int {
        struct Count: Decodable { var count: Int }
        let sql = try sql()
        let scenes = try await sql.raw("""
            SELECT COUNT(*) AS count FROM \(ident: CreateScenes.scenes) WHERE reference_photo_id = \(bind: photo) OR feet_shot_photo_id = \(bind: photo)
            """).first(decoding: Count.self)?.count ?? 0
        let rephotographs = try await sql.raw("SELECT COUNT(*) AS count FROM \(ident: CreateScenes.rephotographs) WHERE photo_id = \(bind: photo)")
            .first(decoding: Count.self)?.count ?? 0
        return scenes + rephotographs
    }

    static func attitude(from row: any SQLRow) throws -> Quaternion {
        let w = try row.decode(column: "attitude_w", as: Double.self), x = try row.decode(column: "attitude_x", as: Double.self)
        let y = try row.decode(column: "attitude_y", as: Double.self), z = try row.decode(column: "attitude_z", as: Double.self)
        return Quaternion(w: w, x: x, y: y, z: z) ?? .identity
    }

    static func scene(from row: any SQLRow) throws -> Scene {
        Scene(
            id: try row.decode(column: "id", as: UUID.self), ownerID: try row.decode(column: "owner_id", as: UUID.self),
            name: try row.decode(column: "name", as: String?.self),
            referencePhotoID: try row.decode(column: "reference_photo_id", as: UUID.self),
            feetShotPhotoID: try row.decode(column: "feet_shot_photo_id", as: UUID?.self),
            latitude: try row.decode(column: "latitude", as: Double.self), longitude: try row.decode(column: "longitude", as: Double.self),
            accuracy: try row.decode(column: "accuracy", as: Double?.self),
            capturedAt: Date(timeIntervalSince1970: try row.decode(column: "captured_at", as: Double.self)),
            attitude: try attitude(from: row), heading: try row.decode(column: "heading", as: Double?.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            idempotencyKey: try row.decode(column: "idempotency_key", as: String?.self)
        )
    }

    static func rephotograph(from row: any SQLRow) throws -> Rephotograph {
        Rephotograph(
            sceneID: try row.decode(column: "scene_id", as: UUID.self), photoID: try row.decode(column: "photo_id", as: UUID.self),
            attitude: try attitude(from: row), heading: try row.decode(column: "heading", as: Double?.self),
            addedBy: try row.decode(column: "added_by", as: UUID.self),
            addedAt: Date(timeIntervalSince1970: try row.decode(column: "added_at", as: Double.self)),
            idempotencyKey: try row.decode(column: "idempotency_key", as: String?.self)
        )
    }
}
