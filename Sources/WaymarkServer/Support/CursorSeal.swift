import Crypto
import Foundation

/// The opaque `cursor` of a paged list (nearby photos, nearby scenes, one's own scenes): where a
/// page ended, sealed by the server so that only a cursor it gave for the same list is read back.
///
/// The text is `base64url(JSON of the position) "." base64url(tag)`, the tag the first 16 bytes
/// of HMAC-SHA256 under the server's cursor key over the list's binding (its kind and every
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
    static let tagBytes = 16

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
              presented.count == Self.tagBytes
        else { return nil }
        // HMAC's own comparison is constant-time; the tag is a truncated HMAC, so compare it so too.
        let expected = tag(json, binding: binding)
        guard Self.constantTimeEqual(expected, presented) else { return nil }
        return try? JSONDecoder().decode(type, from: json)
    }

    private func tag(_ json: Data, binding: String) -> Data {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Data(binding.utf8))
        hmac.update(data: [0])
        hmac.update(data: json)
        return Data(Data(hmac.finalize()).prefix(Self.tagBytes))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

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
