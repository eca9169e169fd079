import Crypto
import Fluent
import SQLKit
import Foundation
import WaymarkAPI
import WaymarkCore

/// A route as a client hands it over, checked and ready to store.
struct NewRoute: Sendable {
    var envelope: RouteEnvelope
    var lookup: String?
    var deleteTokenHash: String?

    /// Lowercase hex SHA-256 of the content, to tell a retry from a different request
    /// under the same `Idempotency-Key` (formatting of the JSON does not matter).
    var contentHash: String {
        var text = String(decoding: envelope.jsonData(), as: UTF8.self)
        text += "\n\(lookup ?? "-")\n\(deleteTokenHash ?? "-")"
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// A stored route.
struct StoredRoute: Sendable {
    var id: String
    var envelopeJSON: String
    var creationTime: Int
    var deleteTokenHash: String?
}

/// What became of a create request.
enum CreateOutcome: Sendable, Equatable {
    /// Stored now.
    case created(RouteCreated)
    /// Answered from the idempotency record of an earlier request with the same key and content.
    case repeated(RouteCreated)
    /// The key was used before with different content.
    case keyReused
}

/// Where routes live. The server uses ``FluentRouteStore`` on SQLite or PostgreSQL.
protocol RouteStore: Sendable {
    /// Stores a route, or answers from the record of an earlier request with the same key.
    ///
    /// When `nonce` is given and not yet recorded, it is recorded in the same transaction as
    /// the route and its idempotency record (one commit for the request), and marked recorded
    /// once that transaction has committed. A retry answered from the record does not record it:
    /// ``SignatureAuthenticator`` then does.
    func create(_ route: NewRoute, consumerID: UUID, idempotencyKey: String?, nonce: NonceClaim?) async throws -> CreateOutcome
    func route(id: String) async throws -> StoredRoute?
    /// The newest route stored under a lookup key.
    func route(lookup: String) async throws -> StoredRoute?
    func delete(id: String) async throws
}

/// ``RouteStore`` on the server's Fluent database.
struct FluentRouteStore: RouteStore {
    let database: ServerDatabase
    let clock: WallClock

    func create(_ route: NewRoute, consumerID: UUID, idempotencyKey: String?, nonce: NonceClaim? = nil) async throws -> CreateOutcome {
        let contentHash = route.contentHash
        let created = RouteCreated(routeID: RouteID.random(), creationTime: clock.unixSeconds)
        let model = RouteModel(
            id: created.routeID, envelope: String(decoding: route.envelope.jsonData(), as: UTF8.self),
            lookup: route.lookup, deleteTokenHash: route.deleteTokenHash,
            creationTime: Int64(created.creationTime), consumerID: consumerID
        )
        let record = idempotencyKey.map {
            IdempotencyRecord(consumerID: consumerID, key: $0, requestHash: contentHash,
                              routeID: created.routeID, creationTime: Int64(created.creationTime))
        }
        let pendingNonce = nonce?.unrecorded
        // No look for an earlier record first: a retry is rare, and the unique (consumer, key)
        // index refuses its record, which rolls everything back; it is then answered from the
        // record. Everything was rolled back, the nonce too, so SignatureAuthenticator records it
        // afterwards (and refuses the request if the nonce was a replay).
        let write = try await IdempotentWrite(key: idempotencyKey, lookFirst: false) { key in
            try await self.record(consumerID: consumerID, key: key).map(Answered.init)
        }
        do {
            let outcome = try await write.answer(sameRequest: { $0.requestHash == contentHash }, reused: KeyReused()) {
                if let sql = try database.db as? any SQLDatabase, sql.dialect.name == "postgresql" {
                    try await Self.insertInOneStatement(on: sql, nonce: pendingNonce, record: record, route: model)
                } else {
                    try await database.transaction { transaction in
                        // The request's nonce first: a replay fails here, before anything else is written.
                        try await pendingNonce?.model.create(on: transaction)
                        // Then the record, so that a concurrent twin fails on the unique (consumer, key) index.
                        try await record?.create(on: transaction)
                        try await model.create(on: transaction)
                    }
                }
                if pendingNonce != nil { nonce?.markRecorded() }
                return Answered(route: created, requestHash: contentHash)
            }
            switch outcome {
            case .created(let answered): return .created(answered.route)
            case .repeated(let answered): return .repeated(answered.route)
            }
        } catch is KeyReused {
            return .keyReused
        }
    }

    /// What a key's record answers: the route and the hash of the request that made it.
    private struct Answered: Sendable {
        var route: RouteCreated
        var requestHash: String

        init(route: RouteCreated, requestHash: String) {
            self.route = route
            self.requestHash = requestHash
        }

        init(_ record: IdempotencyRecord) {
            self.init(route: RouteCreated(routeID: record.routeID, creationTime: Int(record.creationTime)), requestHash: record.requestHash)
        }
    }

    private struct KeyReused: Error {}

    /// PostgreSQL: the nonce, the idempotency record and the route in one statement (INSERTs in
    /// data-modifying WITH clauses), which commits or fails as a whole without BEGIN and
    /// COMMIT — one round trip to the server instead of five. Every value is a bind parameter.
    private static func insertInOneStatement(on sql: any SQLDatabase, nonce: PendingNonce?, record: IdempotencyRecord?, route: RouteModel) async throws {
        var clauses: [SQLQueryString] = []
        if let seen = nonce?.model {
            clauses.append("""
                nonce AS (INSERT INTO \(ident: SeenNonce.schema) (\(idents: ["id", "consumer_id", "nonce", "expires_at"], joinedBy: ", ")) \
                VALUES (\(bind: UUID()), \(bind: seen.consumerID), \(bind: seen.nonce), \(bind: seen.expiresAt)))
                """)
        }
        if let record {
            clauses.append("""
                idempotency AS (INSERT INTO \(ident: IdempotencyRecord.schema) \
                (\(idents: ["id", "consumer_id", "key", "request_hash", "route_id", "creation_time"], joinedBy: ", ")) \
                VALUES (\(bind: UUID()), \(bind: record.consumerID), \(bind: record.key), \(bind: record.requestHash), \(bind: record.routeID), \(bind: record.creationTime)))
                """)
        }
        var statement: SQLQueryString = clauses.isEmpty ? "" : "WITH " + clauses.joined(separator: ", ") + " "
        statement += """
            INSERT INTO \(ident: RouteModel.schema) \
            (\(idents: ["id", "envelope", "lookup", "delete_token_hash", "creation_time", "consumer_id"], joinedBy: ", ")) \
            VALUES (\(bind: route.id ?? ""), \(bind: route.envelope), \(optional: route.lookup), \(optional: route.deleteTokenHash), \(bind: route.creationTime), \(bind: route.consumerID))
            """
        try await sql.raw(statement).run()
    }

    func route(id: String) async throws -> StoredRoute? {
        try await RouteModel.find(id, on: database.db).map(StoredRoute.init)
    }

    func route(lookup: String) async throws -> StoredRoute? {
        try await RouteModel.query(on: database.db)
            .filter(\.$lookup == lookup)
            .sort(\.$creationTime, .descending)
            .first()
            .map(StoredRoute.init)
    }

    func delete(id: String) async throws {
        try await database.write { connection in
            try await RouteModel.query(on: connection).filter(\.$id == id).delete()
        }
    }

    private func record(consumerID: UUID, key: String) async throws -> IdempotencyRecord? {
        try await IdempotencyRecord.query(on: database.db)
            .filter(\.$consumerID == consumerID)
            .filter(\.$key == key)
            .first()
    }
}

extension StoredRoute {
    init(_ model: RouteModel) {
        self.init(id: model.id ?? "", envelopeJSON: model.envelope, creationTime: Int(model.creationTime),
                  deleteTokenHash: model.deleteTokenHash)
    }
}

/// Route ids: 16 random bytes as 22 characters of unpadded base64url, never starting with `-`.
/// People type or paste them as command-line arguments (`waymark routes export ID`), where a
/// leading `-` reads as an option and the command stops with a usage error; one id in 64 began
/// so. Drawing again keeps 128 bits minus a sliver of entropy.
enum RouteID {
    static func random() -> String {
        while true {
            let id = RandomToken.make(bytes: 16)
            if id.first != "-" { return id }
        }
    }
}

/// Random identifiers and secrets.
enum RandomToken {
    /// Unpadded base64url of `count` random bytes.
    static func make(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension SQLQueryString.StringInterpolation {
    /// A bind parameter, or NULL.
    mutating func appendInterpolation(optional value: String?) {
        if let value {
            appendInterpolation(bind: value)
        } else {
            appendInterpolation(SQLLiteral.null)
        }
    }
}
