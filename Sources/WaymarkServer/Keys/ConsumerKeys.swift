import Fluent
import Foundation
import Vapor
import WaymarkCore

/// Creates, lists and revokes API consumer keys in the server's database (`waymark keys`).
///
/// Opens the same database the server uses (and migrates it); call ``shutdown()`` when done.
public struct ConsumerKeys: Sendable {
    private let app: Application
    private let store: any ConsumerStore
    private let clock: WallClock

    /// Opens the database of `configuration`.
    public init(configuration: ServerConfiguration, clock: WallClock = .system) async throws {
        app = try await Application.openDatabase(configuration)
        store = FluentConsumerStore(database: app.serverDatabase)
        self.clock = clock
    }

    /// Creates a consumer that belongs to no account; the secret is shown only here, so print it once.
    public func create(name: String) async throws -> (name: String, key: String, secret: String) {
        let consumer = Consumer.make(name: name, userID: nil, now: clock.now())
        try await store.create(consumer)
        return (consumer.name, consumer.apiKey, consumer.secret)
    }

    /// Every consumer, oldest first.
    public func list() async throws -> [(name: String, key: String, created: Date, revoked: Bool)] {
        try await store.list(userID: nil).map { ($0.name, $0.apiKey, $0.createdAt, $0.revokedAt != nil) }
    }

    /// Revokes a key at once; returns `false` when no consumer has it.
    public func revoke(key: String) async throws -> Bool {
        try await store.revoke(apiKey: key, userID: nil, now: clock.now())
    }

    /// Closes the database.
    public func shutdown() async throws {
        try await app.asyncShutdown()
    }
}

extension Application {
    /// An application that only opens (and migrates) the database of `configuration`, for the
    /// administration commands (`waymark keys`, `waymark users`); it serves nothing.
    static func openDatabase(_ configuration: ServerConfiguration) async throws -> Application {
        let app = try await Application.make(Environment(name: Environment.production.name, arguments: ["waymark"]))
        do {
            try await app.useDatabase(configuration)
            try await app.migrateDatabase()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        return app
    }
}
