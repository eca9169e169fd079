import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// Where objects go: `s3://BUCKET/PREFIX` (`--blobs`), and how the store is reached, by the AWS
/// conventions (docs.aws.amazon.com/sdkref/latest/guide/settings-reference.html):
/// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION` (or
/// `AWS_DEFAULT_REGION`), and `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` for another
/// S3-compatible store (MinIO, Garage, Ceph, R2…), which is then addressed path-style.
public struct S3Configuration: Sendable, Equatable {
    public var bucket: String
    /// Prepended to every key, without a leading slash; empty or ending in `/`.
    public var prefix: String
    public var endpoint: URL
    public var region: String
    public var credentials: SigV4.Credentials
    /// `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`.
    public var pathStyle: Bool

    public init(bucket: String, prefix: String = "", endpoint: URL, region: String, credentials: SigV4.Credentials, pathStyle: Bool) {
        self.bucket = bucket
        self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.endpoint = endpoint
        self.region = region
        self.credentials = credentials
        self.pathStyle = pathStyle
    }

    /// The configuration for `location` (`s3://BUCKET/PREFIX`) from the environment's AWS variables.
    public static func from(location: String, environment: [String: String]) throws(S3Error) -> S3Configuration {
        guard location.hasPrefix("s3://") else { throw .badLocation("\(location) is not s3://BUCKET/PREFIX") }
        let rest = location.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        let prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
        // S3's bucket names: 3 to 63 of a-z 0-9 . -, starting and ending with a letter or digit.
        guard (3...63).contains(bucket.count), bucket.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "." || $0 == "-") }),
              bucket.first?.isLetter == true || bucket.first?.isNumber == true else {
            throw .badLocation("\(bucket) is no bucket name: 3 to 63 of a-z, 0-9, dots and hyphens")
        }
        guard let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty, let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
            throw .missingCredentials("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for \(location)")
        }
        let region = [environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]].compactMap { $0 }.first { !$0.isEmpty } ?? "us-east-1"
        let credentials = SigV4.Credentials(accessKeyID: key, secretAccessKey: secret,
                                            sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
        let custom = [environment["AWS_ENDPOINT_URL_S3"], environment["AWS_ENDPOINT_URL"]].compactMap { $0 }.first { !$0.isEmpty }
        if let custom {
            guard let url = URL(string: custom), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw .badLocation("AWS_ENDPOINT_URL \(custom) is not an http(s) address")
            }
            return S3Configuration(bucket: bucket, prefix: prefix, endpoint: url, region: region, credentials: credentials, pathStyle: true)
        }
        // A bucket with dots cannot be a virtual host under AWS's certificate.
        return S3Configuration(bucket: bucket, prefix: prefix, endpoint: URL(string: "https://s3.\(region).amazonaws.com")!, region: region,
                               credentials: credentials, pathStyle: bucket.contains("."))
    }
}

/// Why the object store did not do what was asked.
public enum S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    case badLocation(String)
    case missingCredentials(String)
    /// The store answered with an error: its status, and the code and message of its XML.
    case refused(status: Int, code: String, message: String)
    /// The store could not be reached.
    case unreachable(String)
    /// The store answered something that is not S3's.
    case malformedAnswer(String)

    public var description: String {
        switch self {
        case .badLocation(let why): "the object store's location: \(why)"
        case .missingCredentials(let why): "the object store needs credentials: \(why)"
        case let .refused(status, code, message): "the object store refused (\(status) \(code)): \(message)"
        case .unreachable(let why): "the object store cannot be reached: \(why)"
        case .malformedAnswer(let why): "the object store answered something unexpected: \(why)"
        }
    }
}

/// An object as the store describes it.
public struct S3ObjectInfo: Sendable, Equatable {
    public var size: Int
    /// The ETag, without quotes.
    public var etag: String
}

/// The S3 operations Waymark's blobs need (docs.aws.amazon.com/AmazonS3/latest/API): put (in
/// parts past ``multipartThreshold``), head, get (a range of it), delete, and presigned GET URLs,
/// each request signed with ``SigV4`` and sent by AsyncHTTPClient.
public struct S3Client: Sendable {
    public var configuration: S3Configuration
    /// Objects larger than this are sent in parts of ``partSize`` (S3's parts are at least 5 MiB).
    public var multipartThreshold = 16 << 20
    public var partSize = 8 << 20
    public var requestTimeout: TimeAmount = .seconds(120)
    private let http: HTTPClient
    private let now: @Sendable () -> Date

