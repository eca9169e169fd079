import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WaymarkCore

/// The typed client of an OwnYourData vault's four endpoints (DESIGN §3.11, the seed's "APIs").
///
/// Every answer is outside input: bodies are read up to ``maxAnswerBytes`` and checked for shape;
/// anything off the contract is ``VaultError/badAnswer(status:detail:)``. Secrets (passwords, app
/// secrets, tokens) never appear in an error.
public struct VaultClient: Sendable {
    /// The vault's address (PIA_URL), e.g. `https://data-vault.eu`.
    public let vault: URL
    /// How long one request may take, connecting included.
    public let timeout: TimeAmount
    private let http: HTTPClient

    /// The largest answer read; a larger one is a bad answer.
    public static let maxAnswerBytes = 8 << 20

    /// The default HTTP client: AsyncHTTPClient's shared one keeps retrying a refused connection
    /// until the request's deadline, so a vault that is not there would take the whole timeout to
    /// say so; this one gives up at once on a refused connection and after 10 s on a silent one.
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public init(vault: URL, httpClient: HTTPClient = VaultClient.sharedHTTPClient, timeout: TimeAmount = .seconds(20)) {
        self.vault = vault
        self.http = httpClient
        self.timeout = timeout
    }

    // MARK: - The four endpoints

    /// Signs in: `POST /oauth/token`, form-encoded, with the password grant or the client-credentials grant.
    ///
    /// Any answer but 200 is ``VaultError/invalidCredentials`` (the seed: "If response != 200");
    /// no answer is ``VaultError/unreachable(_:)``. The token expires `expires_in` seconds (7,200
    /// when absent) after `now`.
    public func signIn(_ credentials: VaultCredentials, now: Date = Date()) async throws(VaultError) -> VaultToken {
        let fields: [(String, String)] = switch credentials {
        case let .password(email, password): [("grant_type", "password"), ("email", email), ("password", password)]
        case let .app(key, secret): [("grant_type", "client_credentials"), ("client_id", key), ("client_secret", secret)]
        }
        let form = fields.map { "\(PercentEncoding.unreserved($0.0))=\(PercentEncoding.unreserved($0.1))" }.joined(separator: "&")
        let (status, body) = try await send(.POST, "/oauth/token", body: Data(form.utf8),
                                            contentType: "application/x-www-form-urlencoded", token: nil)
        guard status == 200 else { throw .invalidCredentials }
        guard let object = try Self.json(body, status: status) as? [String: Any] else { throw Self.bad(status, "the token answer is not a JSON object") }
        guard let token = object["access_token"] as? String, Self.isTokenText(token) else {
            throw Self.bad(status, "the token answer has no usable access_token")
        }
        let lifetime: Double
        switch object["expires_in"] {
        case nil, is NSNull: lifetime = 7200
        case let number as NSNumber where number.doubleValue.isFinite && number.doubleValue > 0: lifetime = number.doubleValue
        case let text as String where Double(text).map { $0.isFinite && $0 > 0 } == true: lifetime = Double(text) ?? 7200
        default: throw Self.bad(status, "expires_in is not a positive number")
        }
        let username: String?
        switch object["username"] {
        case nil, is NSNull: username = nil
        case let name as String: username = name
        default: throw Self.bad(status, "username is not a string")
        }
        return VaultToken(accessToken: token, expires: now.addingTimeInterval(lifetime), username: username)
    }

    /// The module list, `GET /api/modules/index` (an empty list: "no modules available").
    public func modules(token: VaultToken) async throws(VaultError) -> [VaultModule] {
        let (status, body) = try await send(.GET, "/api/modules/index", body: nil, contentType: "application/json", token: token)
        try Self.checkAPI(status, body)
        guard let list = try Self.json(body, status: status) as? [Any] else { throw Self.bad(status, "the module list is not a JSON array") }
        return try list.enumerated().map { (index, element) throws(VaultError) -> VaultModule in
            guard let object = element as? [String: Any] else { throw Self.bad(status, "module \(index + 1) is not an object") }
            func text(_ key: String) throws(VaultError) -> String {
                guard let value = object[key] as? String else { throw Self.bad(status, "module \(index + 1) has no \(key) text") }
                return value
            }
            func optionalText(_ key: String) throws(VaultError) -> String? {
                switch object[key] {
                case nil, is NSNull: return nil
                case let value as String: return value
                default: throw Self.bad(status, "module \(index + 1)'s \(key) is not text")
                }
            }
            let id: Int? = switch object["id"] {
            case let number as NSNumber: Int(exactly: number.doubleValue)
            case let text as String: Int(text)
            default: nil
            }
            return VaultModule(id: id, name: try text("name"), description: try optionalText("description") ?? "", url: try text("url"),
                               uid: try text("uid"), secret: try text("secret"), picture: try optionalText("picture"))
        }
    }

    /// The repository's public key, `GET /api/repos/{repo}/pub_key` (field `pub_key` or
    /// `public_key`). Nil when the vault has none: 404, or the field absent, null or empty.
    public func repositoryKey(_ repo: String, token: VaultToken) async throws(VaultError) -> RepositoryKey? {
        let (status, body) = try await send(.GET, "/api/repos/\(PercentEncoding.unreserved(repo))/pub_key", body: nil, contentType: "application/json", token: token)
        if status == 404 { return nil }
        try Self.checkAPI(status, body)
        guard let object = try Self.json(body, status: status) as? [String: Any] else { throw Self.bad(status, "the key answer is not a JSON object") }
        for field in ["pub_key", "public_key"] {
            switch object[field] {
            case nil, is NSNull: continue
            case let hex as String:
                if hex.isEmpty { continue }
                return try RepositoryKey(hex: hex)
            default: throw Self.bad(status, "\(field) is not text")
            }
        }
        return nil
    }

