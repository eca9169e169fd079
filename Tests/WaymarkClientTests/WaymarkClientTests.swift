import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
import WaymarkTestSupport

/// Records the waits the client asks for, instead of sleeping.
final class SleepLog: @unchecked Sendable {
    private let lock = NSLock()
    private var waits: [Double] = []
    func record(_ seconds: Double) { lock.lock(); waits.append(seconds); lock.unlock() }
    var all: [Double] { lock.lock(); defer { lock.unlock() }; return waits }
}

@Suite("The route API client", .serialized)
struct WaymarkClientTests {
    static func request() throws -> CreateRouteRequest {
        let envelope = try RouteEnvelope.seal(Route(tracks: [Track(fixes: [Fix(latitude: 1, longitude: 2, time: Date(timeIntervalSince1970: 0))])]),
                                              passphrase: "p", nonce: "2OANEZK7Q1XD", kdf: .scrypt(n: 1024))
        return CreateRouteRequest(envelope: envelope, lookup: RouteKeys.lookupKey(nonce: "2OANEZK7Q1XD"), deleteTokenHash: String(repeating: "a", count: 64))
    }

    @Test("retries a busy server with the same Idempotency-Key, honours Retry-After, and signs every attempt correctly")
    func retriesWithTheSameKey() async throws {
        let server = try FlakyServer.start(failures: 2, retryAfter: "1")
        let sleeps = SleepLog()
        let client = WaymarkClient(credentials: ServerCredentials(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!, key: "key-1", secret: "secret-1"),
                                   sleep: { sleeps.record($0) })
        let created = try await client.createRoute(try Self.request(), idempotencyKey: "idem-42")
        #expect(created == RouteCreated(routeID: "r-1", creationTime: 1_700_000_000))
        let seen = try server.requests()
        #expect(seen.count == 3)
        var nonces: Set<String> = []
        for request in seen {
            let headers = (request["headers"] as? [String: String] ?? [:]).reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value }
            #expect(headers["idempotency-key"] == "idem-42")
            #expect(headers["x-api-key"] == "key-1")
            let nonce = headers["x-api-nonce"] ?? ""
            #expect(RequestSigning.isValidNonce(nonce))
            nonces.insert(nonce)
            // Version 2: Idempotency-Key and Content-Type are signed, with the values sent.
            let names = (headers["x-api-signed-headers"] ?? "").split(separator: ";").map(String.init)
            #expect(Set(names) == ["idempotency-key", "content-type"])
            let signed = names.map { (name: $0, value: headers[$0] ?? "") }
            let body = Data((request["body"] as? String ?? "").utf8)
            let ok = RequestSigning.verify(presented: headers["x-api-sig"] ?? "", secret: "secret-1", method: "POST", target: request["path"] as? String ?? "",
                                           timestamp: Int(headers["x-api-timestamp"] ?? "") ?? 0, nonce: nonce,
                                           bodyHash: RequestSigning.bodyHash(body), signedHeaders: signed)
            #expect(ok, "attempt signed over what was sent")
        }
        #expect(nonces.count == 3, "every attempt, a retry included, has a fresh nonce")
        // Two waits, each at least the server's Retry-After.
        #expect(sleeps.all.count == 2)
        #expect(sleeps.all.allSatisfy { $0 >= 1 })
    }

    @Test("gives up after the last attempt with an error that names the server")
    func givesUp() async throws {
        let server = try FlakyServer.start(failures: 100, retryAfter: "0")
        let client = WaymarkClient(credentials: ServerCredentials(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!, key: "k", secret: "s"),
                                   retry: RetryPolicy(maxAttempts: 3), sleep: { _ in })
        await #expect(throws: WaymarkClientError.self) { try await client.createRoute(try Self.request(), idempotencyKey: "x") }
        #expect(try server.requests().count == 3)
    }

    @Test("a server that is not there is reported as unreachable after the retries")
    func unreachable() async throws {
        let client = WaymarkClient(credentials: ServerCredentials(serverURL: URL(string: "http://127.0.0.1:9")!, key: "k", secret: "s"),
                                   retry: RetryPolicy(maxAttempts: 2), requestTimeout: 1, sleep: { _ in })
        do {
            _ = try await client.route(id: "abc")
            Issue.record("expected an error")
        } catch let error as WaymarkClientError {
            #expect("\(error)".contains("cannot reach http://127.0.0.1:9"))
        }
    }
}

