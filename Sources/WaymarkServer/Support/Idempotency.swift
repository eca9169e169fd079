import Vapor
import WaymarkAPI

/// The `Idempotency-Key` of a write (DESIGN §3.3): every area that creates something reads it
/// here, so a key is the same thing everywhere, 1 to 255 visible ASCII characters. What the key
/// finds again is each area's own (the route store's records, a photo's, task's, scene's or
/// path's key column), always "the same owner, the same key: the same answer, once".
enum IdempotencyKey {
    static let maxLength = 255

    /// The request's key, `nil` when it sent none, or 400 `invalid_idempotency_key`.
    static func of(_ request: Request) throws -> String? {
        guard let key = request.headers.first(name: APIHeader.idempotencyKey) else { return nil }
        guard !key.isEmpty, key.count <= maxLength, key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw APIError.badRequest(.invalidIdempotencyKey, "\(APIHeader.idempotencyKey) must be 1 to \(maxLength) visible ASCII characters.")
        }
        return key
    }
}
