import Foundation
import Vapor

extension Response {
    /// `value` as a JSON body with the given status.
    static func json<T: Encodable>(_ value: T, status: HTTPResponseStatus = .ok) throws -> Response {
        var headers = HTTPHeaders()
        headers.contentType = .json
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Response(status: status, headers: headers, body: .init(data: try encoder.encode(value)))
    }
}

extension Request {
    /// The body decoded as the same WaymarkAPI type the client encodes; bad JSON and missing
    /// or mistyped fields get a 400 that names the field without echoing the input.
    func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        guard let buffer = body.data, buffer.readableBytes > 0 else {
            throw APIError.badRequest(.invalidJson, "The body must be a JSON object.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw APIError.badRequest(.invalidJson, "The body is not valid JSON.")
            }
            throw APIError.badRequest(.invalidRequest, "The request could not be read: \(error.fieldDescription).")
        }
    }
}
