import Foundation

/// A sign-in to a data vault as it is kept between runs: the vault, the credentials that sign in
/// again when the token expires (the seed's tokens live 7,200 s), and the latest token.
///
/// It holds a password or an app secret: only a ``VaultSecretStore`` keeps it.
public struct VaultSession: Codable, Sendable, Equatable {
    /// The vault's address (the seed's `PIA_URL`).
    public var vault: URL
    public var credentials: VaultCredentials
    /// The latest token, nil before the first sign-in.
    public var token: VaultToken?
    /// The user name the vault answered at sign-in (the seed's User screen header).
    public var username: String?

    public init(vault: URL, credentials: VaultCredentials, token: VaultToken? = nil, username: String? = nil) {
        self.vault = vault
        self.credentials = credentials
        self.token = token
        self.username = username ?? token?.username
    }

    /// The e-mail address or app key the credentials sign in with (never the password or secret).
    public var account: String {
        switch credentials {
        case let .password(email, _): email
        case let .app(key, _): key
        }
    }

    /// The session as kept: JSON (dates as Foundation's own seconds, which read back exactly).
    func encoded() throws(VaultSecretStoreError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(self)
        } catch {
            throw .unreadable("the sign-in cannot be written as JSON: \(error)")
        }
    }

    /// Reads what ``encoded()`` wrote.
    static func decoded(_ data: Data) throws(VaultSecretStoreError) -> VaultSession {
        let decoder = JSONDecoder()
        do {
            return try decoder.decode(VaultSession.self, from: data)
        } catch {
            throw .unreadable("the kept sign-in is not a Waymark vault session")
        }
    }
}

/// Where a ``VaultSession`` is kept: the system's keyring where there is one, else a file only the
/// user can read.
public protocol VaultSecretStore: Sendable {
    /// A short identifier: `secret-service`, `keychain` or `file`.
    var name: String { get }
    /// Where the sign-in is kept, for the shell to say so.
    var kind: VaultSecretStoreKind { get }
    /// The kept session, or nil when none is kept.
    func load() throws(VaultSecretStoreError) -> VaultSession?
    /// Keeps `session`, replacing the one kept before.
    func save(_ session: VaultSession) throws(VaultSecretStoreError)
    /// Forgets the kept session; nothing happens when none is kept.
    func delete() throws(VaultSecretStoreError)
}

/// Where a ``VaultSecretStore`` keeps the sign-in.
public enum VaultSecretStoreKind: Sendable, Equatable {
    /// The freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC) through libsecret.
    case secretService
    /// The macOS or iOS Keychain.
    case keychain
    /// A JSON file readable only by the user.
    case file(URL)
}

/// Why a sign-in could not be kept or read.
public enum VaultSecretStoreError: Error, Sendable, Equatable {
    /// The keyring cannot be reached (no session bus, no secret service); the detail is the tool's own.
    case unavailable(String)
    /// `secret-tool` is not installed.
    case toolMissing
    /// The keyring did not answer in time (locked, waiting for a password prompt nobody sees).
    case noAnswer
    /// Writing or deleting failed (a file system error).
    case failed(String)
    /// What is kept cannot be read as a session (damaged, or written by something else).
    case unreadable(String)
}

/// Chooses where the sign-in is kept.
public enum VaultSecretStores {
    /// The variable that forces a store: `file`, `secret-service` or `keychain`.
    public static let variable = "WAYMARK_VAULT_STORE"

    /// The store forced by `WAYMARK_VAULT_STORE`, nil when it is unset or empty.
    ///
    /// - Returns: `.failure` with the value when it names no store (the shell says which are known).
    public static func forced(environment: [String: String]) -> Result<(any VaultSecretStore)?, UnknownStore> {
        guard let value = environment[variable], !value.isEmpty else { return .success(nil) }
        switch value {
        case "file": return .success(FileSecretStore(environment: environment))
        case "secret-service": return .success(SecretServiceStore(environment: environment))
        #if canImport(Security)
        case "keychain": return .success(KeychainStore())
        #endif
        default: return .failure(UnknownStore(value: value))
        }
    }

    /// A `WAYMARK_VAULT_STORE` value that names no store.
    public struct UnknownStore: Error, Sendable, Equatable {
        public var value: String
        /// The values that are understood here.
        public static var known: [String] {
            #if canImport(Security)
            ["file", "secret-service", "keychain"]
            #else
            ["file", "secret-service"]
            #endif
        }
    }

    /// Where a new sign-in is kept: the store `WAYMARK_VAULT_STORE` names; else the Keychain where
    /// there is one; else the Secret Service when `secret-tool` is installed and a lookup gets an
    /// answer (a session bus with a secret service on it); else the file
    /// (``FileSecretStore/defaultLocation(environment:)``). An unknown `WAYMARK_VAULT_STORE` is
    /// treated as unset (see ``forced(environment:)`` to refuse it).
    public static func preferred(environment: [String: String]) -> any VaultSecretStore {
        if case let .success(store?) = forced(environment: environment) { return store }
        #if canImport(Security)
        let keychain = KeychainStore()
        if keychain.isUsable() { return keychain }
        #endif
        let secretService = SecretServiceStore(environment: environment)
        if secretService.isUsable() { return secretService }
        return FileSecretStore(environment: environment)
    }

    /// Every store a sign-in may be kept in here, the preferred first: an older sign-in kept in the
    /// file before a keyring was available is still found, and logging out forgets it too. Only the
    /// forced store when `WAYMARK_VAULT_STORE` names one.
    public static func all(environment: [String: String]) -> [any VaultSecretStore] {
        let preferred = preferred(environment: environment)
        if case .success(.some) = forced(environment: environment) { return [preferred] }
        return preferred.kind == .file(FileSecretStore(environment: environment).url)
            ? [preferred] : [preferred, FileSecretStore(environment: environment)]
    }

    /// The first kept session among ``all(environment:)``, with the store that keeps it.
    ///
    /// A store that cannot be reached is passed over when a later one keeps a session; when none
    /// does, the first such error is thrown (the sign-in may be kept in the unreachable keyring).
    public static func find(environment: [String: String]) throws(VaultSecretStoreError) -> (session: VaultSession, store: any VaultSecretStore)? {
        var firstError: VaultSecretStoreError?
        for store in all(environment: environment) {
            do {
                if let session = try store.load() { return (session, store) }
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        return nil
    }
}