    public init(configuration: S3Configuration, httpClient: HTTPClient = .shared, now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.http = httpClient
        self.now = now
    }

    private var signer: SigV4 {
        SigV4(credentials: configuration.credentials, region: configuration.region, service: "s3", normalizesPath: false)
    }

    /// The host (and port, when not the scheme's) and the path of `key`, unencoded.
    private func address(_ key: String) -> (host: String, path: String) {
        let endpoint = configuration.endpoint
        var host = endpoint.host ?? ""
        if let port = endpoint.port, !(endpoint.scheme == "https" && port == 443) && !(endpoint.scheme == "http" && port == 80) { host += ":\(port)" }
        let base = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        let object = configuration.prefix + key
        if configuration.pathStyle { return (host, "\(base)/\(configuration.bucket)" + (key.isEmpty && configuration.prefix.isEmpty ? "" : "/\(object)")) }
        return ("\(configuration.bucket).\(host)", "\(base)/\(object)")
    }

    // MARK: operations

    /// Stores `data` as `key`; answers its ETag.
    @discardableResult
    public func put(key: String, data: Data, contentType: String = "application/octet-stream") async throws(S3Error) -> String {
        let response = try await send("PUT", key: key, body: data, headers: [("Content-Type", contentType)])
        guard let etag = response.headers.first(name: "ETag") else { throw .malformedAnswer("PUT \(key) answered no ETag") }
        return etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// Stores the file at `file` as `key`, in parts when it is large (an upload that fails is
    /// aborted, so no parts are left to pay for); answers its ETag.
    @discardableResult
    public func upload(key: String, file: URL, contentType: String = "application/octet-stream") async throws(S3Error) -> String {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: file) } catch { throw .badLocation("cannot read \(file.path): \(error)") }
        defer { try? handle.close() }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        func read(_ count: Int) throws(S3Error) -> Data {
            do { return try handle.read(upToCount: count) ?? Data() } catch { throw .badLocation("cannot read \(file.path): \(error)") }
        }
        if size <= multipartThreshold { return try await put(key: key, data: try read(size), contentType: contentType) }

        let created = try await send("POST", key: key, query: [("uploads", "")], headers: [("Content-Type", contentType)])
        guard let uploadID = Self.element("UploadId", in: created.body) else { throw .malformedAnswer("no UploadId in \(String(decoding: created.body, as: UTF8.self))") }
        do throws(S3Error) {
            var parts: [String] = []
            while true {
                let chunk = try read(partSize)
                if chunk.isEmpty { break }
                let answer = try await send("PUT", key: key, query: [("partNumber", String(parts.count + 1)), ("uploadId", uploadID)], body: chunk)
                guard let etag = answer.headers.first(name: "ETag") else { throw S3Error.malformedAnswer("part \(parts.count + 1) answered no ETag") }
                parts.append(etag)
            }
            let list = parts.enumerated().map { "<Part><PartNumber>\($0.offset + 1)</PartNumber><ETag>\(Self.escape($0.element))</ETag></Part>" }.joined()
            let body = Data("<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\(list)</CompleteMultipartUpload>".utf8)
            let completed = try await send("POST", key: key, query: [("uploadId", uploadID)], body: body, headers: [("Content-Type", "application/xml")])
            // CompleteMultipartUpload may answer 200 with an error inside (docs: "Special errors").
            if let code = Self.element("Code", in: completed.body) {
                throw S3Error.refused(status: 200, code: code, message: Self.element("Message", in: completed.body) ?? "")
            }
            return (Self.element("ETag", in: completed.body) ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        } catch {
            _ = try? await send("DELETE", key: key, query: [("uploadId", uploadID)])
            throw error
        }
    }

    /// Makes the bucket (`waymark restore` into a new one, the tests); one that is already yours is no error.
    public func createBucket() async throws(S3Error) {
        let body = configuration.region == "us-east-1" ? Data() : Data(
            "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>\(configuration.region)</LocationConstraint></CreateBucketConfiguration>".utf8)
        var bucketOnly = self
        bucketOnly.configuration.prefix = ""
        do {
            _ = try await bucketOnly.send("PUT", key: "", body: body)
        } catch .refused(_, "BucketAlreadyOwnedByYou", _) {
            return
        }
    }

