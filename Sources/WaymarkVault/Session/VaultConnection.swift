import Foundation

/// A signed-in vault: hands out a valid token, signs in again with the kept credentials when the
/// token is about to expire, and keeps every new token in its store.
///
/// Tokens are renewed ``renewalMargin`` seconds before they expire, so a request does not start
/// with a token that runs out on the way. Callers that ask at the same time share one sign-in.
public actor VaultConnection: VaultTokenSource {
    /// Seconds before its expiry at which a token is renewed.
    public static let renewalMargin: TimeInterval = 60

    /// The session as it is now (with the latest token).
    public private(set) var session: VaultSession
    /// Where the session is kept.
    public nonisolated let store: any VaultSecretStore
    /// The client of the session's vault.
    public nonisolated let client: VaultClient
    /// Why the latest token could not be kept, if it could not (the sign-in still works this run).
    public private(set) var saveFailure: VaultSecretStoreError?

    private let now: @Sendable () -> Date
    private var renewal: Task<Result<VaultToken, VaultError>, Never>?

    public init(session: VaultSession, store: any VaultSecretStore, client: VaultClient? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        self.session = session
        self.store = store
        self.client = client ?? VaultClient(vault: session.vault)
        self.now = now
    }

    /// Signs in for the first time with `credentials` and returns the connection; nothing is kept
    /// yet (``save()`` keeps it once the caller is content).
    public static func signIn(vault: URL, credentials: VaultCredentials, store: any VaultSecretStore, client: VaultClient? = nil,
                              now: @escaping @Sendable () -> Date = Date.init) async throws(VaultError) -> VaultConnection {
        let connection = VaultConnection(session: VaultSession(vault: vault, credentials: credentials), store: store, client: client, now: now)
        _ = try await connection.renew(saving: false)
        return connection
    }

    /// Keeps the session in the store.
    public func save() throws(VaultSecretStoreError) {
        try store.save(session)
        saveFailure = nil
    }

    /// A token valid for at least ``renewalMargin`` more seconds: the kept one, or a new one.
    public func token() async throws(VaultError) -> VaultToken {
        if let token = session.token, token.expires.timeIntervalSince(now()) > Self.renewalMargin { return token }
        return try await renew()
    }

    /// Signs in again (the vault refused the token), keeps the new token and returns it.
    public func renew() async throws(VaultError) -> VaultToken {
        try await renew(saving: true)
    }

    /// Runs `call` with a valid token; when the vault answers ``VaultError/unauthorized`` it signs in
    /// again once and repeats the call.
    public func authorized<T: Sendable>(_ call: @Sendable (VaultToken) async throws(VaultError) -> T) async throws(VaultError) -> T {
        do throws(VaultError) {
            return try await call(try await token())
        } catch .unauthorized {
            return try await call(try await renew())
        }
    }

    private func renew(saving: Bool) async throws(VaultError) -> VaultToken {
        if let renewal { return try await renewal.value.get() }
        let client = client, credentials = session.credentials, now = now
        let task = Task { () -> Result<VaultToken, VaultError> in
            do throws(VaultError) {
                return .success(try await client.signIn(credentials, now: now()))
            } catch {
                return .failure(error)
            }
        }
        renewal = task
        let result = await task.value
        renewal = nil
        let token = try result.get()
        session.token = token
        if let username = token.username { session.username = username }
        if saving {
            do throws(VaultSecretStoreError) {
                try store.save(session)
                saveFailure = nil
            } catch {
                saveFailure = error
            }
        }
        return token
    }
}
