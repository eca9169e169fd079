import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import WaymarkAPI
import WaymarkCore

/// The account side of the API (DESIGN §3.5, §3.6): sign in, then upload photos with the session
/// token as `Authorization: Bearer`. Network failures and busy answers are retried as
/// ``WaymarkClient`` retries them; an upload carries an `Idempotency-Key`, so a retry never
/// stores a photo twice.
public struct PlatformClient: Sendable {
    public var serverURL: URL
    /// The session token (`wmt_…`), once signed in.
    public var token: String?
    public var retry: RetryPolicy
    public var requestTimeout: Double
    private let http: HTTPClient
    private let sleep: @Sendable (Double) async throws -> Void

    public init(serverURL: URL, token: String? = nil, retry: RetryPolicy = RetryPolicy(), requestTimeout: Double = 120,
                httpClient: HTTPClient = .shared,
                sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }) {
        self.serverURL = serverURL
        self.token = token
        self.retry = retry
        self.requestTimeout = requestTimeout
        self.http = httpClient
        self.sleep = sleep
    }

    /// Signs in and keeps the session's token.
    public mutating func signIn(username: String, password: String) async throws -> SessionDTO {
        let body = try JSONEncoder().encode(SignInRequest(username: username, password: password))
        let (status, bytes) = try await send("signIn", body: ByteBuffer(bytes: body), contentType: "application/json", extra: [])
        guard status == 200 else { throw WaymarkClientError.from(status: status, body: bytes) }
        let session = try WaymarkClientError.decode(SessionDTO.self, bytes, status: status)
        token = session.token
        return session
    }

    /// What may go with an uploaded photo.
    public struct PhotoFields: Sendable {
        public var title: String?
        public var visibility: String?
        /// Publish the photo's own GPS position as its place.
        public var usePhotoPlace: Bool

        public init(title: String? = nil, visibility: String? = nil, usePhotoPlace: Bool = true) {
            self.title = title
            self.visibility = visibility
            self.usePhotoPlace = usePhotoPlace
        }
    }

    /// Uploads one photo file. Its `Idempotency-Key` is made from its content, so uploading the
    /// same file again (a retry, or a second run over the same folder) answers the photo stored
    /// the first time.
    public func uploadPhoto(_ file: URL, fields: PhotoFields) async throws -> PhotoDTO {
        let data = try Data(contentsOf: file, options: .alwaysMapped)
        let key = "file-" + SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        let boundary = "waymark-" + UUID().uuidString
        var body = ByteBuffer()
        func field(_ name: String, _ value: String) {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        if let title = fields.title { field("title", title) }
        if let visibility = fields.visibility { field("visibility", visibility) }
        field("usePhotoPlace", fields.usePhotoPlace ? "true" : "false")
        let name = file.lastPathComponent.replacingOccurrences(of: "\"", with: "_")
        body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(name)\"\r\nContent-Type: application/octet-stream\r\n\r\n")
        body.writeBytes(data)
        body.writeString("\r\n--\(boundary)--\r\n")
        let (status, bytes) = try await send("uploadPhoto", body: body, contentType: "multipart/form-data; boundary=\(boundary)",
                                             extra: [("Idempotency-Key", key)])
        guard status == 201 else { throw WaymarkClientError.from(status: status, body: bytes) }
        return try WaymarkClientError.decode(PhotoDTO.self, bytes, status: status)
    }

    /// Sends operation `id` of the API contract (its method and path come from there), retrying
    /// what is worth retrying.
    func send(_ id: String, path parameters: [String: String] = [:], query: [(String, String?)] = [],
              body: ByteBuffer, contentType: String, extra: [(String, String)]) async throws -> (Int, Data) {
        let operation = try APIContract.operation(id)
        let method = HTTPMethod(rawValue: operation.method)
        let path = try operation.target(parameters, query: query)
        let base = serverURL.absoluteString.hasSuffix("/") ? String(serverURL.absoluteString.dropLast()) : serverURL.absoluteString
        var attempt = 0
        while true {
            attempt += 1
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            request.headers.add(name: "Content-Type", value: contentType)
            if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
            for (name, value) in extra { request.headers.add(name: name, value: value) }
            request.body = .bytes(body)
            do {
                let response = try await http.execute(request, timeout: .milliseconds(Int64(requestTimeout * 1000)))
                let bytes = Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)
                let status = Int(response.status.code)
                guard RetryPolicy.isRetryable(status: status),
                      let wait = retry.delay(beforeRetry: attempt, retryAfter: nil, unit: Double.random(in: 0..<1)) else { return (status, bytes) }
                try await sleep(wait)
            } catch let error as CancellationError {
                throw error
            } catch {
                guard let wait = retry.delay(beforeRetry: attempt, retryAfter: nil, unit: Double.random(in: 0..<1)) else {
                    throw WaymarkClientError.unreachable(url: base, attempts: attempt, lastError: "\(error)")
                }
                try await sleep(wait)
            }
        }
    }
}
