import Crypto
import Foundation

/// The request signature of DESIGN §3.3, used by the client to sign and by the server to check.
///
/// `X-API-Sig` = lowercase hex HMAC-SHA256(key = UTF-8 of the consumer secret,
/// message = `METHOD\nPATH?QUERY\nTIMESTAMP\nhex(SHA-256(body))`), where PATH?QUERY is the request
/// target exactly as sent and an empty body hashes as the empty string.
public enum RequestSigning {
    /// How far a request's timestamp may be from the server's clock, in seconds.
    public static let maxClockSkew: Int = 300

    /// Lowercase hex SHA-256 of a body (of the empty string when there is none).
    public static func bodyHash<D: DataProtocol>(_ body: D) -> String {
        hex(SHA256.hash(data: body))
    }

    /// The exact text that is signed.
    public static func stringToSign(method: String, target: String, timestamp: Int, bodyHash: String) -> String {
        "\(method.uppercased())\n\(target)\n\(timestamp)\n\(bodyHash)"
    }

    /// The lowercase hex signature of a request.
    public static func signature(secret: String, method: String, target: String, timestamp: Int, bodyHash: String) -> String {
        let message = stringToSign(method: method, target: target, timestamp: timestamp, bodyHash: bodyHash)
        let key = SymmetricKey(data: Data(secret.utf8))
        return hex(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key))
    }

    /// The three signing headers for a request.
    public static func headers<D: DataProtocol>(key: String, secret: String, method: String, target: String, body: D, now: Date = Date()) -> [(String, String)] {
        let timestamp = Int(now.timeIntervalSince1970)
        let sig = signature(secret: secret, method: method, target: target, timestamp: timestamp, bodyHash: bodyHash(body))
        return [(APIHeader.key, key), (APIHeader.timestamp, String(timestamp)), (APIHeader.signature, sig)]
    }

    /// Whether `presented` is the right signature, compared in constant time.
    public static func verify(presented: String, secret: String, method: String, target: String, timestamp: Int, bodyHash: String) -> Bool {
        let expected = signature(secret: secret, method: method, target: target, timestamp: timestamp, bodyHash: bodyHash)
        return constantTimeEqual(Array(presented.utf8), Array(expected.utf8))
    }

    /// Compares two byte strings in time that depends only on their lengths.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }

    static func hex<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
