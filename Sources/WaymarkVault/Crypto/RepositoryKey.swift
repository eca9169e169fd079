import Foundation

/// A repository's public key (X25519), as the vault gives it: exactly 64 hexadecimal characters.
public struct RepositoryKey: Sendable, Equatable {
    /// The 32 key bytes.
    public let bytes: [UInt8]

    /// Reads 64 hexadecimal characters (either case); anything else is ``VaultError/invalidKey(_:)``.
    public init(hex: String) throws(VaultError) {
        guard hex.utf8.count == 64 else { throw .invalidKey("\(hex.utf8.count) characters instead of 64") }
        guard let bytes = Hex.decode(hex) else { throw .invalidKey("not hexadecimal") }
        self.bytes = bytes
    }

    /// Lowercase hex of the key.
    public var hex: String { Hex.encode(bytes) }
}

/// Lowercase hexadecimal, as the vault writes keys, nonces and sealed values.
enum Hex {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of an even-length hex string (either case), or nil.
    static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
