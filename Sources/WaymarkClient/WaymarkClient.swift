import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WaymarkAPI
import WaymarkCore

/// Where the route service is and who is asking: flags or `WAYMARK_SERVER`, `WAYMARK_API_KEY`, `WAYMARK_API_SECRET`.
public struct ServerCredentials: Sendable {
    public var serverURL: URL
    public var key: String
    public var secret: String

    public init(serverURL: URL, key: String, secret: String) {
        self.serverURL = serverURL
        self.key = key
        self.secret = secret
    }
}

/// A failed API call; the description says what the server answered and what to do.
public enum WaymarkClientError: Error, CustomStringConvertible, Sendable {
    /// The server answered with an error body.
    case api(status: Int, body: APIErrorBody)
    /// The server could not be reached, or kept failing, after every retry.
    case unreachable(url: String, attempts: Int, lastError: String)
    /// The server answered something that is not the API's JSON.
    case unexpectedResponse(status: Int, detail: String)

    public var description: String {
        switch self {
        case let .api(status, body):
            let hint: String
            switch (status, body.error) {
            case (401, "signature_version"):
                hint = " This server requires request signature version 2; update Waymark."
            case (401, "stale_timestamp"):
                hint = " Check this computer's clock: it must be within 5 minutes of the server's."
            case (401, _):
                hint = " Check WAYMARK_API_KEY and WAYMARK_API_SECRET (waymark keys create NAME makes a pair)."
            default:
                hint = ""
            }
            return "the server refused the request (\(status) \(body.error)): \(body.reason)\(hint)"
        case let .unreachable(url, attempts, lastError):
            return "cannot reach \(url) after \(attempts) attempt\(attempts == 1 ? "" : "s") (\(lastError)). Is `waymark serve` running there, and is WAYMARK_SERVER right?"
        case let .unexpectedResponse(status, detail):
            return "the server answered \(status) with something that is not Waymark's API: \(detail)"
        }
    }
}

/// The typed client of the route API (DESIGN §3.3): signs every request, and retries with
/// exponential backoff and jitter (same Idempotency-Key), honouring Retry-After.
public struct WaymarkClient: Sendable {
    public var credentials: ServerCredentials
    public var retry: RetryPolicy
    /// How long one attempt may take, connecting included (AsyncHTTPClient keeps retrying a refused
    /// connection until this deadline), in seconds.
    public var requestTimeout: Double
    private let http: HTTPClient
    private let sleep: @Sendable (Double) async throws -> Void
    private let clock: WallClock
    private let nonce: @Sendable () -> String

