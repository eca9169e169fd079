import Vapor

/// Answers 413 at once to a request that declares a body over the limit, before any
/// authenticator or route reads a byte of it (a body that only turns out too large while
/// being read is refused where it is collected).
struct BodySizeLimitMiddleware: AsyncMiddleware {
    var maxBodySize = ServerConfiguration.maxBodySize

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if let length = request.headers.first(name: .contentLength).flatMap(Int.init), length > maxBodySize {
            throw APIError.payloadTooLarge
        }
        return try await next.respond(to: request)
    }
}