    /// Writes items (each one JSON object: a record or a ``SealedItem``) as one array, `POST
    /// /api/repos/{repo}/items`; one result per item, in order.
    ///
    /// 200: all written; 400: the answer's `responses` say per item (a count that differs from
    /// the items sent is a bad answer, so nothing is taken as written); 401 ``VaultError/unauthorized``;
    /// 403 ``VaultError/forbidden``.
    public func write(_ items: [Data], repo: String, token: VaultToken) async throws(VaultError) -> [WriteResult] {
        if items.isEmpty { return [] }
        var body = Data("[".utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(item)
        }
        body.append(UInt8(ascii: "]"))
        let (status, answer) = try await send(.POST, "/api/repos/\(PercentEncoding.unreserved(repo))/items", body: body, contentType: "application/json", token: token)
        try Self.checkAPI(status, answer)
        guard status == 200 || status == 400 else { throw Self.bad(status, Self.excerpt(answer)) }
        guard let object = try Self.json(answer, status: status) as? [String: Any] else { throw Self.bad(status, "the write answer is not a JSON object") }
        guard let responses = object["responses"] else {
            // One item may be answered as a single object: {"id":n} or {"error":…}.
            guard items.count == 1 else { throw Self.bad(status, "the write answer has no responses for \(items.count) items") }
            return [try Self.result(object, status: status, single: true)]
        }
        guard let list = responses as? [Any] else { throw Self.bad(status, "responses is not an array") }
        guard list.count == items.count else { throw Self.bad(status, "\(list.count) responses for \(items.count) items") }
        let results = try list.map { (element) throws(VaultError) -> WriteResult in
            guard let entry = element as? [String: Any] else { throw Self.bad(status, "a response is not an object") }
            return try Self.result(entry, status: status, single: false)
        }
        // A 200 that still refuses some items is read item by item, like a 400: failing the whole
        // answer would keep the written items too, and the next push would write them twice.
        return results
    }

    // MARK: - Reading answers

    /// One item's outcome: `{"id":n,"status":200}` (written) or `{"error":…}` (refused).
    private static func result(_ entry: [String: Any], status: Int, single: Bool) throws(VaultError) -> WriteResult {
        if let error = entry["error"], !(error is NSNull) {
            let reason = (error as? String) ?? (entry["error_description"] as? String) ?? "refused"
            return .refused(String(reason.prefix(500)))
        }
        let itemStatus: Int? = switch entry["status"] {
        case let number as NSNumber: Int(exactly: number.doubleValue)
        case let text as String: Int(text)
        default: nil
        }
        if let itemStatus, !(200..<300).contains(itemStatus) { return .refused("status \(itemStatus)") }
        let id: Int? = switch entry["id"] {
        case let number as NSNumber: Int(exactly: number.doubleValue)
        case let text as String: Int(text)
        default: nil
        }
        guard entry["id"] != nil || itemStatus != nil else { throw bad(status, "a response says neither id nor error") }
        if single && status != 200 { throw bad(status, "a refused item without an error") }
        return .written(id: id)
    }

    /// 401 and 403 as their errors, any other non-2xx/400/404 as a bad answer.
    private static func checkAPI(_ status: Int, _ body: Data) throws(VaultError) {
        switch status {
        case 200, 400, 404: return
        case 401: throw .unauthorized
        case 403: throw .forbidden
        default: throw bad(status, excerpt(body))
        }
    }

    private static func json(_ body: Data, status: Int) throws(VaultError) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        } catch {
            throw bad(status, "not JSON: \(excerpt(body))")
        }
    }

    private static func bad(_ status: Int, _ detail: String) -> VaultError { .badAnswer(status: status, detail: detail) }

    /// The first 200 characters of an answer, for an error's detail.
    static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return text.isEmpty ? "an empty body" : text
    }

    /// A bearer token that fits in a header: 1–4,096 visible ASCII characters.
    private static func isTokenText(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 4096 && token.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    // MARK: - Transport

    /// Sends one request; the status and the body (at most ``maxAnswerBytes``).
    private func send(_ method: HTTPMethod, _ path: String, body: Data?, contentType: String, token: VaultToken?) async throws(VaultError) -> (Int, Data) {
        guard let scheme = vault.scheme?.lowercased(), scheme == "https" || scheme == "http", let host = vault.host, !host.isEmpty else {
            throw .invalidURL(vault.absoluteString)
        }
        var base = vault.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Content-Type", value: contentType)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token.accessToken)") }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: timeout)
        } catch {
            throw .unreachable(Self.transportDetail(error))
        }
        let status = Int(response.status.code)
        do {
            let buffer = try await response.body.collect(upTo: Self.maxAnswerBytes)
            return (status, Data(buffer.readableBytesView))
        } catch is NIOTooManyBytesError {
            throw .badAnswer(status: status, detail: "the answer is larger than \(Self.maxAnswerBytes / (1 << 20)) MiB")
        } catch {
            throw .unreachable(Self.transportDetail(error))
        }
    }

    /// A transport error in a few words (AsyncHTTPClient's errors hold no request body or header).
    private static func transportDetail(_ error: any Error) -> String {
        String(String(describing: error).prefix(300))
    }
}
