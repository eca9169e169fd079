import Fluent
import Foundation
import SQLKit

/// A walked path as stored: its owner, its measures and its points as JSON text.
struct StoredFieldPath: Sendable, Equatable {
    var id: UUID
    var ownerID: UUID
    /// The name the user gave, trimmed; nil when none.
    var name: String?
    var pointCount: Int
    /// m² of the closed polygon on WGS-84; nil when the path has fewer than 3 different places.
    var area: Double?
    /// m round the closed polygon; nil as `area`.
    var perimeter: Double?
    /// m along the walk, not closed.
    var length: Double
    /// The first point's time and the last's.
    var startedAt: Date
    var endedAt: Date
    /// When the server stored it.
    var createdAt: Date
    var idempotencyKey: String?
    /// `[[lat, lon, alt | null, unixTime], …]`; nil when read for a list.
    var points: String?
}

/// Where the field paths live.
protocol FieldPathStore: Sendable {
    func insert(_ path: StoredFieldPath) async throws
    /// The owner's path with its points, or nil (another owner's answers nil too).
    func path(id: UUID, owner: UUID) async throws -> StoredFieldPath?
    /// The path an owner stored with an `Idempotency-Key`, with its points.
    func path(owner: UUID, idempotencyKey: String) async throws -> StoredFieldPath?
    /// The owner's paths without their points, newest first.
    func paths(owner: UUID) async throws -> [StoredFieldPath]
    /// Deletes the owner's path; false when the owner has no path of this id.
    func delete(id: UUID, owner: UUID) async throws -> Bool
}

/// ``FieldPathStore`` on the server's database (SQLite or PostgreSQL) through SQLKit.
struct SQLFieldPathStore: FieldPathStore {
    let database: ServerDatabase

    static let summaryColumns = ["id", "owner_id", "name", "point_count", "area", "perimeter", "length", "started_at", "ended_at",
                                 "created_at", "idempotency_key"]

    private func sql() throws -> any SQLDatabase {
        guard let sql = try database.db as? any SQLDatabase else { throw FieldPathStoreError.notSQL }
        return sql
    }

    func insert(_ path: StoredFieldPath) async throws {
        func optional(_ value: Double?) -> any SQLExpression { value.map { SQLBind($0) } ?? SQLLiteral.null }
        let values: [any SQLExpression] = [
            SQLBind(path.id), SQLBind(path.ownerID), path.name.map { SQLBind($0) } ?? SQLLiteral.null, SQLBind(Int64(path.pointCount)),
            optional(path.area), optional(path.perimeter), SQLBind(path.length), SQLBind(path.startedAt.timeIntervalSince1970),
            SQLBind(path.endedAt.timeIntervalSince1970), SQLBind(path.createdAt.timeIntervalSince1970),
            path.idempotencyKey.map { SQLBind($0) } ?? SQLLiteral.null, SQLBind(path.points ?? "[]"),
        ]
        try await database.write { connection in
            guard let sql = connection as? any SQLDatabase else { throw FieldPathStoreError.notSQL }
            try await sql.insert(into: CreateFieldPaths.table).columns(Self.summaryColumns + ["points"]).values(values).run()
        }
    }

    func path(id: UUID, owner: UUID) async throws -> StoredFieldPath? {
        try await sql().select().columns((Self.summaryColumns + ["points"]).map { SQLIdentifier($0) }).from(CreateFieldPaths.table)
            .where("id", .equal, SQLBind(id)).where("owner_id", .equal, SQLBind(owner))
            .first()
            .map { try Self.path(from: $0, withPoints: true) }
    }

    func path(owner: UUID, idempotencyKey: String) async throws -> StoredFieldPath? {
        try await sql().select().columns((Self.summaryColumns + ["points"]).map { SQLIdentifier($0) }).from(CreateFieldPaths.table)
            .where("owner_id", .equal, SQLBind(owner)).where("idempotency_key", .equal, SQLBind(idempotencyKey))
            .first()
            .map { try Self.path(from: $0, withPoints: true) }
    }

    func paths(owner: UUID) async throws -> [StoredFieldPath] {
        try await sql().select().columns(Self.summaryColumns.map { SQLIdentifier($0) }).from(CreateFieldPaths.table)
            .where("owner_id", .equal, SQLBind(owner))
            .orderBy("created_at", .descending).orderBy("id", .ascending)
            .all()
            .map { try Self.path(from: $0, withPoints: false) }
    }

    func delete(id: UUID, owner: UUID) async throws -> Bool {
        try await database.write { connection in
            guard let sql = connection as? any SQLDatabase else { throw FieldPathStoreError.notSQL }
            struct Deleted: Decodable { var id: UUID }
            let rows = try await sql.delete(from: CreateFieldPaths.table)
                .where("id", .equal, SQLBind(id)).where("owner_id", .equal, SQLBind(owner))
                .returning("id")
                .all(decoding: Deleted.self)
            return !rows.isEmpty
        }
    }

    static func path(from row: any SQLRow, withPoints: Bool) throws -> StoredFieldPath {
        StoredFieldPath(
            id: try row.decode(column: "id", as: UUID.self), ownerID: try row.decode(column: "owner_id", as: UUID.self),
            name: try row.decode(column: "name", as: String?.self),
            pointCount: Int(try row.decode(column: "point_count", as: Int64.self)),
            area: try row.decode(column: "area", as: Double?.self), perimeter: try row.decode(column: "perimeter", as: Double?.self),
            length: try row.decode(column: "length", as: Double.self),
            startedAt: Date(timeIntervalSince1970: try row.decode(column: "started_at", as: Double.self)),
            endedAt: Date(timeIntervalSince1970: try row.decode(column: "ended_at", as: Double.self)),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            idempotencyKey: try row.decode(column: "idempotency_key", as: String?.self),
            points: withPoints ? try row.decode(column: "points", as: String.self) : nil
        )
    }
}

enum FieldPathStoreError: Error {
    case notSQL
}
