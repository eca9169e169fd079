import Fluent
import Foundation
import Vapor

/// Creates, lists and revokes API consumer keys in the server's database (`waymark keys`).
///
/// Opens the same database the server uses (and migrates it); call ``shutdown()`` when done.
public struct ConsumerKeys: Sendable {
    private let app: Application

    /// Opens the database of `configuration`.
    public init(configuration: ServerConfiguration) async throws {
        let app = try await Application.make(Environment(name: Environment.production.name, arguments: ["waymark"]))
        do {
            try await app.useDatabase(configuration)
            try await app.migrateDatabase()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        self.app = app
    }

    /// Creates a consumer; the secret is shown only here, so print it once.
    public func create(name: String) async throws -> (name: String, key: String, secret: String) {
        let consumer = try await ConsumerDirectory(database: app.quietDB, writeGate: app.writeGate).create(name: name)
        return (consumer.name, consumer.apiKey, consumer.secret)
    }

    /// Every consumer, oldest first.
    public func list() async throws -> [(name: String, key: String, created: Date, revoked: Bool)] {
        try await ConsumerModel.query(on: app.quietDB).sort(\.$createdAt).all()
            .map { ($0.name, $0.apiKey, $0.createdAt, $0.revokedAt != nil) }
    }

    /// Revokes a key at once; returns `false` when no consumer has it.
    public func revoke(key: String) async throws -> Bool {
        try await ConsumerDirectory(database: app.quietDB, writeGate: app.writeGate).revoke(apiKey: key)
    }

    /// Closes the database.
    public func shutdown() async throws {
        try await app.asyncShutdown()
    }
}

/// Consumer keys on a Fluent database; shared by ``ConsumerKeys`` and the tests.
struct ConsumerDirectory: Sendable {
    let database: any Database
    /// The SQLite database's ``WriteGate``, if any.
    var writeGate: WriteGate? = nil

    /// A new consumer with a random key (`wmk_` + 16 characters) and a random 256-bit secret.
    func create(name: String, now: Date = Date()) async throws -> ConsumerModel {
        let consumer = ConsumerModel(
            name: name, apiKey: "wmk_" + RandomToken.make(bytes: 12),
            secret: RandomToken.make(bytes: 32), createdAt: now
        )
        try await database.withWriteConnection(gate: writeGate) { connection in
            try await consumer.create(on: connection)
        }
        return consumer
    }

    func revoke(apiKey: String, now: Date = Date()) async throws -> Bool {
        guard let consumer = try await ConsumerModel.query(on: database).filter(\.$apiKey == apiKey).first() else {
            return false
        }
        if consumer.revokedAt == nil {
            consumer.revokedAt = now
            try await database.withWriteConnection(gate: writeGate) { connection in
                try await consumer.save(on: connection)
            }
        }
        return true
    }
}
