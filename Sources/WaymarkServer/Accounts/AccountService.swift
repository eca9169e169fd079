import Crypto
import Foundation
import WaymarkAPI
import WaymarkCore
import WaymarkMedia

/// Why an account request was refused; the shells (API, CLI) choose the words.
enum AccountProblem: Error, Sendable, Equatable {
    case invalidUsername
    case invalidPassword(AccountRules.PasswordProblem)
    case invalidDisplayName
    case invalidEmail
    case usernameTaken
    case noSuchAccount
}

/// Accounts and sessions (DESIGN §3.5): registration, sign-in, session tokens and the
/// administration that `waymark users` does. Typed outcomes only.
struct AccountService: Sendable {
    let accounts: any AccountStore
    let sessions: any SessionStore
    let hasher: PasswordHasher
    let clock: WallClock

    /// How long a session lasts from sign-in.
    static let sessionLifetime: TimeInterval = 90 * 24 * 3600
    /// Session tokens: `wmt_` + 32 random bytes in unpadded base64url.
    static let tokenPrefix = "wmt_"

    /// Creates an account after checking every field.
    func register(_ request: NewAccountRequest, role: AccountRole = .user) async throws -> Account {
        let username = AccountRules.normalizedUsername(request.username)
        guard AccountRules.isValidUsername(username) else { throw AccountProblem.invalidUsername }
        if let problem = AccountRules.passwordProblem(request.password) { throw AccountProblem.invalidPassword(problem) }
        // Control characters are refused as sent, before any trimming (a leading tab is not "trimmed away").
        if let raw = request.displayName, AccountRules.hasControlCharacters(raw) { throw AccountProblem.invalidDisplayName }
        if let raw = request.email, AccountRules.hasControlCharacters(raw) { throw AccountProblem.invalidEmail }
        let displayName = (request.displayName?.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0.isEmpty ? nil : $0 } ?? username
        guard AccountRules.isValidName(displayName) else { throw AccountProblem.invalidDisplayName }
        let email = (request.email?.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0.isEmpty ? nil : $0 }
        if let email, !AccountRules.isPlausibleEmail(email) { throw AccountProblem.invalidEmail }
        // Cheap check first, so that a taken name does not cost a hash; the store's unique index decides.
        if try await accounts.account(username: username) != nil { throw AccountProblem.usernameTaken }
        let account = Account(id: UUID(), username: username, displayName: displayName, email: email, role: role,
                              passwordHash: try await hasher.hash(request.password), createdAt: clock.now())
        guard try await accounts.create(account) == .created else { throw AccountProblem.usernameTaken }
        return account
    }

    /// The account whose password this is, or `nil` (unknown name or wrong password, which take as long).
    func checkPassword(username: String, password: String) async throws -> Account? {
        let name = AccountRules.normalizedUsername(username)
        // A name or password that could never have been registered still costs a hash.
        let account = AccountRules.isValidUsername(name) && password.utf8.count <= AccountRules.maximumPasswordBytes
            ? try await accounts.account(username: name) : nil
        guard try await hasher.verify(password, against: account?.passwordHash), let account else { return nil }
        if account.passwordHash.needsRehash(at: hasher.cost) {
            _ = try await accounts.setPasswordHash(try await hasher.hash(password), username: account.username)
        }
        return account
    }

    /// Starts a session and returns its token, which is shown only now (only its hash is kept).
    func startSession(for account: Account) async throws -> (token: String, session: Session) {
        let token = Self.tokenPrefix + RandomToken.make(bytes: 32)
        let now = clock.now()
        let session = Session(id: UUID(), userID: account.id, tokenHash: Self.tokenHash(token), createdAt: now,
                              expiresAt: now.addingTimeInterval(Self.sessionLifetime))
        try await sessions.create(session)
        return (token, session)
    }

    /// The live session and account of a token, or `nil`.
    func authenticate(token: String) async throws -> (session: Session, account: Account)? {
        guard token.hasPrefix(Self.tokenPrefix), token.count <= 128 else { return nil }
        guard let session = try await sessions.session(tokenHash: Self.tokenHash(token), now: clock.now()),
              let account = try await accounts.account(id: session.userID)
        else { return nil }
        return (session, account)
    }

    func signOut(_ session: Session) async throws {
        try await sessions.delete(id: session.id)
    }

    func setRole(_ role: AccountRole, username: String) async throws -> Account {
        guard let account = try await accounts.setRole(role, username: AccountRules.normalizedUsername(username)) else {
            throw AccountProblem.noSuchAccount
        }
        return account
    }

    /// Sets a new password and ends every session of the account.
    func resetPassword(username: String, to password: String) async throws -> Account {
        if let problem = AccountRules.passwordProblem(password) { throw AccountProblem.invalidPassword(problem) }
        let name = AccountRules.normalizedUsername(username)
        guard try await accounts.account(username: name) != nil else { throw AccountProblem.noSuchAccount }
        guard let account = try await accounts.setPasswordHash(try await hasher.hash(password), username: name) else {
            throw AccountProblem.noSuchAccount
        }
        try await sessions.deleteAll(userID: account.id)
        return account
    }

    /// Lowercase hex SHA-256 of a token: what the session store keeps.
    static func tokenHash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
