import Crypto
import Foundation

/// The keys and identifiers derived for a route besides its encryption (DESIGN §3.2).
public enum RouteKeys {
    /// The server's lookup key for a QR nonce: lowercase hex of SHA-256(`waymark-route-lookup-v1:` + nonce).
    ///
    /// Anyone holding the QR photo can find the ciphertext; only the passphrase opens it.
    public static func lookupKey(nonce: String) -> String {
        SHA256.hash(data: Data("waymark-route-lookup-v1:\(nonce)".utf8)).hexString
    }

    /// The delete token, lowercase hex of HKDF-SHA256(master, empty salt, `waymark-route-delete-v1`, 32 bytes).
    ///
    /// Sent to the server to delete the route; the server keeps only ``deleteTokenHash(token:)``.
    public static func deleteToken(master: SymmetricKey) -> String {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("waymark-route-delete-v1".utf8), outputByteCount: 32)
            .withUnsafeBytes { Data($0) }.hexString
    }

    /// What the server stores for a delete token: lowercase hex of SHA-256 of the token's 32 bytes.
    ///
    /// - Parameter token: The token as ``deleteToken(master:)`` writes it (64 hex digits, either case).
    /// - Throws: ``RouteEnvelopeError/malformedDeleteToken`` for anything else.
    public static func deleteTokenHash(token: String) throws -> String {
        guard let bytes = Data(hex: token), bytes.count == 32 else { throw RouteEnvelopeError.malformedDeleteToken }
        return SHA256.hash(data: bytes).hexString
    }

    /// `encKey`: HKDF-SHA256(master, empty salt, `waymark-route-enc-v1`, 32 bytes).
    static func encryptionKey(master: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("waymark-route-enc-v1".utf8), outputByteCount: 32)
    }

    /// The AES-GCM associated data that binds a route to its QR nonce.
    static func associatedData(nonce: String) -> Data {
        associatedData(.route, nonce: nonce)
    }

    /// The associated data for `content` sealed with `nonce`: its prefix, then the nonce.
    static func associatedData(_ content: EnvelopeContent, nonce: String) -> Data {
        Data("\(content.rawValue):\(nonce)".utf8)
    }
}

/// What an envelope holds: its associated data begins with this, so that one kind never opens
/// as another (an OwnTracks key is sealed exactly as a route, DESIGN §3.2 and §3.13).
public enum EnvelopeContent: String, Sendable {
    /// A route's plaintext (§3.2).
    case route = "waymark-route-v1"
    /// An OwnTracks device's encryption key, the UTF-8 of its text (§3.13).
    case owntracksKey = "waymark-owntracks-key-v1"
}

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal digits.
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}

extension Data {
    /// Bytes from hexadecimal digits (either case), or `nil` for anything else.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(bytes)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
