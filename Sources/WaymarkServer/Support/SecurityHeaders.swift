import Vapor

/// Adds the security headers of DESIGN §3.8 to every answer, the API's and the web app's:
/// a strict Content-Security-Policy (no inline script or style, nothing from other origins
/// but what is listed), `nosniff`, and `Referrer-Policy: same-origin`.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    /// The policy, made once: it is the same for every answer.
    let contentSecurityPolicy: String
    /// Whether answers over HTTPS carry HSTS (a year), for names that are not IP addresses.
    let strictTransportSecurity: Bool

    /// - Parameters:
    ///   - imageOrigins: Extra origins images may come from (the map tiles' host).
    ///   - vaultOrigins: The personal data vaults' origins (`--vault-url`): the `/vault` page
    ///     calls their API (`connect-src`) and shows their pages in a frame (`frame-src`, beside
    ///     any https page: a vault's modules live on origins of their own).
    init(imageOrigins: [String] = [], vaultOrigins: [String] = [], strictTransportSecurity: Bool = false) {
        contentSecurityPolicy = Self.policy(imageOrigins: imageOrigins, vaultOrigins: vaultOrigins)
        self.strictTransportSecurity = strictTransportSecurity
    }

    static func policy(imageOrigins: [String], vaultOrigins: [String] = []) -> String {
        let images = (["'self'", "data:", "blob:"] + imageOrigins).joined(separator: " ")
        let connect = (["'self'"] + vaultOrigins).joined(separator: " ")
        let frames = (["'self'", "https:"] + vaultOrigins).joined(separator: " ")
        return [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src \(images)", "connect-src \(connect)",
            "frame-src \(frames)", "worker-src 'self'", "manifest-src 'self'", "object-src 'none'", "base-uri 'none'",
            "frame-ancestors 'none'", "form-action 'self'",
        ].joined(separator: "; ")
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        // A self-contained page with a policy of its own (/pair: inline style, nothing else) keeps it.
        if !response.headers.contains(name: "Content-Security-Policy") {
            response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
        }
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        // A browser keeps to HTTPS for a year; never for an IP address, which HSTS does not apply to.
        if strictTransportSecurity, let host = request.headers.first(name: .host), !HostCheckMiddleware.isIPAddress(HostCheckMiddleware.name(of: host)) {
            response.headers.replaceOrAdd(name: "Strict-Transport-Security", value: "max-age=31536000")
        }
        return response
    }
}
