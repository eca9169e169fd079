import Fluent
import SQLKit
import Foundation
import WaymarkAPI
import WaymarkMedia

/// An account as the stores hand it out.
struct Account: Sendable, Equatable {
    var id: UUID
    /// Lowercase, unique.
    var username: String
    var displayName: String
    var email: String?
    var role: AccountRole
    var passwordHash: PasswordHash
    var createdAt: Date

    /// The account as the API shows it (never its password hash).
    var dto: UserDTO {
        UserDTO(id: id, username: username, displayName: displayName, email: email, role: role,
                createdAt: createdAt)
    }
}

/// The `users` table.
final class AccountModel: Model, @unchecked Sendable {
    static let schema = "users"

    @ID(key: .id) var id: UUID?
    /// Lowercase; unique.
    @Field(key: "username") var username: String
    @Field(key: "display_name") var displayName: String
    @OptionalField(key: "email") var email: String?
    /// `user`, `officer` or `admin`.
    @Field(key: "role") var role: String
    /// The Argon2id encoding (algorithm, cost, salt and hash), never the password.
    @Field(key: "password_hash") var passwordHash: String
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(_ account: Account) {
        id = account.id
        username = account.username
        displayName = account.displayName
        email = account.email
        role = account.role.rawValue
        passwordHash = account.passwordHash.encoded
        createdAt = account.createdAt
    }

    var account: Account {
        Account(id: id ?? UUID(), username: username, displayName: displayName, email: email,
                role: AccountRole(rawValue: role) ?? .user, passwordHash: PasswordHash(encoded: passwordHash), createdAt: createdAt)
    }
}

/// A signed-in session: the SHA-256 of its token, never the token.
final class SessionModel: Model, @unchecked Sendable {
    static let schema = "sessions"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    /// Lowercase hex SHA-256 of the token; unique.
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "expires_at") var expiresAt: Date

    init() {}

    init(_ session: Session) {
        id = session.id
        userID = session.userID
        tokenHash = session.tokenHash
        createdAt = session.createdAt
        expiresAt = session.expiresAt
    }

    var session: Session {
        Session(id: id ?? UUID(), userID: userID, tokenHash: tokenHash, createdAt: createdAt, expiresAt: expiresAt)
    }
}

/// Accounts and their sessions (DESIGN §3.5).
struct CreateAccounts: AsyncMigration {
    var name: String { "WaymarkAccounts" }

    func prepare(on database: any Database) async throws {
        try await database.schema(AccountModel.schema)
            .id()
            .field("username", .string, .required)
            .field("display_name", .string, .required)
            .field("email", .string)
            .field("role", .string, .required)
            .field("password_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "username")
            .create()
        try await database.schema(SessionModel.schema)
            .id()
            .field("user_id", .uuid, .required, .references(AccountModel.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "sessions_user_idx").on(SessionModel.schema).column("user_id").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SessionModel.schema).delete()
        try await database.schema(AccountModel.schema).delete()
    }
}
