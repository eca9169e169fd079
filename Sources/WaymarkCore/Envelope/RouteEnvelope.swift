import Foundation

/// An encrypted route as stored on the server (DESIGN §3.2).
///
/// JSON: `{"v":1,"kdf":{"alg":"scrypt","n":131072,"r":8,"p":1,"salt":B64},"aead":"aes-256-gcm","iv":B64,"ct":B64}`,
/// with B64 standard Base64 with padding. `ct` is the AES-GCM ciphertext followed by its 16-byte tag.
public struct RouteEnvelope: Codable, Sendable, Equatable {
    /// The envelope format version; always 1.
    public var v: Int
    /// How the master key is derived from the passphrase.
    public var kdf: KDF
    /// The authenticated cipher; always `"aes-256-gcm"`.
    public var aead: String
    /// The 12-byte AES-GCM nonce.
    public var iv: Data
    /// Ciphertext followed by the 16-byte authentication tag.
    public var ct: Data

    /// The only AEAD this version knows.
    public static let aesGCM = "aes-256-gcm"

    /// A key derivation function with the parameters stored in the envelope.
    public enum KDF: Codable, Sendable, Equatable {
        /// scrypt with cost `n` (a power of two), block size `r`, parallelism `p`.
        case scrypt(n: Int, r: Int, p: Int, salt: Data)
        /// PBKDF2-HMAC-SHA256, as written by browser clients (WebCrypto has no scrypt).
        case pbkdf2(iterations: Int, salt: Data)

        enum CodingKeys: String, CodingKey { case alg, n, r, p, salt, iterations }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let alg = try container.decode(String.self, forKey: .alg)
            let salt = try container.decode(Data.self, forKey: .salt)
            switch alg {
            case "scrypt":
                self = .scrypt(n: try container.decode(Int.self, forKey: .n), r: try container.decode(Int.self, forKey: .r),
                               p: try container.decode(Int.self, forKey: .p), salt: salt)
            case "pbkdf2-sha256":
                self = .pbkdf2(iterations: try container.decode(Int.self, forKey: .iterations), salt: salt)
            default:
                throw DecodingError.dataCorruptedError(forKey: .alg, in: container, debugDescription: "must be \"scrypt\" or \"pbkdf2-sha256\", is \"\(alg)\"")
            }
            if let problem {
                throw DecodingError.dataCorruptedError(forKey: problem.key, in: container, debugDescription: problem.reason)
            }
        }

