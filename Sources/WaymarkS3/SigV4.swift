import Crypto
import Foundation

/// AWS Signature Version 4 (docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
/// the canonical request, the string to sign, the signing key and the signature, for requests
/// signed in the `Authorization` header or in the query (a presigned URL).
///
/// Soto is not among the packages Waymark can reach, so this is written from AWS's description on
/// swift-crypto and checked against AWS's own SigV4 test suite (`Tests/WaymarkS3Tests`, the
/// suite of awslabs/aws-c-auth in `../shared/fixtures/sigv4`).
public struct SigV4: Sendable {
    /// An access key and its secret, and the session token of temporary credentials.
    public struct Credentials: Sendable, Equatable {
        public var accessKeyID: String
        public var secretAccessKey: String
        public var sessionToken: String?

        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    /// A request to sign: the path and query as they go on the wire (not yet percent-encoded:
    /// the signer encodes them as SigV4 says), its headers, and the SHA-256 of its body.
    public struct Request: Sendable {
        public var method: String
        /// The path, e.g. `/bucket/sha256/ab/cd/abcd…`, unencoded.
        public var path: String
        /// The query's parameters, unencoded, in any order; a name may repeat.
        public var query: [(name: String, value: String)]
        /// The headers to sign, `Host` among them; a name may repeat (the values are joined by commas).
        public var headers: [(name: String, value: String)]
        /// Lowercase hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
        public var payloadHash: String

