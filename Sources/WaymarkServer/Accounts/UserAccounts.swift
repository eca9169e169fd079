import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore
import WaymarkMedia

/// Account administration in the server's database (`waymark users`): create an account with
/// any role (the first admin), list accounts, change a role, set a new password.
///
/// Opens the same database the server uses (and migrates it); call ``shutdown()`` when done.
public struct UserAccounts: Sendable {
    /// An account as the administration shows it.
    public struct Summary: Sendable, Equatable {
        public var username: String
        public var displayName: String
        public var email: String?
        public var role: AccountRole
        public var created: Date
    }

    /// Why a command was refused; the CLI words it.
    public enum Problem: Error, Sendable, Equatable {
        case invalidUsername
        case passwordTooShort
        case passwordTooLong
        case invalidDisplayName
        case invalidEmail
        case usernameTaken
        case noSuchAccount
    }

    private let app: Application
    private let service: AccountService
    private let hasher: PasswordHasher

    /// Opens the database of `configuration`.
    public init(configuration: ServerConfiguration, dependencies: ServerDependencies = ServerDependencies()) async throws {
        app = try await Application.openDatabase(configuration)
        let stores = dependencies.makeStores(app.serverDatabase, dependencies.clock)
        hasher = PasswordHasher(cost: dependencies.passwordCost, threads: 1)
        service = AccountService(accounts: stores.accounts, sessions: stores.sessions, hasher: hasher, clock: dependencies.clock)
    }

    /// Creates an account.
    public func create(username: String, password: String, role: AccountRole, displayName: String?, email: String?) async throws -> Summary {
        try await mapped {
            Summary(try await service.register(NewAccountRequest(username: username, password: password, displayName: displayName, email: email), role: role))
        }
    }

    /// Every account, oldest first.
    public func list() async throws -> [Summary] {
        try await service.accounts.all().map(Summary.init)
    }

    /// Gives an account another role.
    public func setRole(_ role: AccountRole, username: String) async throws -> Summary {
        try await mapped { Summary(try await service.setRole(role, username: username)) }
    }

    /// Sets a new password; every session of the account ends at once.
    public func resetPassword(username: String, to password: String) async throws -> Summary {
        try await mapped { Summary(try await service.resetPassword(username: username, to: password)) }
    }

    /// Closes the database.
    public func shutdown() async throws {
        try? await hasher.shutdown()
        try await app.asyncShutdown()
    }

    private func mapped<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let problem as AccountProblem {
            switch problem {
            case .invalidUsername: throw Problem.invalidUsername
            case .invalidPassword(.tooShort): throw Problem.passwordTooShort
            case .invalidPassword(.tooLong): throw Problem.passwordTooLong
            case .invalidDisplayName: throw Problem.invalidDisplayName
            case .invalidEmail: throw Problem.invalidEmail
            case .usernameTaken: throw Problem.usernameTaken
            case .noSuchAccount: throw Problem.noSuchAccount
            }
        }
    }
}

extension UserAccounts.Summary {
    init(_ account: Account) {
        self.init(username: account.username, displayName: account.displayName, email: account.email, role: account.role, created: account.createdAt)
    }
}
