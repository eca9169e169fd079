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
        for request in seen {
            let headers = (request["headers"] as? [String: String] ?? [:]).reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value }
            #expect(headers["idempotency-key"] == "idem-42")
            #expect(headers["x-api-key"] == "key-1")
            let body = Data((request["body"] as? String ?? "").utf8)
            let ok = RequestSigning.verify(presented: headers["x-api-sig"] ?? "", secret: "secret-1", method: "POST", target: request["path"] as? String ?? "",
                                           timestamp: Int(headers["x-api-timestamp"] ?? "") ?? 0, bodyHash: RequestSigning.bodyHash(body))
            #expect(ok, "attempt signed over what was sent")
        }
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
        // Never within the same second: the retry's signature would be a replay.
        #expect(policy.delay(beforeRetry: 1, retryAfter: nil, unit: 0.1) == 1)
    }

    @Test("Retry-After is honoured, and a wait beyond the cap gives up")
    func retryAfter() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 0.25, maxDelay: 30)
        #expect(policy.delay(beforeRetry: 1, retryAfter: 5, unit: 0.5) == 5)
        #expect(policy.delay(beforeRetry: 1, retryAfter: 120, unit: 0.5) == nil)
        #expect(RetryPolicy.parseRetryAfter("7") == 7)
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(RetryPolicy.parseRetryAfter("soon") == nil)
    }

    @Test("only the server's own trouble is retried")
    func retryable() {
        #expect(RetryPolicy.isRetryable(status: 503) && RetryPolicy.isRetryable(status: 429))
        #expect(!RetryPolicy.isRetryable(status: 400) && !RetryPolicy.isRetryable(status: 401) && !RetryPolicy.isRetryable(status: 409))
    }
}

@Suite("Replay refusals of one's own requests")
struct ReplayRecoveryTests {
    @Test("a request refused as a replay is signed again with a later timestamp, and succeeds")
    func resignsAfterReplayRefusal() async throws {
        // A real server that refuses the first request it sees as a replay (as Waymark's does when
        // the same request was signed twice within a second), logging each request's signing headers.
        let script = #"""
import http.server, json, sys
log = sys.argv[1]; seen = []
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        seen.append({"ts": self.headers.get("X-API-Timestamp"), "sig": self.headers.get("X-API-Sig")})
        open(log, "w").write(json.dumps(seen))
        if len(seen) == 1:
            out = json.dumps({"error": "replayed_request", "reason": "seen"}).encode(); self.send_response(401)
        else:
            out = b'{"error":"not_found","reason":"none"}'; self.send_response(404)
        self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H); print(s.server_address[1], flush=True); s.serve_forever()
"""#
        let server = try ScriptedServer(script: script)
        let client = WaymarkClient(credentials: ServerCredentials(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!, key: "k", secret: "s"),
                                   sleep: { _ in })
        #expect(try await client.route(id: "same") == nil, "the refusal was recovered from, and the answer (404) came back")
        let seen = try JSONSerialization.jsonObject(with: Data(contentsOf: server.log)) as? [[String: String]] ?? []
        #expect(seen.count == 2)
        if seen.count == 2 {
            #expect((Int(seen[1]["ts"] ?? "") ?? 0) > (Int(seen[0]["ts"] ?? "") ?? 0), "signed again with a later timestamp")
            #expect(seen[0]["sig"] != seen[1]["sig"])
        }
    }
}
