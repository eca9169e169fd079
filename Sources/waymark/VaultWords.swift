import Foundation
import WaymarkVault

/// The words of `waymark vault`: the seed's own texts (English, and German when the locale is
/// German) for signing in and for an empty module list, English for the rest.
struct VaultWords {
    /// Whether the seed's texts are shown in German.
    let german: Bool

    /// German when the first set of LC_ALL, LC_MESSAGES and LANG (POSIX's order) starts with `de`.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        german = locale.lowercased().hasPrefix("de")
    }

    // MARK: The seed's texts (Login screen 4b, 4c; Module list 5)
    // Module list 5 prints "öffnen deinen" once and "öffne deinen" for the link; the page and this say "öffne", the grammatical one.

    var cannotReachVault: String { german ? "Fehler: Datentresor nicht erreichbar" : "Error: can't access data vault" }
    var invalidCredentials: String { german ? "Fehler: ungültiger Benutzername und/oder Passwort" : "Error: invalid username and/or password" }
    var noModules: String { german ? "keine Module verfügbar" : "no modules available" }
    var openYourVault: String { german ? "öffne deinen Datentresor und erschließe Datenquellen" : "open your data vault and connect to data sources" }

    // MARK: The rest (English)

    /// Where the sign-in is kept, to follow "kept in".
    static func place(_ kind: VaultSecretStoreKind) -> String {
        switch kind {
        case .secretService: "the Secret Service (your desktop keyring)"
        case .keychain: "the Keychain"
        case .file(let url): "\(url.path) (readable only by you)"
        }
    }

    /// A store's failure, as a sentence without the leading "error:".
    static func describe(_ error: VaultSecretStoreError, in kind: VaultSecretStoreKind) -> String {
        switch error {
        case .unavailable(let detail): "\(place(kind)) cannot be used: \(clean(detail))"
        case .toolMissing: "secret-tool is not installed (Debian and Ubuntu: apt install libsecret-tools); or set WAYMARK_VAULT_STORE=file"
        case .noAnswer: "\(place(kind)) did not answer in time: is the keyring locked, waiting for a password? Or set WAYMARK_VAULT_STORE=file"
        case .failed(let detail): detail
        case .unreadable(let detail): "the sign-in kept in \(place(kind)) cannot be read (\(detail)); `waymark vault login` again"
        }
    }

    /// A vault error other than the two the seed words (those are ``cannotReachVault`` and ``invalidCredentials``).
    static func describe(_ error: VaultError) -> String {
        switch error {
        case .unreachable(let detail): "the data vault does not answer (\(detail))"
        case .invalidCredentials: "the data vault refused the kept sign-in; `waymark vault login` again"
        case .unauthorized: "the data vault refused the sign-in even after signing in again; `waymark vault login` again"
        case .forbidden: "the data vault refused access (403): this account may not use it; check the repository's permissions in your data vault"
        case let .badAnswer(status, detail): "the data vault answered something unexpected (HTTP \(status): \(clean(detail)))"
        case .invalidKey(let detail): "the repository's public key is not usable (\(clean(detail)))"
        case .crypto(let detail): "encryption failed (\(detail))"
        case .invalidURL(let detail): "not a usable vault address: \(clean(detail))"
        }
    }

    /// A field of a login QR code, as the user looks for it.
    static func name(_ field: VaultLoginField) -> String {
        switch field {
        case .vault: "PIA_URL (the vault's address)"
        case .email: "email"
        case .password: "password"
        case .key: "APP_KEY"
        case .secret: "APP_SECRET"
        }
    }

    /// Text from a vault, safe to print on a terminal: control characters (escape sequences a
    /// hostile vault could send) become spaces.
    static func clean(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : $0 }))
    }

    /// A count with its noun, e.g. "1 record", "3 records".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
