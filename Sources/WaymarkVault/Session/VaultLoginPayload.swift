import Foundation

/// The sign-in a vault's login QR code carries (the seed's "Test Environment"): a JSON object with
/// `PIA_URL` (the vault) and either `email` and `password`, or `APP_KEY` and `APP_SECRET`.
public enum VaultLoginPayload: Sendable, Equatable {
    case password(vault: URL, email: String, password: String)
    case app(vault: URL, key: String, secret: String)

    /// The longest text read: a QR code holds at most 2,953 bytes; anything longer is no login code.
    public static let maximumLength = 4096

    /// The vault to sign in to.
    public var vault: URL {
        switch self {
        case let .password(vault, _, _), let .app(vault, _, _): vault
        }
    }

    /// The credentials to sign in with.
    public var credentials: VaultCredentials {
        switch self {
        case let .password(_, email, password): .password(email: email, password: password)
        case let .app(_, key, secret): .app(key: key, secret: secret)
        }
    }

    /// Reads a QR code's text.
    ///
    /// Both forms are understood; when both are complete, the e-mail and password are used. A value
    /// of the wrong type (a number, an object), an empty one, or a `PIA_URL` that is not an `http`
    /// or `https` address with a host counts as absent and is named in
    /// ``VaultLoginFields/invalid`` when it was there.
    /// - Returns: `.failure(.incomplete(fields))` with what was read when a field is missing,
    ///   `.notJSON` for text that is not JSON (or longer than ``maximumLength``), `.notAnObject`
    ///   for JSON that is not an object.
    public static func parse(_ text: String) -> Result<VaultLoginPayload, VaultLoginPayloadError> {
        guard text.utf8.count <= maximumLength else { return .failure(.notJSON) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        } catch {
            return .failure(.notJSON)
        }
        guard let fields = object as? [String: Any] else { return .failure(.notAnObject) }
        var read = VaultLoginFields()
        func string(_ field: VaultLoginField) -> String? {
            guard let value = fields[field.rawValue] else { return nil }
            guard let text = value as? String, !text.isEmpty, !(value is NSNumber) else {
                read.invalid.append(field)
                return nil
            }
            return text
        }
        if let address = string(.vault) {
            if let url = vaultAddress(address) { read.vault = url } else { read.invalid.append(.vault) }
        }
        read.email = string(.email)
        read.password = string(.password)
        read.key = string(.key)
        read.secret = string(.secret)

        if let vault = read.vault {
            if let email = read.email, let password = read.password { return .success(.password(vault: vault, email: email, password: password)) }
            if let key = read.key, let secret = read.secret { return .success(.app(vault: vault, key: key, secret: secret)) }
        }
        return .failure(.incomplete(read))
    }

    /// A vault address: an `http` or `https` URL with a host (and no user or password), nothing but
    /// printable ASCII once trimmed of white space; nil for anything else.
    public static func vaultAddress(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
              let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.user == nil, url.password == nil
        else { return nil }
        return url
    }
}

/// A field of a login QR code, named as the code names it.
public enum VaultLoginField: String, Sendable, Equatable, CaseIterable {
    case vault = "PIA_URL"
    case email
    case password
    case key = "APP_KEY"
    case secret = "APP_SECRET"
}

/// What a login QR code that is not complete held.
public struct VaultLoginFields: Sendable, Equatable {
    public var vault: URL?
    public var email: String?
    public var password: String?
    public var key: String?
    public var secret: String?
    /// Fields present whose value could not be used (wrong type, empty, not an http(s) address).
    public var invalid: [VaultLoginField] = []

    public init(vault: URL? = nil, email: String? = nil, password: String? = nil, key: String? = nil, secret: String? = nil,
                invalid: [VaultLoginField] = []) {
        self.vault = vault
        self.email = email
        self.password = password
        self.key = key
        self.secret = secret
        self.invalid = invalid
    }

    /// Whether the code is of the app form: it has an app key or secret and neither e-mail nor password.
    public var isAppForm: Bool { (key != nil || secret != nil) && email == nil && password == nil }

    /// The fields its form still needs: `PIA_URL`, `email`, `password` (or `APP_KEY`, `APP_SECRET`
    /// for the app form), in that order.
    public var missing: [VaultLoginField] {
        let needed: [(VaultLoginField, Bool)] = isAppForm
            ? [(.vault, vault != nil), (.key, key != nil), (.secret, secret != nil)]
            : [(.vault, vault != nil), (.email, email != nil), (.password, password != nil)]
        return needed.filter { !$0.1 }.map(\.0)
    }
}

/// Why a QR code's text is no vault login.
public enum VaultLoginPayloadError: Error, Sendable, Equatable {
    /// Not JSON (or far too long for a QR code).
    case notJSON
    /// JSON, but not an object.
    case notAnObject
    /// An object that lacks what one of the two forms needs; the fields read so far.
    case incomplete(VaultLoginFields)
}
