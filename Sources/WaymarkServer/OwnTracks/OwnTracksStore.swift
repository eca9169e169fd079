import Fluent
import Foundation
import SQLKit

/// A paired OwnTracks app as stored.
struct StoredOwnTracksDevice: Sendable, Equatable {
    var id: UUID
    var ownerID: UUID
    var name: String
    var nonce: String
    /// ``RouteKeys/lookupKey(nonce:)`` of the nonce.
    var lookup: String
    /// Lowercase hex SHA-256 of the secret's UTF-8.
    var secretHash: String
    /// The sealed key's envelope JSON, as the client sent it.
    var sealedKey: String
    var createdAt: Date
    var revokedAt: Date?
}

/// A device with what it has sent, for its owner's list.
struct OwnTracksDeviceSummary: Sendable, Equatable {
    var device: StoredOwnTracksDevice
    var messages: Int
    var lastMessageAt: Date?
}

/// One stored message.
struct StoredOwnTracksMessage: Sendable, Equatable {
    var seq: Int64
    var data: String
    var receivedAt: Date
}

/// Where OwnTracks devices and their messages live.
protocol OwnTracksStore: Sendable {
    /// Stores a new device; false when its nonce (or lookup) is taken.
    func insert(_ device: StoredOwnTracksDevice) async throws -> Bool
    /// The account's devices that are not revoked, oldest first, with their message counts.
    func devices(owner: UUID) async throws -> [OwnTracksDeviceSummary]
    /// The devices of an account that may post (not revoked), to check a secret against.
    func activeDevices(owner: UUID) async throws -> [StoredOwnTracksDevice]
    /// The device a nonce's lookup key finds, revoked or not (what it sent stays readable).
    func device(lookup: String) async throws -> OwnTracksDeviceSummary?
    /// Gives a device a new secret (its hash).
    func replaceSecret(id: UUID, secretHash: String) async throws
    /// Revokes the owner's device; false when the owner has no such device that is not revoked.
    func revoke(id: UUID, owner: UUID, now: Date) async throws -> Bool
    /// Keeps a message once: false when the device sent the same `data` before.
    func append(device: UUID, data: String, digest: String, receivedAt: Date) async throws -> Bool
    /// A device's messages received in `from...to` after the cursor `after`, oldest first.
    func messages(device: UUID, from: Date?, to: Date?, after: Int64?, limit: Int) async throws -> [StoredOwnTracksMessage]
}

/// ``OwnTracksStore`` on the server's database (SQLite or PostgreSQL) through SQLKit.
struct SQLOwnTracksStore: OwnTracksStore {
    let database: ServerDatabase

    static let deviceColumns = ["id", "owner_id", "name", "nonce", "lookup", "secret_hash", "sealed_key", "created_at", "revoked_at"]

    private func sql() throws -> any SQLDatabase {
        guard let sql = try database.db as? any SQLDatabase else { throw OwnTracksStoreError.notSQL }
        return sql
    }

    func insert(_ device: StoredOwnTracksDevice) async throws -> Bool {
        try await database.write { connection in
            guard let sql = connection as? any SQLDatabase else { throw OwnTracksStoreError.notSQL }
            struct Inserted: Decodable { var id: UUID }
            let rows = try await sql.insert(into: CreateOwnTracks.devices).columns(Self.deviceColumns)
                .values(SQLBind(device.id), SQLBind(device.ownerID), SQLBind(device.name), SQLBind(device.nonce), SQLBind(device.lookup),
                        SQLBind(device.secretHash), SQLBind(device.sealedKey), SQLBind(device.createdAt.timeIntervalSince1970),
                        device.revokedAt.map { SQLBind($0.timeIntervalSince1970) } ?? SQLLiteral.null)
                .ignoringConflicts()
                .returning("id")
                .all(decoding: Inserted.self)
            return !rows.isEmpty
        }
    }

    /// The device's columns and two of its messages': how many, and when the last came.
    private func summaries(_ build: (SQLSelectBuilder) -> SQLSelectBuilder) async throws -> [OwnTracksDeviceSummary] {
        var select = try sql().select()
            .columns(Self.deviceColumns.map { SQLColumn($0, table: "d") })
            .column(SQLFunction("COUNT", args: SQLColumn("seq", table: "m")), as: "message_count")
            .column(SQLFunction("MAX", args: SQLColumn("received_at", table: "m")), as: "last_message_at")
            .from(SQLAlias(SQLIdentifier(CreateOwnTracks.devices), as: SQLIdentifier("d")))
            .join(SQLAlias(SQLIdentifier(CreateOwnTracks.messages), as: SQLIdentifier("m")), method: SQLJoinMethod.left,
                  on: SQLColumn("device_id", table: "m"), .equal, SQLColumn("id", table: "d"))
        for column in Self.deviceColumns { select = select.groupBy(SQLColumn(column, table: "d")) }
        return try await build(select).all().map { row in
            OwnTracksDeviceSummary(device: try Self.device(from: row), messages: Int(try row.decode(column: "message_count", as: Int64.self)),
                                   lastMessageAt: try row.decode(column: "last_message_at", as: Double?.self).map(Date.init(timeIntervalSince1970:)))
        }
    }