        public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)],
                    payloadHash: String) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    public static let algorithm = "AWS4-HMAC-SHA256"
    /// The payload hash of an empty body.
    public static let emptyPayloadHash = SHA256.hash(data: Data()).hex

    public var credentials: Credentials
    public var region: String
    public var service: String
    /// Remove `.` and `..` segments and repeated slashes from the path before signing: every
    /// service but S3, which signs the object key as it is.
    public var normalizesPath: Bool
    /// Sign the session token (`X-Amz-Security-Token`); some services want it added after signing.
    public var signsSessionToken: Bool

    public init(credentials: Credentials, region: String, service: String, normalizesPath: Bool = true, signsSessionToken: Bool = true) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.normalizesPath = normalizesPath
        self.signsSessionToken = signsSessionToken
    }

    // MARK: signing

    /// What a request signed in its header carries besides its own headers.
    public struct HeaderSignature: Sendable, Equatable {
        /// `X-Amz-Date`, the session token if any, then `Authorization`: add them all to the request.
        public var headers: [(name: String, value: String)]
        public var canonicalRequest: String
        public var stringToSign: String
        public var signature: String

        public static func == (a: Self, b: Self) -> Bool {
            a.headers.elementsEqual(b.headers, by: ==) && a.canonicalRequest == b.canonicalRequest && a.signature == b.signature
        }
    }

    /// Signs `request` in the `Authorization` header at `date`. With `signsPayloadHeader`, the
    /// payload hash is sent and signed as `x-amz-content-sha256` (S3 requires it).
    public func signHeaders(_ request: Request, date: Date, signsPayloadHeader: Bool = false) -> HeaderSignature {
        let stamp = Self.timestamp(date)
        var signed = request
        var added: [(name: String, value: String)] = [("X-Amz-Date", stamp)]
        if signsPayloadHeader { added.append(("x-amz-content-sha256", request.payloadHash)) }
        if let token = credentials.sessionToken, signsSessionToken { added.append(("X-Amz-Security-Token", token)) }
        signed.headers += added
        let (canonical, signedHeaders) = canonicalRequest(signed)
        let toSign = stringToSign(canonical, date: date)
        let signature = sign(toSign, date: date)
        var headers = added
        if let token = credentials.sessionToken, !signsSessionToken { headers.append(("X-Amz-Security-Token", token)) }
        headers.append(("Authorization", "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope(date)), SignedHeaders=\(signedHeaders), Signature=\(signature)"))
        return HeaderSignature(headers: headers, canonicalRequest: canonical, stringToSign: toSign, signature: signature)
    }

    /// What a request signed in its query (a presigned URL) carries.
    public struct QuerySignature: Sendable, Equatable {
        /// The query to send: the request's own parameters and the signature's, encoded, in
        /// canonical order, `X-Amz-Signature` last.
        public var query: String
        public var canonicalRequest: String
        public var stringToSign: String
        public var signature: String
    }

    /// Signs `request` in its query, valid for `expires` seconds from `date` (1 s to 7 days).
    public func signQuery(_ request: Request, date: Date, expires: Int) -> QuerySignature {
        var signed = request
        let signedHeaders = Self.canonicalHeaders(request.headers).map(\.name).joined(separator: ";")
        signed.query += [("X-Amz-Algorithm", Self.algorithm), ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(date))"),
                         ("X-Amz-Date", Self.timestamp(date)), ("X-Amz-Expires", String(expires)), ("X-Amz-SignedHeaders", signedHeaders)]
        if let token = credentials.sessionToken, signsSessionToken { signed.query.append(("X-Amz-Security-Token", token)) }
        let (canonical, _) = canonicalRequest(signed)
        let toSign = stringToSign(canonical, date: date)
        let signature = sign(toSign, date: date)
        var query = Self.canonicalQuery(signed.query)
        if let token = credentials.sessionToken, !signsSessionToken { query += "&X-Amz-Security-Token=" + Self.encode(token) }
        query += "&X-Amz-Signature=" + signature
        return QuerySignature(query: query, canonicalRequest: canonical, stringToSign: toSign, signature: signature)
    }

    // MARK: the parts

    /// The canonical request, and the `SignedHeaders` list it names.
    public func canonicalRequest(_ request: Request) -> (String, signedHeaders: String) {
        let headers = Self.canonicalHeaders(request.headers)
        let signedHeaders = headers.map(\.name).joined(separator: ";")
        let text = [
            request.method,
            Self.canonicalPath(request.path, normalize: normalizesPath),
            Self.canonicalQuery(request.query),
            headers.map { "\($0.name):\($0.value)\n" }.joined(),
            signedHeaders,
            request.payloadHash,
        ].joined(separator: "\n")
        return (text, signedHeaders)
    }

    /// The string to sign of a canonical request.
    public func stringToSign(_ canonicalRequest: String, date: Date) -> String {
        [Self.algorithm, Self.timestamp(date), scope(date), SHA256.hash(data: Data(canonicalRequest.utf8)).hex].joined(separator: "\n")
    }

    /// The signature of a string to sign: HMAC-SHA256 under the key derived for the day, region and service.
    public func sign(_ stringToSign: String, date: Date) -> String {
        func hmac(_ key: SymmetricKey, _ text: String) -> SymmetricKey {
            SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key))
        }
        let dateKey = hmac(SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8)), Self.day(date))
        let signingKey = hmac(hmac(hmac(dateKey, region), service), "aws4_request")
        return HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: signingKey).hex
    }

    /// `YYYYMMDD/region/service/aws4_request`.
    public func scope(_ date: Date) -> String { "\(Self.day(date))/\(region)/\(service)/aws4_request" }

    /// The path with each byte that is not unreserved percent-encoded (slashes kept), after
    /// removing dot segments and repeated slashes when `normalize` is set.
    static func canonicalPath(_ path: String, normalize: Bool) -> String {
        var path = path.isEmpty ? "/" : path
        if normalize {
            var segments: [Substring] = []
            for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
                switch segment {
                case ".": continue
                case "..": _ = segments.popLast()
                default: segments.append(segment)
                }
            }
            let trailing = path.hasSuffix("/") || path.hasSuffix("/.") || path.hasSuffix("/..")
            path = "/" + segments.joined(separator: "/") + (trailing && !segments.isEmpty ? "/" : "")
        }
        return encode(path, keepingSlashes: true)
    }

    /// The query's parameters encoded (each name and value decoded first, so that one already
    /// encoded is not encoded twice) and sorted by name, then value.
    static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        let encoded: [(name: String, value: String)] = query.map { parameter in
            (encode(parameter.name.removingPercentEncoding ?? parameter.name), encode(parameter.value.removingPercentEncoding ?? parameter.value))
        }
        let sorted = encoded.sorted { a, b in a.name == b.name ? a.value < b.value : a.name < b.name }
        return sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    /// Lowercase names, sorted; the values of a repeated name joined by commas in their order;
    /// each value trimmed, its lines joined, and runs of spaces made one.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var joined: [String: [String]] = [:]
        for (name, value) in headers {
            let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            joined[name.lowercased(), default: []].append(words.joined(separator: " "))
        }
        return joined.keys.sorted().map { ($0, joined[$0]!.joined(separator: ",")) }
    }

    /// RFC 3986 percent-encoding of every byte but the unreserved `A-Z a-z 0-9 - . _ ~` (and `/`
    /// when asked), with uppercase hex.
    public static func encode(_ text: String, keepingSlashes: Bool = false) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if unreserved[Int(byte)] || (keepingSlashes && byte == 0x2F) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }

    /// The unreserved bytes of RFC 3986, by value.
    private static let unreserved: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        return (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
    }

    /// `YYYYMMDD'T'HHMMSS'Z'` in UTC.
    public static func timestamp(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    static func day(_ date: Date) -> String { String(timestamp(date).prefix(8)) }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal digits.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Digest {
    /// Lowercase hexadecimal digits.
    var hex: String { Array(self).hex }
}

extension HashedAuthenticationCode {
    /// Lowercase hexadecimal digits.
    var hex: String { Array(self).hex }
}
