import Vapor
import WaymarkAPI

/// An account signed in by a session token, from the cookie or the `Authorization` header.
struct SignedInUser: Authenticatable {
    var account: Account
    var session: Session
    /// How the token came: only a cookie needs the cross-site check.
    var via: Via

    enum Via: Sendable {
        case cookie
        case authorizationHeader
    }
}

/// The session cookie's name (DESIGN §3.5).
let sessionCookieName = "waymark_session"

/// `Authorization: Bearer wmt_…`, or the Rails form `Authorization: Token token="wmt_…"` that
/// seed 001's app sends.
struct BearerTokenAuthenticator: AsyncRequestAuthenticator {
    let service: AccountService

    func authenticate(request: Request) async throws {
        guard let header = request.headers.first(name: .authorization), let token = Self.token(in: header),
              let found = try await service.authenticate(token: token)
        else { return }
        request.auth.login(SignedInUser(account: found.account, session: found.session, via: .authorizationHeader))
    }

    /// The token of either form, or `nil`.
    static func token(in header: String) -> String? {
        let value = header.trimmingCharacters(in: .whitespaces)
        if value.lowercased().hasPrefix("bearer ") {
            return String(value.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        if value.lowercased().hasPrefix("token ") {
            let parameters = value.dropFirst("token ".count).trimmingCharacters(in: .whitespaces)
            guard parameters.hasPrefix("token=") else { return nil }
            var token = String(parameters.dropFirst("token=".count))
            if let comma = token.firstIndex(of: ",") { token = String(token[..<comma]) }
            return token.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
        return nil
    }
}

/// The `waymark_session` cookie of the web pages. A request that carries an `Authorization`
/// header is never signed in by the cookie, whether or not the header's token is good (#34: an
/// invalid bearer token fell back to the cookie), and neither is a write that the cross-site
/// check let through for its header alone.
struct SessionCookieAuthenticator: AsyncRequestAuthenticator {
    let service: AccountService

    func authenticate(request: Request) async throws {
        guard !request.auth.has(SignedInUser.self), !request.headers.contains(name: .authorization),
              !CrossSiteRequestGuard.cameFromAnotherSite(request),
              let token = request.cookies[sessionCookieName]?.string,
              let found = try await service.authenticate(token: token)
        else { return }
        request.auth.login(SignedInUser(account: found.account, session: found.session, via: .cookie))
    }
}

extension SignedInUser {
    /// The guard of every route that needs a signed-in account.
    static var required: any Middleware {
        SignedInUser.guardMiddleware(throwing: APIError.unauthorized(
        .notSignedIn, "Sign in first: POST /api/v1/sessions, then send the cookie or Authorization: Bearer <token>."
        ))
    }
}

/// Refuses a write that a page of another site made the browser send (DESIGN §3.5): a `POST`,
/// `PUT`, `PATCH` or `DELETE` whose `Origin` is not this server's, or whose `Sec-Fetch-Site`
/// is `cross-site`, answers 403 — unless a header that a page of another site cannot set without
/// the server's consent actually authenticates it: a bearer token that is a live session's
/// (checked here), or a request signature on the route API, whose every route refuses a
/// request whose signature is not right (401) before its handler runs. A bearer token that is
/// no session's, or a signature header on any other route, is refused as any cross-site write is
/// (#34: the mere presence of either header skipped the check).
///
/// It applies to every write, not only to those that carry the cookie: a cross-site form that
/// signs someone in to an account of the attacker's is refused too.
struct CrossSiteRequestGuard: AsyncMiddleware {
    let service: AccountService

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard Self.cameFromAnotherSite(request) else { return try await next.respond(to: request) }
        if let header = request.headers.first(name: .authorization) {
            if let token = BearerTokenAuthenticator.token(in: header), let found = try await service.authenticate(token: token) {
                request.auth.login(SignedInUser(account: found.account, session: found.session, via: .authorizationHeader))
                return try await next.respond(to: request)
            }
        } else if request.headers.contains(name: APIHeader.signature), Self.isSignedRoute(request.url.path) {
            return try await next.respond(to: request)
        }
        throw APIError(.forbidden, .crossSiteRequest, "This request came from a page of another site; it is refused.")
    }

    /// Whether `request` is a write sent from a page of another site: its `Sec-Fetch-Site` is
    /// `cross-site`, or its `Origin` is not this server's.
    static func cameFromAnotherSite(_ request: Request) -> Bool {
        guard [.POST, .PUT, .PATCH, .DELETE].contains(request.method) else { return false }
        let headers = request.headers
        if headers.first(name: "Sec-Fetch-Site")?.lowercased() == "cross-site" { return true }
        guard let origin = headers.first(name: .origin) else { return false }
        return !isSameOrigin(origin, host: headers.first(name: .host))
    }

    /// The routes of the route API (DESIGN §3.3), every one behind ``SignatureAuthenticator``.
    static func isSignedRoute(_ path: String) -> Bool {
        path == "/route" || path == "/api/v1/routes" || path.hasPrefix("/api/v1/routes/")
    }

    /// Whether an `Origin` names the host (and port) the request was sent to.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let url = URLComponents(string: origin), let scheme = url.scheme?.lowercased(),
              let originHost = url.host?.lowercased(), url.path.isEmpty
        else { return false }
        let defaultPort = scheme == "https" ? 443 : 80
        let originAuthority = url.port.map { $0 == defaultPort ? originHost : "\(originHost):\($0)" } ?? originHost
        var requestAuthority = host.lowercased()
        if requestAuthority.hasSuffix(":\(defaultPort)") { requestAuthority.removeLast(":\(defaultPort)".count) }
        return originAuthority == requestAuthority
    }
}