    /// - Parameters:
    ///   - clock: the clock that timestamps each signature and reads HTTP-date `Retry-After` values.
    ///   - nonce: a fresh request nonce per call (``RequestSigning/randomNonce()``).
    public init(credentials: ServerCredentials, retry: RetryPolicy = RetryPolicy(), requestTimeout: Double = 15, httpClient: HTTPClient = .shared,
                sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) },
                clock: WallClock = .system,
                nonce: @escaping @Sendable () -> String = { RequestSigning.randomNonce() }) {
        self.credentials = credentials
        self.retry = retry
        self.requestTimeout = requestTimeout
        self.http = httpClient
        self.sleep = sleep
        self.clock = clock
        self.nonce = nonce
    }

    /// Stores an encrypted route; a retry with the same `idempotencyKey` never makes a second one.
    public func createRoute(_ body: CreateRouteRequest, idempotencyKey: String) async throws -> RouteCreated {
        let data = try JSONEncoder().encode(body)
        let (status, bytes) = try await send("createRoute", body: data, extraHeaders: [(APIHeader.idempotencyKey, idempotencyKey)])
        guard status == 201 else { throw WaymarkClientError.from(status: status, body: bytes) }
        return try WaymarkClientError.decode(RouteCreated.self, bytes, status: status)
    }

    /// The stored route with this id, or nil when the server has none.
    public func route(id: String) async throws -> RouteRecord? {
        try await fetch("getRoute", path: ["route_id": id])
    }

    /// The stored route with this lookup key (``RouteKeys/lookupKey(nonce:)``), or nil.
    public func route(lookup: String) async throws -> RouteRecord? {
        guard lookup.isLowercaseHex64 else {
            throw WaymarkClientError.api(status: 400, body: APIErrorBody(error: "invalid_lookup", reason: "a lookup key is 64 lowercase hex digits"))
        }
        return try await fetch("findRouteByLookup", query: [("lookup", lookup)])
    }

    /// Deletes a route, proving ownership with its delete token (lowercase hex).
    public func deleteRoute(id: String, deleteToken: String) async throws {
        let (status, bytes) = try await send("deleteRoute", path: ["route_id": id], body: Data(), extraHeaders: [(APIHeader.deleteToken, deleteToken)])
        guard status == 204 else { throw WaymarkClientError.from(status: status, body: bytes) }
    }

    /// The sealed key of the OwnTracks device whose nonce has this lookup key, or nil (DESIGN §3.13).
    public func owntracksDevice(lookup: String) async throws -> OwnTracksSealedDeviceDTO? {
        try await fetch("findOwnTracksDevice", path: ["lookup": lookup])
    }

    /// Every message the OwnTracks device with this lookup key sent that arrived in `from...to`,
    /// page after page, oldest first; nil when there is no such device.
    public func owntracksMessages(lookup: String, from: Date?, to: Date?) async throws -> [OwnTracksStoredMessageDTO]? {
        var items: [OwnTracksStoredMessageDTO] = []
        var cursor: String?
        repeat {
            let query: [(String, String?)] = [("from", from.map(InternetTime.text)), ("to", to.map(InternetTime.text)),
                                              ("cursor", cursor), ("limit", "1000")]
            guard let page: Page<OwnTracksStoredMessageDTO> = try await fetch("listOwnTracksMessages", path: ["lookup": lookup], query: query) else {
                return nil
            }
            items += page.items
            cursor = page.next
        } while cursor != nil
        return items
    }

    private func fetch<Answer: Decodable>(_ id: String, path parameters: [String: String] = [:], query: [(String, String?)] = []) async throws -> Answer? {
        let (status, bytes) = try await send(id, path: parameters, query: query, body: Data(), extraHeaders: [])
        if status == 404 { return nil }
        guard status == 200 else { throw WaymarkClientError.from(status: status, body: bytes) }
        return try WaymarkClientError.decode(Answer.self, bytes, status: status)
    }

    /// Sends operation `id` of the API contract (its method and path come from there), signing
    /// each attempt afresh, and retries what is worth retrying.
    private func send(_ id: String, path parameters: [String: String] = [:], query: [(String, String?)] = [],
                      body: Data, extraHeaders: [(String, String)]) async throws -> (Int, Data) {
        let operation = try APIContract.operation(id)
        let method = HTTPMethod(rawValue: operation.method)
        let target = try operation.target(parameters, query: query)
        let base = credentials.serverURL.absoluteString.hasSuffix("/") ? String(credentials.serverURL.absoluteString.dropLast()) : credentials.serverURL.absoluteString
        let prefix = credentials.serverURL.path == "/" ? "" : credentials.serverURL.path
        let signedTarget = prefix + target
        let url = base + target
        var attempt = 0
        var lastError = ""
        // Every header that carries meaning is signed (DESIGN §3.3, version 2).
        let headers = body.isEmpty ? extraHeaders : extraHeaders + [("Content-Type", "application/json")]
        while true {
            attempt += 1
            var request = HTTPClientRequest(url: url)
            request.method = method
            // Each attempt is a new request: a fresh nonce and the time now (a retry's nonce
            // must differ, or the server refuses it as a replay; the Idempotency-Key stays).
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            for (name, value) in RequestSigning.headers(key: credentials.key, secret: credentials.secret, method: method.rawValue,
                                                        target: signedTarget, body: body, headers: headers, now: clock.now(), nonce: nonce()) {
                request.headers.add(name: name, value: value)
            }
            if !body.isEmpty {
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            var retryAfter: Double?
            do {
                let response = try await http.execute(request, timeout: .milliseconds(Int64(requestTimeout * 1000)))
                let bytes = Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)
                let status = Int(response.status.code)
                guard RetryPolicy.isRetryable(status: status) else { return (status, bytes) }
                lastError = "HTTP \(status)"
                retryAfter = response.headers.first(name: "Retry-After").flatMap { RetryPolicy.parseRetryAfter($0, now: clock.now()) }
                guard let wait = retry.delay(beforeRetry: attempt, retryAfter: retryAfter, unit: Double.random(in: 0..<1)) else { return (status, bytes) }
                try await sleep(wait)
            } catch let error as CancellationError {
                throw error
            } catch {
                lastError = "\(error)"
                guard let wait = retry.delay(beforeRetry: attempt, retryAfter: nil, unit: Double.random(in: 0..<1)) else {
                    throw WaymarkClientError.unreachable(url: base, attempts: attempt, lastError: lastError)
                }
                try await sleep(wait)
            }
        }
    }
}

