import Crypto
import Foundation

/// The request signature, version 2, of DESIGN §3.3: used by the client to sign and by the
/// server to check.
///
/// `X-API-Sig` = lowercase hex HMAC-SHA256(key = UTF-8 of the consumer secret, message =
/// `waymark-sig-v2\nMETHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nhex(SHA-256(body))\n` followed by
/// `name:value\n` for each header named in `X-API-Signed-Headers`, in that order, the value
/// with spaces and tabs trimmed at both ends). PATH?QUERY is the request target exactly as
/// sent and an empty body hashes as the empty string.
///
/// Version 1 had no nonce (two identical requests in one second collided as a replay) and
/// left `Idempotency-Key` and the delete token unsigned; servers refuse it.
public enum RequestSigning {
    /// The first line of every string to sign.
    public static let versionTag = "waymark-sig-v2"

    /// How far a request's timestamp may be from the server's clock, in seconds.
    public static let maxClockSkew: Int = 300

    /// The headers that carry meaning: whenever a request carries one, it must sign it.
    public static let headersThatMustBeSigned: [String] = [
        "content-type", "idempotency-key", "x-delete-token", "x-delete-token-hash", "x-route-lookup",
    ]

    /// The shortest and longest `X-API-Nonce`.
    public static let nonceLengths: ClosedRange<Int> = 16...64

    /// Lowercase hex SHA-256 of a body (of the empty string when there is none).
    public static func bodyHash<D: DataProtocol>(_ body: D) -> String {
        hex(SHA256.hash(data: body))
    }

    /// A fresh nonce: 128 random bits as 22 characters of unpadded base64url.
    public static func randomNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `nonce` is 16 to 64 characters of `A-Z a-z 0-9 _ -`.
    public static func isValidNonce(_ nonce: String) -> Bool {
        nonceLengths.contains(nonce.utf8.count) && nonce.utf8.allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F || byte == 0x2D
        }
    }

    /// A header value as it is signed: spaces and tabs trimmed at both ends.
    public static func trimmed(_ value: String) -> String {
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        let scalars = value.unicodeScalars
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// The exact text that is signed.
    /// - Parameter signedHeaders: (lowercase name, value) in signing order; values are trimmed here.
    public static func stringToSign(method: String, target: String, timestamp: Int, nonce: String, bodyHash: String,
                                    signedHeaders: [(name: String, value: String)]) -> String {
        var text = "\(versionTag)\n\(method.uppercased())\n\(target)\n\(timestamp)\n\(nonce)\n\(bodyHash)\n"
        for header in signedHeaders {
            text += "\(header.name):\(trimmed(header.value))\n"
        }
        return text
    }

    /// The lowercase hex signature of a request.
    public static func signature(secret: String, method: String, target: String, timestamp: Int, nonce: String, bodyHash: String,
                                 signedHeaders: [(name: String, value: String)]) -> String {
        let message = stringToSign(method: method, target: target, timestamp: timestamp, nonce: nonce, bodyHash: bodyHash,
                                   signedHeaders: signedHeaders)
        let key = SymmetricKey(data: Data(secret.utf8))
        return hex(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key))
    }

    /// The five signing headers for a request: `X-API-Key`, `X-API-Timestamp`, `X-API-Nonce`,
    /// `X-API-Signed-Headers` and `X-API-Sig`.
    ///
    /// Every one of `headers` (the request's other headers, e.g. `Content-Type` and
    /// `Idempotency-Key`) is signed, in the order given; send them with exactly these values.
    /// - Parameters:
    ///   - now: the signing time (the caller's clock).
    ///   - nonce: fresh for every request, retries included (``randomNonce()``).
    public static func headers<D: DataProtocol>(key: String, secret: String, method: String, target: String, body: D,
                                                headers: [(String, String)] = [], now: Date, nonce: String) -> [(String, String)] {
        let timestamp = Int(now.timeIntervalSince1970.rounded(.down))
        let signed = headers.map { (name: $0.0.lowercased(), value: $0.1) }
        let sig = signature(secret: secret, method: method, target: target, timestamp: timestamp, nonce: nonce,
                            bodyHash: bodyHash(body), signedHeaders: signed)
        return [
            (APIHeader.key, key), (APIHeader.timestamp, String(timestamp)), (APIHeader.nonce, nonce),
            (APIHeader.signedHeaders, signed.map(\.name).joined(separator: ";")), (APIHeader.signature, sig),
        ]
    }

    /// Whether `presented` is the right signature, compared in constant time.
    public static func verify(presented: String, secret: String, method: String, target: String, timestamp: Int, nonce: String,
                              bodyHash: String, signedHeaders: [(name: String, value: String)]) -> Bool {
        let expected = signature(secret: secret, method: method, target: target, timestamp: timestamp, nonce: nonce,
                                 bodyHash: bodyHash, signedHeaders: signedHeaders)
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
