import Vapor

/// Adds the security headers of DESIGN §3.8 to every answer, the API's and the web app's:
/// a strict Content-Security-Policy (no inline script or style, nothing from other origins
/// but what is listed), `nosniff`, and `Referrer-Policy: same-origin`.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    /// The policy, made once: it is the same for every answer.
    let contentSecurityPolicy: String

    /// - Parameter imageOrigins: Extra origins images may come from (the map tiles' host).
    init(imageOrigins: [String] = []) {
        contentSecurityPolicy = Self.policy(imageOrigins: imageOrigins)
    }

    static func policy(imageOrigins: [String]) -> String {
        let images = (["'self'", "data:", "blob:"] + imageOrigins).joined(separator: " ")
        return [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src \(images)", "connect-src 'self'",
            "worker-src 'self'", "manifest-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
            "form-action 'self'",
        ].joined(separator: "; ")
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "same-origin")
        return response
    }
}