extension WaymarkClientError {
    /// The error for a non-success answer: the API's error body, or what the server sent instead.
    static func from(status: Int, body bytes: Data) -> WaymarkClientError {
        if let body = try? JSONDecoder().decode(APIErrorBody.self, from: bytes) { return .api(status: status, body: body) }
        return .unexpectedResponse(status: status, detail: String(decoding: bytes.prefix(200), as: UTF8.self))
    }

    /// A success answer decoded as `T`, or ``unexpectedResponse(status:detail:)``.
    static func decode<T: Decodable>(_ type: T.Type, _ bytes: Data, status: Int) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: bytes)
        } catch {
            throw WaymarkClientError.unexpectedResponse(status: status, detail: String(decoding: bytes.prefix(200), as: UTF8.self))
        }
    }
}

/// Routes on the route service, found by the lookup key of the QR nonce: plugs into `waymark tag --server`.
public struct ServerRouteSource: RouteSource {
    public var client: WaymarkClient
    public var name: String { client.credentials.serverURL.absoluteString }

    public init(client: WaymarkClient) { self.client = client }

    public func envelope(forNonce nonce: String) async throws -> RouteEnvelope? {
        try await client.route(lookup: RouteKeys.lookupKey(nonce: nonce))?.envelope
    }
}

/// What an OwnTracks device sent, found on the route service by the device's nonce (DESIGN
/// §3.13), as a route is: its sealed key and the encrypted messages that arrived from a little
/// before the span asked for until ``queueAllowance`` after it, which the tagger opens with the passphrase.
public struct OwnTracksRouteSource: RouteProvider {
    public var client: WaymarkClient
    public var name: String { client.credentials.serverURL.absoluteString + " (OwnTracks)" }

    /// How long after a fix its message may arrive: OwnTracks queues messages while the phone is
    /// offline (a tour without a signal) and sends them when it is back.
    public static let queueAllowance: TimeInterval = 7 * 86_400
    /// How much earlier than its fix a message may seem to arrive: the phone's clock and the server's may differ.
    public static let clockAllowance: TimeInterval = 3_600

    public init(client: WaymarkClient) { self.client = client }

    public func route(forNonce nonce: String) async throws -> ProvidedRoute? {
        try await route(forNonce: nonce, during: nil)
    }

    public func route(forNonce nonce: String, during span: DateInterval?) async throws -> ProvidedRoute? {
        let lookup = RouteKeys.lookupKey(nonce: nonce)
        guard let device = try await client.owntracksDevice(lookup: lookup),
              let messages = try await client.owntracksMessages(
                  lookup: lookup, from: span.flatMap { $0.start == .distantPast ? nil : $0.start - Self.clockAllowance },
                  to: span.flatMap { $0.end == .distantFuture ? nil : $0.end + Self.queueAllowance })
        else { return nil }
        return .owntracks(sealedKey: device.sealedKey, messages: messages.map(\.data), span: span)
    }
}
