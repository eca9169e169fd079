import NIOHTTP1
import Vapor
import WaymarkAPI

/// Turns every error into a JSON `{"error", "reason"}` answer with a fitting status
/// (replaces Vapor's `ErrorMiddleware`, whose body has another shape).
///
/// Bad input is always a 4xx; only a failure of the server itself is a 5xx, and its details
/// go to the log, never to the client.
struct JSONErrorMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch {
            return Self.response(for: error, request: request)
        }
    }

    static func response(for error: any Error, request: Request) -> Response {
        let status: HTTPResponseStatus
        let body: APIErrorBody
        var headers = HTTPHeaders()
        switch error {
        case let error as APIError:
            status = error.status
            body = error.body
            headers = error.headers
        case is RouteNotFound:
            if let allowed = ServedMethods.allowed(at: request.url.path, in: request.application.routes) {
                status = .methodNotAllowed
                headers.replaceOrAdd(name: .allow, value: allowed.joined(separator: ", "))
                body = APIErrorBody(
                    error: .methodNotAllowed,
                    reason: "\(request.url.path) answers \(allowed.joined(separator: " and ")), not \(request.method.rawValue)."
                )
            } else {
                status = .notFound
                body = APIErrorBody(
                    error: .notFound,
                    reason: "Nothing answers \(request.method.rawValue) \(request.url.path); GET /openapi.yaml lists what does."
                )
            }
        case let error as any AbortError:
            status = error.status
            headers = error.headers
            body = status.code >= 500
                ? APIErrorBody(error: .internalError, reason: "The server failed to answer this request.")
                : APIErrorBody(error: code(for: status), reason: error.reason)
        case is ConnectionPoolTimeoutError:
            // Every database connection stayed busy for the pool's whole wait: the server is
            // overloaded, not broken, and the same request will succeed later.
            status = .serviceUnavailable
            headers.replaceOrAdd(name: .retryAfter, value: "5")
            body = APIErrorBody(error: .busy, reason: "The server is busy; try again in a few seconds.")
        case is HTTPParserError:
            // The body broke off or was malformed mid-way (a client that left while sending):
            // the client's doing, not the server's, so no error in the operator's log.
            status = .badRequest
            body = APIErrorBody(error: .invalidRequest, reason: "The request's body was cut off or malformed; send it again.")
        case let error as DecodingError:
            status = .badRequest
            body = APIErrorBody(error: .invalidRequest, reason: "The request could not be read: \(error.fieldDescription).")
        default:
            status = .internalServerError
            body = APIErrorBody(error: .internalError, reason: "The server failed to answer this request.")
        }
        if status.code >= 500 {
            request.logger.error("request failed", metadata: ["error": "\(String(reflecting: type(of: error)))", "status": "\(status.code)"])
            request.logger.debug("request failure detail", metadata: ["detail": "\(error)"])
        } else {
            request.logger.info("request refused", metadata: ["error": "\(body.error)", "status": "\(status.code)"])
        }
        headers.replaceOrAdd(name: .contentType, value: "application/json; charset=utf-8")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(body)) ?? Data(#"{"error":"internal_error","reason":""}"#.utf8)
        return Response(status: status, headers: headers, body: .init(data: data))
    }

    static func code(for status: HTTPResponseStatus) -> APIErrorCode {
        switch status {
        case .notFound: return .notFound
        case .methodNotAllowed: return .methodNotAllowed
        case .payloadTooLarge: return .payloadTooLarge
        case .unauthorized: return .unauthorized
        case .forbidden: return .forbidden
        case .conflict: return .conflict
        case .unsupportedMediaType: return .unsupportedMediaType
        case .requestHeaderFieldsTooLarge: return .headersTooLarge
        case .uriTooLong: return .uriTooLong
        default: return .badRequest
        }
    }
}

extension DecodingError {
    /// "field a.b: is missing" — names the field without echoing the input.
    var fieldDescription: String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "the body" : "field \(text)"
        }
        switch self {
        case let .keyNotFound(key, context): return "\(path(context.codingPath + [key])) is missing"
        case let .typeMismatch(type, context): return "\(path(context.codingPath)) has the wrong type (expected \(type))"
        case let .valueNotFound(type, context): return "\(path(context.codingPath)) is null (expected \(type))"
        case let .dataCorrupted(context): return "\(path(context.codingPath)) is not valid"
        @unknown default: return "the body is not valid"
        }
    }
}
