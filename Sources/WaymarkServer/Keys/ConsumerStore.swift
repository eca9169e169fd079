import Fluent
import Foundation

/// A consumer of the route API, as the stores hand it out.
struct Consumer: Sendable, Equatable {
    var id: UUID
    var name: String
    /// `wmk_` + 16 characters, sent as `X-API-Key`.
    var apiKey: String
    /// The HMAC secret.
    var secret: String
    var createdAt: Date
    var revokedAt: Date?
    /// The account whose device this is.
    var userID: UUID?

    /// A new consumer with a random key and a random 256-bit secret.
    static func make(name: String, userID: UUID?, now: Date) -> Consumer {
        Consumer(id: UUID(), name: name, apiKey: "wmk_" + RandomToken.make(bytes: 12), secret: RandomToken.make(bytes: 32),
                 createdAt: now, revokedAt: nil, userID: userID)
    }
}

/// Where consumer keys live.
protocol ConsumerStore: Sendable {
    func create(_ consumer: Consumer) async throws
    /// The consumer with this key, revoked or not.
    func consumer(apiKey: String) async throws -> Consumer?
    /// Every consumer (revoked ones too) of one account, or of all when `userID` is `nil`; oldest first.
    func list(userID: UUID?) async throws -> [Consumer]
    /// Revokes a key at `now`; only `userID`'s key when one is given. Returns `false` when there
    /// is no such key (or it is another account's).
    func revoke(apiKey: String, userID: UUID?, now: Date) async throws -> Bool
}

/// ``ConsumerStore`` on the server's Fluent database.
struct FluentConsumerStore: ConsumerStore {
    let database: ServerDatabase

    func create(_ consumer: Consumer) async throws {
        try await database.write { connection in
            try await ConsumerModel(consumer).create(on: connection)
        }
    }

    func consumer(apiKey: String) async throws -> Consumer? {
        try await ConsumerModel.query(on: database.db).filter(\.$apiKey == apiKey).first()?.consumer
    }

    func list(userID: UUID?) async throws -> [Consumer] {
        var query = ConsumerModel.query(on: try database.db)
        if let userID {
            query = query.filter(\.$userID == userID)
        }
        return try await query.sort(\.$createdAt).all().map(\.consumer)
    }

    func revoke(apiKey: String, userID: UUID?, now: Date) async throws -> Bool {
        try await database.write { connection in
            var query = ConsumerModel.query(on: connection).filter(\.$apiKey == apiKey)
            if let userID {
                query = query.filter(\.$userID == userID)
            }
            guard let model = try await query.first() else { return false }
            if model.revokedAt == nil {
                model.revokedAt = now
                try await model.save(on: connection)
            }
            return true
        }
    }
}
