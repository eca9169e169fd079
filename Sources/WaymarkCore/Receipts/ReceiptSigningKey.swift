import Crypto
import Foundation

/// The server's Ed25519 key for photo receipts, and its file format: PEM of PKCS#8
/// (`-----BEGIN PRIVATE KEY-----`, RFC 8410), as `openssl genpkey -algorithm ed25519` writes it,
/// so that `openssl pkey -in receipt-ed25519.key -pubout` shows its public key.
public struct ReceiptSigningKey: Sendable {
    public let privateKey: Curve25519.Signing.PrivateKey

    /// The raw 32-byte public key, as receipts carry it.
    public var publicKey: Data { privateKey.publicKey.rawRepresentation }

    /// A new random key.
    public init() {
        privateKey = Curve25519.Signing.PrivateKey()
    }

    public init(privateKey: Curve25519.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// PKCS#8's fixed DER prefix of an Ed25519 private key (RFC 8410 §7): SEQUENCE { version 0,
    /// AlgorithmIdentifier { 1.3.101.112 }, OCTET STRING { OCTET STRING (32 bytes) } }.
    static let pkcs8Prefix: [UInt8] = [0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]

    /// The key as a PEM file's text.
    public var pem: String {
        let der = Data(Self.pkcs8Prefix) + privateKey.rawRepresentation
        return "-----BEGIN PRIVATE KEY-----\n" + der.base64EncodedString() + "\n-----END PRIVATE KEY-----\n"
    }

    /// Reads a PEM file's text: one `PRIVATE KEY` block holding an Ed25519 PKCS#8 key (base64 lines
    /// of any length; nothing else in the file but whitespace).
    public init(pem: String) throws(ReceiptKeyError) {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.count >= 3, lines.first == "-----BEGIN PRIVATE KEY-----", lines.last == "-----END PRIVATE KEY-----" else {
            throw .notPEM
        }
        guard let der = Data(base64Encoded: lines.dropFirst().dropLast().joined()) else { throw .notPEM }
        guard der.count == Self.pkcs8Prefix.count + 32, Array(der.prefix(Self.pkcs8Prefix.count)) == Self.pkcs8Prefix else {
            throw .notEd25519
        }
        do {
            privateKey = try Curve25519.Signing.PrivateKey(rawRepresentation: der.suffix(32))
        } catch {
            throw .notEd25519
        }
    }
}

/// Why a receipt key file could not be read.
public enum ReceiptKeyError: Error, Sendable, Equatable {
    /// Not one PEM `PRIVATE KEY` block.
    case notPEM
    /// A PEM private key, but not an Ed25519 one in PKCS#8.
    case notEd25519
}
