import Fluent
import Foundation
import WaymarkAPI
import WaymarkMedia

/// A signed-in session.
struct Session: Sendable, Equatable {
    var id: UUID
    var userID: UUID
    /// Lowercase hex SHA-256 of the token.
    var tokenHash: String
    var createdAt: Date
    var expiresAt: Date
}

/// What became of a registration.
enum AccountCreation: Sendable, Equatable {
    case created
    case usernameTaken
}

/// Where accounts live.
protocol AccountStore: Sendable {
    /// Stores a new account, unless its username is taken.
    func create(_ account: Account) async throws -> AccountCreation
    func account(username: String) async throws -> Account?
    func account(id: UUID) async throws -> Account?
    /// Every account, oldest first.
    func all() async throws -> [Account]
    /// Changes an account's role; `nil` when there is no such account.
    func setRole(_ role: AccountRole, username: String) async throws -> Account?
    /// Replaces an account's password hash; `nil` when there is no such account.
    func setPasswordHash(_ hash: PasswordHash, username: String) async throws -> Account?
}

/// Where sessions live.
protocol SessionStore: Sendable {
    func create(_ session: Session) async throws
    /// The session with this token hash, if it has not expired at `now`.
    func session(tokenHash: String, now: Date) async throws -> Session?
    /// Ends one session at once.
    func delete(id: UUID) async throws
    /// Ends every session of an account (a new password signs everyone out).
    func deleteAll(userID: UUID) async throws
    /// Deletes sessions that expired before `now`.
    func purgeExpired(now: Date) async throws
}

/// ``AccountStore`` on the server's Fluent database.
struct FluentAccountStore: AccountStore {
    let database: ServerDatabase

    func create(_ account: Account) async throws -> AccountCreation {
        do {
            try await database.write { connection in
                try await AccountModel(account).create(on: connection)
            }
            return .created
        } catch {
            // The unique index refused it: someone has (or just took) the name.
            if try await self.account(username: account.username) != nil { return .usernameTaken }
            throw error
        }
    }

    func account(username: String) async throws -> Account? {
        try await AccountModel.query(on: database.db).filter(\.$username == username).first()?.account
    }

    func account(id: UUID) async throws -> Account? {
        try await AccountModel.find(id, on: database.db)?.account
    }

    func all() async throws -> [Account] {
        try await AccountModel.query(on: database.db).sort(\.$createdAt).sort(\.$username).all().map(\.account)
    }

    func setRole(_ role: AccountRole, username: String) async throws -> Account? {
        try await update(username: username) { $0.role = role.rawValue }
    }

    func setPasswordHash(_ hash: PasswordHash, username: String) async throws -> Account? {
        try await update(username: username) { $0.passwordHash = hash.encoded }
    }

    private func update(username: String, _ change: @escaping @Sendable (AccountModel) -> Void) async throws -> Account? {
        try await database.write { connection in
            guard let model = try await AccountModel.query(on: connection).filter(\.$username == username).first() else { return nil }
            change(model)
            try await model.save(on: connection)
            return model.account
        }
    }
}

/// ``SessionStore`` on the server's Fluent database.
struct FluentSessionStore: SessionStore {
    let database: ServerDatabase

    func create(_ session: Session) async throws {
        try await database.write { connection in
            try await SessionModel(session).create(on: connection)
        }
    }

    func session(tokenHash: String, now: Date) async throws -> Session? {
        try await SessionModel.query(on: database.db)
            .filter(\.$tokenHash == tokenHash)
            .filter(\.$expiresAt > now)
            .first()?.session
    }

    func delete(id: UUID) async throws {
        try await database.write { connection in
            try await SessionModel.query(on: connection).filter(\.$id == id).delete()
        }
    }

    func deleteAll(userID: UUID) async throws {
        try await database.write { connection in
            try await SessionModel.query(on: connection).filter(\.$userID == userID).delete()
        }
    }

    func purgeExpired(now: Date) async throws {
        try await database.write { connection in
            try await SessionModel.query(on: connection).filter(\.$expiresAt <= now).delete()
        }
    }
}
