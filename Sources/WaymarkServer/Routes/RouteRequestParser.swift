import Foundation
import WaymarkAPI
import WaymarkCore

/// Reads the two forms of a create request into a ``NewRoute``, naming the field at fault.
enum RouteRequestParser {
    /// `POST /api/v1/routes`: a JSON ``CreateRouteRequest``, decoded with the type the client
    /// encodes; the answer names the first field at fault.
    static func parseJSON(_ body: [UInt8]) throws -> NewRoute {
        let request: CreateRouteRequest
        do {
            request = try JSONDecoder().decode(CreateRouteRequest.self, from: Data(body))
        } catch let error as DecodingError {
            throw refusal(RouteEnvelopeError(error))
        }
        guard request.lookup.isLowercaseHex64 else {
            throw APIError.badRequest(.invalidLookup, "lookup must be a string of 64 lowercase hexadecimal digits.")
        }
        guard request.deleteTokenHash.isLowercaseHex64 else {
            throw APIError.badRequest(.invalidDeleteTokenHash, "deleteTokenHash must be a string of 64 lowercase hexadecimal digits.")
        }
        return NewRoute(envelope: request.envelope, lookup: request.lookup, deleteTokenHash: request.deleteTokenHash)
    }

    /// The API's answer to a body that does not decode, by the field it is about.
    private static func refusal(_ error: RouteEnvelopeError) -> APIError {
        guard case let .malformed(field, reason) = error else {
            return APIError.badRequest(.invalidJson, "The body must be a JSON object with the fields envelope, lookup and deleteTokenHash.")
        }
        let top = field.split(separator: ".").first.map(String.init) ?? field
        switch top {
        case "envelope":
            return APIError.badRequest(.invalidEnvelope, "\(field) \(reason).")
        case "lookup":
            return APIError.badRequest(.invalidLookup, reason == "is missing" ? "lookup is missing." : "lookup must be a string of 64 lowercase hexadecimal digits.")
        case "deleteTokenHash":
            return APIError.badRequest(
                .invalidDeleteTokenHash,
                reason == "is missing" ? "deleteTokenHash is missing." : "deleteTokenHash must be a string of 64 lowercase hexadecimal digits."
            )
        default:
            return APIError.badRequest(.invalidJson, "The body must be a JSON object with the fields envelope, lookup and deleteTokenHash.")
        }
    }

    /// `POST /route`: the envelope JSON as Base64 text, lookup and delete-token hash in optional headers.
    static func parseBase64(_ body: [UInt8], lookup: String?, deleteTokenHash: String?) throws -> NewRoute {
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, let json = Data(base64Encoded: text) else {
            throw APIError.badRequest(.invalidEnvelope, "body must be the envelope JSON as standard Base64 text.")
        }
        let envelope = try envelope(fromJSON: json, fieldPrefix: "")
        if let lookup, !lookup.isLowercaseHex64 {
            throw APIError.badRequest(.invalidLookup, "\(APIHeader.routeLookup) must be 64 lowercase hexadecimal digits.")
        }
        if let deleteTokenHash, !deleteTokenHash.isLowercaseHex64 {
            throw APIError.badRequest(
                .invalidDeleteTokenHash, "\(APIHeader.deleteTokenHash) must be 64 lowercase hexadecimal digits."
            )
        }
        return NewRoute(envelope: envelope, lookup: lookup, deleteTokenHash: deleteTokenHash)
    }

    /// A lookup key from the query string.
    static func lookup(_ value: String?) throws -> String {
        guard let value else {
            throw APIError.badRequest(.invalidLookup, "lookup is missing: GET /api/v1/routes?lookup=<64 lowercase hex digits>.")
        }
        guard value.isLowercaseHex64 else {
            throw APIError.badRequest(.invalidLookup, "lookup must be 64 lowercase hexadecimal digits.")
        }
        return value
    }

    private static func envelope(fromJSON json: Data, fieldPrefix: String) throws -> RouteEnvelope {
        do {
            return try RouteEnvelope.decode(json: json)
        } catch let RouteEnvelopeError.malformed(field, reason) {
            let name = field == "(top level)" ? (fieldPrefix.isEmpty ? "envelope" : String(fieldPrefix.dropLast())) : fieldPrefix + field
            throw APIError.badRequest(.invalidEnvelope, "\(name) \(reason).")
        } catch {
            throw APIError.badRequest(.invalidEnvelope, "envelope is not a route envelope.")
        }
    }

}