    /// The object's size and ETag, or nil when there is none.
    public func head(key: String) async throws(S3Error) -> S3ObjectInfo? {
        let response = try await send("HEAD", key: key, accepting: [404])
        guard response.status != 404 else { return nil }
        return try Self.info(response.headers, key: key)
    }

    /// The object, or the bytes `range` of it, up to `limit` bytes; nil when there is none.
    public func get(key: String, range: ClosedRange<Int>? = nil, limit: Int = 128 << 20) async throws(S3Error) -> (info: S3ObjectInfo, data: Data)? {
        let headers = range.map { [("Range", "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
        let response = try await send("GET", key: key, headers: headers, accepting: [404], upTo: limit)
        guard response.status != 404 else { return nil }
        return (try Self.info(response.headers, key: key, size: range == nil ? nil : response.headers.first(name: "Content-Range")), response.body)
    }

    /// Deletes the object (deleting one that is not there is no error, as in S3).
    public func delete(key: String) async throws(S3Error) {
        _ = try await send("DELETE", key: key, accepting: [404])
    }

    /// A URL that GETs the object without credentials for `expires` seconds (`--blobs-redirect`).
    public func presignedGET(key: String, expires: Int) -> URL {
        let (host, path) = address(key)
        let request = SigV4.Request(method: "GET", path: path, headers: [("Host", host)], payloadHash: "UNSIGNED-PAYLOAD")
        let query = signer.signQuery(request, date: now(), expires: expires).query
        return URL(string: "\(configuration.endpoint.scheme ?? "https")://\(host)\(SigV4.encode(path, keepingSlashes: true))?\(query)")!
    }

    // MARK: the wire

    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
    }

    /// Sends one signed request; a status outside 2xx and `accepting` is ``S3Error/refused``.
    private func send(_ method: String, key: String, query: [(name: String, value: String)] = [], body: Data = Data(),
                      headers extra: [(String, String)] = [], accepting: Set<Int> = [], upTo limit: Int = 1 << 20) async throws(S3Error) -> Answer {
        let (host, path) = address(key)
        let payloadHash = SHA256.hash(data: body).hex
        var headers: [(name: String, value: String)] = [("Host", host)] + extra.map { (name: $0.0, value: $0.1) }
        if !body.isEmpty || method == "PUT" || method == "POST" { headers.append(("Content-Length", String(body.count))) }
        let signature = signer.signHeaders(SigV4.Request(method: method, path: path, query: query, headers: headers, payloadHash: payloadHash),
                                           date: now(), signsPayloadHeader: true)
        let queryText = SigV4.canonicalQuery(query)
        var request = HTTPClientRequest(url: "\(configuration.endpoint.scheme ?? "https")://\(host)\(SigV4.encode(path, keepingSlashes: true))"
            + (queryText.isEmpty ? "" : "?" + queryText))
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers + signature.headers { request.headers.replaceOrAdd(name: name, value: value) }
        if !body.isEmpty { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await http.execute(request, timeout: requestTimeout)
            bytes = try await response.body.collect(upTo: limit)
        } catch {
            throw .unreachable("\(method) \(host)\(path): \(error)")
        }
        let status = Int(response.status.code)
        let data = Data(bytes.readableBytesView)
        guard (200..<300).contains(status) || accepting.contains(status) else {
            throw .refused(status: status, code: Self.element("Code", in: data) ?? "HTTP \(status)", message: Self.element("Message", in: data) ?? "")
        }
        return Answer(status: status, headers: response.headers, body: data)
    }

    static func info(_ headers: HTTPHeaders, key: String, size contentRange: String? = nil) throws(S3Error) -> S3ObjectInfo {
        // A ranged GET's Content-Range is "bytes 0-9/1234": the object's size is after the slash.
        let sizeText = contentRange.flatMap { $0.split(separator: "/").last.map(String.init) } ?? headers.first(name: "Content-Length")
        guard let size = sizeText.flatMap(Int.init), let etag = headers.first(name: "ETag") else {
            throw .malformedAnswer("\(key) came without its size or ETag")
        }
        return S3ObjectInfo(size: size, etag: etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
    }

    /// The text of the first `<name>` element of an S3 XML answer, entities decoded.
    static func element(_ name: String, in xml: Data) -> String? {
        let text = String(decoding: xml, as: UTF8.self)
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
