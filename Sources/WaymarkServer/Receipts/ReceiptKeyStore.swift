import Fluent
import Foundation
import Logging
import SQLKit
import WaymarkCore

/// Where the receipt signing key lives (DESIGN §3.14): in the database, so that every instance
/// on it signs receipts, and seals the lists' cursors, with one key, or in the operator's file
/// (`waymark serve --receipt-key FILE`).
///
/// On the first start on a database without a key, the data folder's `receipt-ed25519.key`
/// (``ReceiptKeyFile``: the key of a server from before) is moved in, or a new key is made.
/// Instances starting at once insert their candidate only if none is there and all read back the
/// one that won, so a database never holds two keys.
enum ReceiptKeyStore {
    static let table = "server_keys"
    static let name = "receipt-ed25519"

    static func load(_ configuration: ServerConfiguration, database: ServerDatabase, logger: Logger) async throws -> ReceiptSigningKey {
        if let file = configuration.receiptKeyFile {
            guard let key = try ReceiptKeyFile.load(file, logger: logger) else {
                throw ReceiptKeyFileError(path: file.path, problem: .unreadable("there is no such file"))
            }
            return key
        }
        if let stored = try await stored(database) { return stored }
        let legacy = ReceiptKeyFile.url(in: configuration.dataDirectory)
        let candidate = try ReceiptKeyFile.load(legacy, logger: logger) ?? ReceiptSigningKey()
        try await database.write { connection in
            guard let sql = connection as? any SQLDatabase else { throw ReceiptKeyStoreError.notSQL }
            try await sql.insert(into: table).columns("name", "pem", "created_at")
                .values(SQLBind(name), SQLBind(candidate.pem), SQLBind(Date().timeIntervalSince1970))
                .ignoringConflicts()
                .run()
        }
        guard let key = try await stored(database) else { throw ReceiptKeyStoreError.vanished }
        if key.publicKey == candidate.publicKey {
            logger.notice("receipt signing key stored in the database", metadata: [
                "publicKey": "\(key.publicKey.base64EncodedString())",
                "from": "\(FileManager.default.fileExists(atPath: legacy.path) ? legacy.path : "new")",
            ])
        }
        return key
    }

    /// The database's key, or nil before the first start.
    static func stored(_ database: ServerDatabase) async throws -> ReceiptSigningKey? {
        guard let sql = try database.db as? any SQLDatabase else { throw ReceiptKeyStoreError.notSQL }
        guard let row = try await sql.select().column("pem").from(table).where("name", .equal, SQLBind(name)).first() else { return nil }
        let pem = try row.decode(column: "pem", as: String.self)
        do {
            return try ReceiptSigningKey(pem: pem)
        } catch {
            throw ReceiptKeyStoreError.malformed
        }
    }
}

enum ReceiptKeyStoreError: Error, CustomStringConvertible, LocalizedError {
    case notSQL
    case vanished
    case malformed

    var description: String {
        switch self {
        case .notSQL: "the receipt signing key needs an SQL database"
        case .vanished: "the receipt signing key was stored and then not found; is another program deleting rows of server_keys?"
        case .malformed: "the receipt signing key in the database (server_keys, receipt-ed25519) is not an Ed25519 private key in PEM; restore it from a backup"
        }
    }

    var errorDescription: String? { description }
}

/// The `server_keys` table: the keys every instance of a server shares (the receipt signing key),
/// by name, as PEM.
struct CreateServerKeys: AsyncMigration {
    var name: String { "WaymarkServerKeys" }

    func prepare(on database: any Database) async throws {
        try await database.schema(ReceiptKeyStore.table)
            .field("name", .string, .identifier(auto: false))
            .field("pem", .string, .required)
            .field("created_at", .double, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ReceiptKeyStore.table).delete()
    }
}
