import Crypto
import Foundation

/// The opaque `cursor` of a paged list (nearby photos, nearby scenes, one's own scenes): where a
/// page ended, sealed by the server so that only a cursor it gave for the same list is read back.
///
/// The text is `base64url(JSON of the position) "." base64url(tag)`, the tag HMAC-SHA256 under
/// the server's cursor key over the list's binding (its kind and every
/// parameter that decides its order: `nearby-photos|46.05|14.5|1609.344|distance|…`), a zero
/// byte and the JSON. A cursor that was changed, made up, or given for another list (another
/// place, radius, order or time filter) does not open: the caller answers 400 `invalid_cursor`.
/// A forged position (a negative distance that made the nearest-first search grow a circle from
/// below zero forever, #34) so never reaches a store. Self-contained (Foundation and
/// swift-crypto only), so that the libFuzzer harness compiles this very file.
struct CursorSeal: Sendable {
    private let key: SymmetricKey

    /// The longest cursor text read; a longer one is not one this server gave.
    static let maxLength = 512

    init(key: SymmetricKey) {
        self.key = key
    }

    /// A seal whose key is derived (HKDF-SHA256, info `waymark-cursor-v1`) from `secret`, the
    /// server's long-lived signing key: cursors then survive a restart, and every instance that
    /// shares the secret reads the others' cursors.
    init(deriving secret: some ContiguousBytes) {
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: secret), info: Data("waymark-cursor-v1".utf8), outputByteCount: 32)
    }

    /// The cursor text of `position` in the list `binding`.
    func text<Position: Encodable>(_ position: Position, binding: String) -> String {
        let json = (try? Self.encoder.encode(position)) ?? Data()
        return Self.base64URL(json) + "." + Self.base64URL(tag(json, binding: binding))
    }

    /// The position sealed in `text` for the list `binding`, or `nil` when `text` is not a
    /// cursor this server gave for that list (malformed, too long, changed, or of another list).
    func open<Position: Decodable>(_ type: Position.Type, from text: String, binding: String) -> Position? {
        guard text.utf8.count <= Self.maxLength else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let json = Self.data(base64URL: parts[0]), let presented = Self.data(base64URL: parts[1]),
              // swift-crypto's check compares in constant time.
              HMAC<SHA256>.isValidAuthenticationCode(presented, authenticating: Self.signed(json, binding: binding), using: key)
        else { return nil }
        return try? JSONDecoder().decode(type, from: json)
    }

    private func tag(_ json: Data, binding: String) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Self.signed(json, binding: binding), using: key))
    }

    /// What the tag covers: the binding, a zero byte, the JSON.
    private static func signed(_ json: Data, binding: String) -> Data {
        Data(binding.utf8) + [0] + json
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of unpadded base64url text, or nil unless `text` is exactly what ``base64URL(_:)``
    /// writes for them: Foundation ignores the unused low bits of a last character, so without
    /// that check a changed last character could still open the same cursor.
    static func data(base64URL text: Substring) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), base64URL(data) == text else { return nil }
        return data
    }
}
