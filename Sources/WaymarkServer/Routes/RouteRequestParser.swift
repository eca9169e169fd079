import Foundation
import WaymarkAPI
import WaymarkCore

/// Reads the two forms of a create request into a ``NewRoute``, naming the field at fault.
enum RouteRequestParser {
    /// `POST /api/v1/routes`: a JSON ``CreateRouteRequest``.
    static func parseJSON(_ body: [UInt8]) throws -> NewRoute {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw APIError.badRequest(
                "invalid_json", "The body must be a JSON object with the fields envelope, lookup and deleteTokenHash."
            )
        }
        guard let envelopeValue = object["envelope"], !(envelopeValue is NSNull) else {
            throw APIError.badRequest("invalid_envelope", "envelope is missing.")
        }
        guard envelopeValue is [String: Any], let envelopeJSON = try? JSONSerialization.data(withJSONObject: envelopeValue) else {
            throw APIError.badRequest("invalid_envelope", "envelope must be a JSON object.")
        }
        let envelope = try envelope(fromJSON: envelopeJSON, fieldPrefix: "envelope.")
        let lookup = try hex64(object["lookup"], field: "lookup", code: "invalid_lookup")
        let deleteTokenHash = try hex64(object["deleteTokenHash"], field: "deleteTokenHash", code: "invalid_delete_token_hash")
        return NewRoute(envelope: envelope, lookup: lookup, deleteTokenHash: deleteTokenHash)
    }

    /// `POST /route`: the envelope JSON as Base64 text, lookup and delete-token hash in optional headers.
    static func parseBase64(_ body: [UInt8], lookup: String?, deleteTokenHash: String?) throws -> NewRoute {
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, let json = Data(base64Encoded: text) else {
            throw APIError.badRequest("invalid_envelope", "body must be the envelope JSON as standard Base64 text.")
        }
        let envelope = try envelope(fromJSON: json, fieldPrefix: "")
        if let lookup, !lookup.isLowercaseHex64 {
            throw APIError.badRequest("invalid_lookup", "\(APIHeader.routeLookup) must be 64 lowercase hexadecimal digits.")
        }
        if let deleteTokenHash, !deleteTokenHash.isLowercaseHex64 {
            throw APIError.badRequest(
                "invalid_delete_token_hash", "\(APIHeader.deleteTokenHash) must be 64 lowercase hexadecimal digits."
            )
        }
        return NewRoute(envelope: envelope, lookup: lookup, deleteTokenHash: deleteTokenHash)
    }

    /// A lookup key from the query string.
    static func lookup(_ value: String?) throws -> String {
        guard let value else {
            throw APIError.badRequest("invalid_lookup", "lookup is missing: GET /api/v1/routes?lookup=<64 lowercase hex digits>.")
        }
        guard value.isLowercaseHex64 else {
            throw APIError.badRequest("invalid_lookup", "lookup must be 64 lowercase hexadecimal digits.")
        }
        return value
    }

    private static func envelope(fromJSON json: Data, fieldPrefix: String) throws -> RouteEnvelope {
        do {
            return try RouteEnvelope.decode(json: json)
        } catch let RouteEnvelopeError.malformed(field, reason) {
            let name = field == "(top level)" ? (fieldPrefix.isEmpty ? "envelope" : String(fieldPrefix.dropLast())) : fieldPrefix + field
            throw APIError.badRequest("invalid_envelope", "\(name) \(reason).")
        } catch {
            throw APIError.badRequest("invalid_envelope", "envelope is not a route envelope.")
        }
    }

    private static func hex64(_ value: Any?, field: String, code: String) throws -> String {
        guard let value, !(value is NSNull) else {
            throw APIError.badRequest(code, "\(field) is missing.")
        }
        guard let text = value as? String, text.isLowercaseHex64 else {
            throw APIError.badRequest(code, "\(field) must be a string of 64 lowercase hexadecimal digits.")
        }
        return text
    }
}
