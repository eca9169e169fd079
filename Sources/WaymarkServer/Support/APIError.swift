import Vapor
import WaymarkAPI

/// An error answered as `{"error": code, "reason": reason}` with a status.
struct APIError: AbortError, Sendable {
    var status: HTTPResponseStatus
    var code: APIErrorCode
    var reason: String
    /// Headers of the answer, e.g. `Retry-After`.
    var headers: HTTPHeaders = [:]

    init(_ status: HTTPResponseStatus, _ code: APIErrorCode, _ reason: String) {
        self.status = status
        self.code = code
        self.reason = reason
    }

    var body: APIErrorBody { APIErrorBody(error: code.rawValue, reason: reason) }

    static func badRequest(_ code: APIErrorCode, _ reason: String) -> APIError { APIError(.badRequest, code, reason) }
    static func unauthorized(_ code: APIErrorCode, _ reason: String) -> APIError { APIError(.unauthorized, code, reason) }

    /// A `cursor` that this server did not give for this list (changed, made up, or another list's).
    static let invalidCursor = APIError(.badRequest, .invalidCursor, "cursor is not one this server gave for this list; start again without it.")

    static let payloadTooLarge = APIError(
        .payloadTooLarge, .payloadTooLarge,
        "The request body is larger than \(ServerConfiguration.maxBodySize / (1024 * 1024)) MiB."
    )
}
