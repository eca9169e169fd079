import Foundation

/// What an account may do beyond its own things (DESIGN §3.5): an `officer` also manages
/// inspection tasks; nothing else distinguishes roles.
public enum AccountRole: String, Codable, Sendable, CaseIterable {
    case user
    case officer
    case admin
}

/// The rules an account's fields must follow, shared by the server, the CLI and the tests.
public enum AccountRules {
    /// 3–32 characters.
    public static let usernameLengths = 3...32
    /// At least 10 characters (Unicode scalars, as JSON Schema's `minLength` counts them)…
    public static let minimumPasswordLength = 10
    /// …and at most 1,024 bytes of UTF-8.
    public static let maximumPasswordBytes = 1_024
    /// A display name or device name: 1–100 characters (Unicode scalars).
    public static let nameLengths = 1...100

    /// A username as stored: lowercased (usernames are unique ignoring case).
    public static func normalizedUsername(_ text: String) -> String {
        text.lowercased()
    }

    /// Whether `username` (already normalized) is 3–32 of `a-z0-9_.-`.
    public static func isValidUsername(_ username: String) -> Bool {
        usernameLengths.contains(username.count)
            && username.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0) }
    }

    /// Why `password` is not acceptable, or `nil` when it is.
    public static func passwordProblem(_ password: String) -> PasswordProblem? {
        if password.unicodeScalars.count < minimumPasswordLength { return .tooShort }
        if password.utf8.count > maximumPasswordBytes { return .tooLong }
        return nil
    }

    /// What is wrong with a password.
    public enum PasswordProblem: Sendable, Equatable {
        case tooShort
        case tooLong
    }

    /// Whether `email` looks like an address: text, one `@`, text, no spaces, at most 254 characters.
    /// (Whether it receives mail only a mail can tell.)
    public static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return email.unicodeScalars.count <= 254 && parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && !email.contains(where: { $0.isWhitespace }) && !hasControlCharacters(email)
    }

    /// Whether a trimmed display or device name has an allowed length and no control characters.
    public static func isValidName(_ name: String) -> Bool {
        nameLengths.contains(name.unicodeScalars.count) && !hasControlCharacters(name)
    }

    /// Whether text holds a control character (NUL, a line break, an escape…): never part of a
    /// name, a title or an address, and NUL cannot even be stored in PostgreSQL's text.
    public static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

/// An account as the API shows it.
public struct UserDTO: Codable, Sendable, Equatable {
    public var id: UUID
    public var username: String
    public var displayName: String
    public var email: String?
    public var role: AccountRole
    @UTCTime public var createdAt: Date

    public init(id: UUID, username: String, displayName: String, email: String?, role: AccountRole, createdAt: Date) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.email = email
        self.role = role
        self.createdAt = createdAt
    }

    // `id` in lowercase, as JSON usually writes a UUID; `email` always present, null when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(username, forKey: .username)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(email, forKey: .email)
        try container.encode(role, forKey: .role)
        try container.encode(_createdAt, forKey: .createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case id, username, displayName, email, role, createdAt
    }
}

/// `GET /api/v1/session`: the signed-in account, or nil for an anonymous visitor (`"user": null`).
public struct CurrentSessionDTO: Codable, Sendable, Equatable {
    public var user: UserDTO?

    public init(user: UserDTO?) {
        self.user = user
    }

    // `user` is written out as null, never left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
    }

    enum CodingKeys: String, CodingKey { case user }
}

/// `POST /api/v1/accounts`: registration.
public struct NewAccountRequest: Codable, Sendable, Equatable {
    public var username: String
    public var password: String
    public var displayName: String?
    public var email: String?

    public init(username: String, password: String, displayName: String? = nil, email: String? = nil) {
        self.username = username
        self.password = password
        self.displayName = displayName
        self.email = email
    }
}

/// `POST /api/v1/sessions`: sign-in.
public struct SignInRequest: Codable, Sendable, Equatable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// The answer to registration and sign-in: the account and its new session token (`wmt_…`),
/// which apps send as `Authorization: Bearer`; the web pages use the cookie set with it.
public struct SessionDTO: Codable, Sendable, Equatable {
    public var user: UserDTO
    public var token: String

    public init(user: UserDTO, token: String) {
        self.user = user
        self.token = token
    }
}

/// `POST /api/v1/keys`: a device of the signed-in account that will sign route requests.
public struct NewDeviceKeyRequest: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

/// A device key as listed (never with its secret).
public struct DeviceKeyDTO: Codable, Sendable, Equatable {
    /// The consumer key (`wmk_…`), sent as `X-API-Key`.
    public var key: String
    public var name: String
    @UTCTime public var createdAt: Date

    public init(key: String, name: String, createdAt: Date) {
        self.key = key
        self.name = name
        self.createdAt = createdAt
    }
}

/// A device key just made: the only time its secret is shown.
public struct NewDeviceKeyDTO: Codable, Sendable, Equatable {
    public var key: String
    public var secret: String
    public var name: String
    @UTCTime public var createdAt: Date

    public init(key: String, secret: String, name: String, createdAt: Date) {
        self.key = key
        self.secret = secret
        self.name = name
        self.createdAt = createdAt
    }
}

/// Every list the platform's API answers (DESIGN §3.3): `{"items": […], "next": "<cursor>" | null}`.
public struct Page<Item: Codable & Sendable>: Codable, Sendable {
    public var items: [Item]
    /// The cursor of the next page, `nil` on the last.
    public var next: String?

    public init(items: [Item], next: String?) {
        self.items = items
        self.next = next
    }

    // `next` is always present, null on the last page.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(next, forKey: .next)
    }

    enum CodingKeys: String, CodingKey {
        case items, next
    }
}

extension Page: Equatable where Item: Equatable {}