@Suite("Retry policy")
struct RetryPolicyTests {
    @Test("full jitter under an exponential ceiling, capped")
    func backoff() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: 1, maxDelay: 8)
        #expect(policy.delay(beforeRetry: 1, retryAfter: nil, unit: 1) == 1)
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, unit: 1) == 4)
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, unit: 0.5) == 2)
        #expect(policy.delay(beforeRetry: 9, retryAfter: nil, unit: 1) == 8)
        #expect(policy.delay(beforeRetry: 10, retryAfter: nil, unit: 1) == nil)
        // Full jitter goes down to nothing: a quick retry carries a fresh nonce, so it is no replay.
        #expect(policy.delay(beforeRetry: 1, retryAfter: nil, unit: 0.1) == 0.1)
    }

    @Test("Retry-After is honoured, and a wait beyond the cap gives up")
    func retryAfter() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 0.25, maxDelay: 30)
        #expect(policy.delay(beforeRetry: 1, retryAfter: 5, unit: 0.5) == 5)
        #expect(policy.delay(beforeRetry: 1, retryAfter: 120, unit: 0.5) == nil)
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.parseRetryAfter("7", now: now) == 7)
        #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(RetryPolicy.parseRetryAfter("soon", now: now) == nil)
    }

    @Test("only the server's own trouble is retried")
    func retryable() {
        #expect(RetryPolicy.isRetryable(status: 503) && RetryPolicy.isRetryable(status: 429))
        #expect(!RetryPolicy.isRetryable(status: 400) && !RetryPolicy.isRetryable(status: 401) && !RetryPolicy.isRetryable(status: 409))
    }
}

@Suite("Signature version 2 in the client")
struct ClientSignatureTests {
    @Test("the clock and the nonce are injected: the request is signed with them, and a replayed_request refusal is reported, not re-signed")
    func injectedClockAndNonce() async throws {
        // A real server that refuses every request as a replay, logging each request's signing headers.
        let script = #"""
import http.server, json, sys
log = sys.argv[1]; seen = []
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        seen.append({k.lower(): v for k, v in self.headers.items()} | {"path": self.path})
        open(log, "w").write(json.dumps(seen))
        out = json.dumps({"error": "replayed_request", "reason": "seen"}).encode(); self.send_response(401)
        self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H); print(s.server_address[1], flush=True); s.serve_forever()
"""#
        let server = try ScriptedServer(script: script)
        let client = WaymarkClient(credentials: ServerCredentials(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!, key: "k", secret: "s"),
                                   sleep: { _ in }, clock: .fixed(Date(timeIntervalSince1970: 1_700_000_000.5)), nonce: { "injected-nonce-0001" })
        do {
            _ = try await client.route(id: "same")
            Issue.record("expected the refusal")
        } catch let WaymarkClientError.api(status, body) {
            #expect(status == 401)
            #expect(body.error == "replayed_request")
        }
        let seen = try JSONSerialization.jsonObject(with: Data(contentsOf: server.log)) as? [[String: String]] ?? []
        #expect(seen.count == 1, "no second attempt with a shifted timestamp")
        let headers = try #require(seen.first)
        #expect(headers["x-api-timestamp"] == "1700000000")
        #expect(headers["x-api-nonce"] == "injected-nonce-0001")
        #expect(headers["x-api-signed-headers"] == "")
        #expect(headers["x-api-sig"] == RequestSigning.signature(secret: "s", method: "GET", target: "/api/v1/routes/same", timestamp: 1_700_000_000,
                                                                 nonce: "injected-nonce-0001", bodyHash: RequestSigning.bodyHash(Data()), signedHeaders: []))
    }
}
