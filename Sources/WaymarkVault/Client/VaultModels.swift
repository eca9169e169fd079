import Foundation
import WaymarkCore

/// How Waymark signs in to a vault: the seed's two login forms.
public enum VaultCredentials: Codable, Sendable, Equatable {
    /// The OAuth password grant (form fields `email`, `password`, `grant_type=password`).
    case password(email: String, password: String)
    /// The QR code's `APP_KEY`/`APP_SECRET`: the OAuth client-credentials grant.
    case app(key: String, secret: String)
}

/// An access token of the vault and when it stops working.
public struct VaultToken: Codable, Sendable, Equatable {
    /// The bearer token (a secret: never log it).
    public var accessToken: String
    /// When the vault stops accepting it: the sign-in's time plus `expires_in`.
    public var expires: Date
    /// The user's name as the vault answered the sign-in (the User screen's header).
    public var username: String?

    public init(accessToken: String, expires: Date, username: String? = nil) {
        self.accessToken = accessToken
        self.expires = expires
        self.username = username
    }

    /// Whether the token still works at `now`, with `margin` seconds to spare.
    public func isValid(at now: Date, margin: TimeInterval = 60) -> Bool {
        now.addingTimeInterval(margin) < expires
    }
}

/// One entry of the vault's module list (`GET /api/modules/index`).
public struct VaultModule: Codable, Sendable, Equatable {
    public var id: Int?
    /// The title (one line on the Module list).
    public var name: String
    /// The short description (three lines on the Module list); empty when the vault sent none.
    public var description: String
    /// The module's web site (MODULE_URL).
    public var url: String
    /// APP_KEY of the module's link.
    public var uid: String
    /// APP_SECRET of the module's link.
    public var secret: String
    /// The image, usually a `data:image/png;base64,…` URL.
    public var picture: String?

    public init(id: Int? = nil, name: String, description: String, url: String, uid: String, secret: String, picture: String? = nil) {
        self.id = id
        self.name = name
        self.description = description
        self.url = url
        self.uid = uid
        self.secret = secret
        self.picture = picture
    }

    /// The seed's `[MODULE_URL]?PIA_URL=[PIA_URL]&APP_KEY=[APP_KEY]&APP_SECRET=[APP_SECRET]`, each
    /// value percent-encoded (everything but RFC 3986's unreserved characters). PIA_URL is the
    /// vault's address without a trailing slash. Nil when the module's URL is not an http(s)
    /// address (the vault's answer is outside input: no `javascript:` link is ever built).
    public func link(vault: URL) -> URL? {
        guard let moduleURL = URL(string: url), let scheme = moduleURL.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = moduleURL.host, !host.isEmpty else { return nil }
        var pia = vault.absoluteString
        if pia.hasSuffix("/") { pia.removeLast() }
        let query = "PIA_URL=\(PercentEncoding.unreserved(pia))&APP_KEY=\(PercentEncoding.unreserved(uid))&APP_SECRET=\(PercentEncoding.unreserved(secret))"
        return URL(string: url + (url.contains("?") ? "&" : "?") + query)
    }
}

/// What the vault did with one item of a write.
public enum WriteResult: Sendable, Equatable {
    /// Stored, with the item's id when the vault said it.
    case written(id: Int?)
    /// Not stored; the vault's reason.
    case refused(String)
}