    func devices(owner: UUID) async throws -> [OwnTracksDeviceSummary] {
        try await summaries {
            $0.where(SQLColumn("owner_id", table: "d"), .equal, SQLBind(owner)).where(SQLColumn("revoked_at", table: "d"), .is, SQLLiteral.null)
                .orderBy(SQLColumn("created_at", table: "d")).orderBy(SQLColumn("id", table: "d"))
        }
    }

    func activeDevices(owner: UUID) async throws -> [StoredOwnTracksDevice] {
        try await sql().select().columns(Self.deviceColumns.map { SQLIdentifier($0) }).from(CreateOwnTracks.devices)
            .where("owner_id", .equal, SQLBind(owner)).where("revoked_at", .is, SQLLiteral.null)
            .all().map(Self.device(from:))
    }

    func device(lookup: String) async throws -> OwnTracksDeviceSummary? {
        try await summaries { $0.where(SQLColumn("lookup", table: "d"), .equal, SQLBind(lookup)) }.first
    }

    func replaceSecret(id: UUID, secretHash: String) async throws {
        try await database.write { connection in
            guard let sql = connection as? any SQLDatabase else { throw OwnTracksStoreError.notSQL }
            try await sql.update(CreateOwnTracks.devices).set("secret_hash", to: SQLBind(secretHash)).where("id", .equal, SQLBind(id)).run()
        }
    }

    func revoke(id: UUID, owner: UUID, now: Date) async throws -> Bool {
        try await database.write { connection in
            guard let sql = connection as? any SQLDatabase else { throw OwnTracksStoreError.notSQL }
            struct Revoked: Decodable { var id: UUID }
            let rows = try await sql.update(CreateOwnTracks.devices).set("revoked_at", to: SQLBind(now.timeIntervalSince1970))
                .where("id", .equal, SQLBind(id)).where("owner_id", .equal, SQLBind(owner)).where("revoked_at", .is, SQLLiteral.null)
                .returning("id")
                .all(decoding: Revoked.self)
            return !rows.isEmpty
        }
    }

    func append(device: UUID, data: String, digest: String, receivedAt: Date) async throws -> Bool {
        try await database.write { connection in
            guard let sql = connection as? any SQLDatabase else { throw OwnTracksStoreError.notSQL }
            struct Inserted: Decodable { var seq: Int64 }
            let rows = try await sql.insert(into: CreateOwnTracks.messages).columns("device_id", "digest", "data", "received_at")
                .values(SQLBind(device), SQLBind(digest), SQLBind(data), SQLBind(receivedAt.timeIntervalSince1970))
                .ignoringConflicts()
                .returning("seq")
                .all(decoding: Inserted.self)
            return !rows.isEmpty
        }
    }

    func messages(device: UUID, from: Date?, to: Date?, after: Int64?, limit: Int) async throws -> [StoredOwnTracksMessage] {
        var select = try sql().select().columns("seq", "data", "received_at").from(CreateOwnTracks.messages)
            .where("device_id", .equal, SQLBind(device))
        if let from { select = select.where("received_at", .greaterThanOrEqual, SQLBind(from.timeIntervalSince1970)) }
        if let to { select = select.where("received_at", .lessThanOrEqual, SQLBind(to.timeIntervalSince1970)) }
        if let after { select = select.where("seq", .greaterThan, SQLBind(after)) }
        return try await select.orderBy("seq").limit(limit).all().map { row in
            StoredOwnTracksMessage(seq: try row.decode(column: "seq", as: Int64.self), data: try row.decode(column: "data", as: String.self),
                                   receivedAt: Date(timeIntervalSince1970: try row.decode(column: "received_at", as: Double.self)))
        }
    }

    static func device(from row: any SQLRow) throws -> StoredOwnTracksDevice {
        StoredOwnTracksDevice(
            id: try row.decode(column: "id", as: UUID.self), ownerID: try row.decode(column: "owner_id", as: UUID.self),
            name: try row.decode(column: "name", as: String.self), nonce: try row.decode(column: "nonce", as: String.self),
            lookup: try row.decode(column: "lookup", as: String.self), secretHash: try row.decode(column: "secret_hash", as: String.self),
            sealedKey: try row.decode(column: "sealed_key", as: String.self),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            revokedAt: try row.decode(column: "revoked_at", as: Double?.self).map(Date.init(timeIntervalSince1970:)))
    }
}

enum OwnTracksStoreError: Error {
    case notSQL
}