        /// The first parameter out of the range Waymark accepts (which keeps a hostile envelope
        /// from asking for unbounded memory or time), or `nil` when all are fine.
        var problem: (key: CodingKeys, reason: String)? {
            let salt: Data
            switch self {
            case let .scrypt(n, r, p, scryptSalt):
                salt = scryptSalt
                guard n >= 2, n <= 1 << 22, n & (n - 1) == 0 else { return (.n, "must be a power of two from 2 to 4194304, is \(n)") }
                guard (1...16).contains(r) else { return (.r, "must be 1 to 16, is \(r)") }
                guard (1...16).contains(p) else { return (.p, "must be 1 to 16, is \(p)") }
                guard 128 * n * r <= 1 << 30 else { return (.n, "with r = \(r) needs more than 1 GiB of memory") }
            case let .pbkdf2(iterations, pbkdf2Salt):
                salt = pbkdf2Salt
                guard (1...100_000_000).contains(iterations) else { return (.iterations, "must be 1 to 100000000, is \(iterations)") }
            }
            guard (8...1024).contains(salt.count) else { return (.salt, "must hold 8 to 1024 bytes, has \(salt.count)") }
            return nil
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case let .scrypt(n, r, p, salt):
                try container.encode("scrypt", forKey: .alg)
                try container.encode(n, forKey: .n)
                try container.encode(r, forKey: .r)
                try container.encode(p, forKey: .p)
                try container.encode(salt, forKey: .salt)
            case let .pbkdf2(iterations, salt):
                try container.encode("pbkdf2-sha256", forKey: .alg)
                try container.encode(iterations, forKey: .iterations)
                try container.encode(salt, forKey: .salt)
            }
        }

        /// The JSON object of DESIGN §3.2, keys in its order.
        var json: String {
            switch self {
            case let .scrypt(n, r, p, salt):
                return #"{"alg":"scrypt","n":\#(n),"r":\#(r),"p":\#(p),"salt":"\#(salt.base64EncodedString())"}"#
            case let .pbkdf2(iterations, salt):
                return #"{"alg":"pbkdf2-sha256","iterations":\#(iterations),"salt":"\#(salt.base64EncodedString())"}"#
            }
        }
    }

    /// The parameters for sealing a new route.
    public enum KDFChoice: Sendable, Equatable {
        /// scrypt; the defaults are those of DESIGN §3.2.
        case scrypt(n: Int = 131_072, r: Int = 8, p: Int = 1)
        /// PBKDF2-HMAC-SHA256, as a browser would write.
        case pbkdf2(iterations: Int = 600_000)
    }

    /// An envelope from its parts.
    public init(v: Int = 1, kdf: KDF, aead: String = RouteEnvelope.aesGCM, iv: Data, ct: Data) {
        self.v = v
        self.kdf = kdf
        self.aead = aead
        self.iv = iv
        self.ct = ct
    }

    enum CodingKeys: String, CodingKey { case v, kdf, aead, iv, ct }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        v = try container.decode(Int.self, forKey: .v)
        guard v == 1 else {
            throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "is \(v); this version of Waymark reads version 1 — update Waymark")
        }
        kdf = try container.decode(KDF.self, forKey: .kdf)
        aead = try container.decode(String.self, forKey: .aead)
        guard aead == Self.aesGCM else {
            throw DecodingError.dataCorruptedError(forKey: .aead, in: container, debugDescription: "must be \"\(Self.aesGCM)\", is \"\(aead)\"")
        }
        iv = try container.decode(Data.self, forKey: .iv)
        guard iv.count == 12 else {
            throw DecodingError.dataCorruptedError(forKey: .iv, in: container, debugDescription: "must hold 12 bytes, has \(iv.count)")
        }
        ct = try container.decode(Data.self, forKey: .ct)
        guard ct.count >= 16 else {
            throw DecodingError.dataCorruptedError(forKey: .ct, in: container, debugDescription: "must hold at least the 16-byte tag, has \(ct.count) bytes")
        }
    }

    /// Reads an envelope from JSON, checking every field.
    ///
    /// - Throws: ``RouteEnvelopeError/malformed(field:reason:)`` naming the field at fault.
    public static func decode(json: Data) throws -> RouteEnvelope {
        do {
            return try JSONDecoder().decode(RouteEnvelope.self, from: json)
        } catch let error as DecodingError {
            throw RouteEnvelopeError(error)
        }
    }

    /// The envelope as compact JSON, keys in the order of DESIGN §3.2.
    public func jsonData() -> Data {
        let text = #"{"v":\#(v),"kdf":\#(kdf.json),"aead":"\#(aead)","iv":"\#(iv.base64EncodedString())","ct":"\#(ct.base64EncodedString())"}"#
        return Data(text.utf8)
    }
}

extension RouteEnvelopeError {
    /// Names the JSON field a decoding error is about.
    public init(_ error: DecodingError) {
        func path(_ codingPath: [CodingKey], _ last: CodingKey? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return text.isEmpty ? "(top level)" : text
        }
        switch error {
        case let .keyNotFound(key, context):
            self = .malformed(field: path(context.codingPath, key), reason: "is missing")
        case let .typeMismatch(type, context):
            self = .malformed(field: path(context.codingPath), reason: "has the wrong type (expected \(type))")
        case let .valueNotFound(type, context):
            self = .malformed(field: path(context.codingPath), reason: "is null (expected \(type))")
        case let .dataCorrupted(context):
            let reason = context.codingPath.isEmpty ? "is not valid JSON" : context.debugDescription
            self = .malformed(field: path(context.codingPath), reason: reason)
        @unknown default:
            self = .malformed(field: "(unknown)", reason: "\(error)")
        }
    }
}
