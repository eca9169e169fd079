import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkVault

/// Answers that break the contract: the client says "bad answer", and the cache keeps every record.
@Suite struct VaultHostileAnswerTests {
    /// Answers `METHOD PATH` with its scripted answers in turn (the last one again when they run
    /// out); a body is `{"repeat": TEXT, "times": N}`. Logs each request.
    static let script = #"""
import http.server, json, os, sys
log = sys.argv[1]
answers = json.loads(sys.argv[2])
seen = []
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def handle_any(self, method):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        key = method + " " + self.path
        seen.append({"method": method, "path": self.path, "bytes": len(body)})
        open(log + ".tmp", "w").write(json.dumps(seen)); os.replace(log + ".tmp", log)
        queue = answers.get(key) or [[404, {"repeat": "{}", "times": 1}]]
        status, text = queue.pop(0) if len(queue) > 1 else queue[0]
        data = (text["repeat"] * text["times"]).encode() if isinstance(text, dict) else text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self): self.handle_any("GET")
    def do_POST(self): self.handle_any("POST")
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    /// One scripted answer: a status and a body (`times` copies of `body`).
    struct Answer: Sendable, CustomStringConvertible {
        var status: Int
        var body: String
        var times = 1
        init(_ status: Int, _ body: String, times: Int = 1) {
            self.status = status
            self.body = body
            self.times = times
        }
        var json: [Any] { [status, ["repeat": body, "times": times]] }
        var description: String { "\(status) \(body.prefix(80))" }
    }

    static let items = "POST /api/repos/r/items"
    static let key = "GET /api/repos/r/pub_key"

    static func server(_ answers: [String: [Answer]]) throws -> ScriptedServer {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: answers.mapValues { $0.map(\.json) }), as: UTF8.self)
        return try ScriptedServer(script: script, arguments: [json])
    }

    /// Pushes three cached records to a scripted vault whose repository has no key.
    static func push(itemsAnswers: [Answer]) async throws -> (PushReport, VaultCache, ScriptedServer) {
        let server = try server([key: [Answer(404, "{}")], items: itemsAnswers])
        let (cache, _) = try temporaryCache()
        _ = try cache.add(sampleRecords(3), source: nil)
        let report = await VaultPusher(client: VaultClient(vault: server.url), tokens: FixedTokens(), cache: cache).push(repository: "r")
        return (report, cache, server)
    }

    static func isBadAnswer(_ failure: VaultError?) -> Bool {
        if case .badAnswer = failure { true } else { false }
    }

    @Test(arguments: [
        Answer(200, "this is not JSON"),
        Answer(200, ""),
        Answer(200, "[1, 2, 3]"),
        Answer(200, #"{"processed": 3}"#),
        Answer(200, #"{"id": 1}"#),
        Answer(200, #"{"processed": 3, "responses": [{"id": 1, "status": 200}, {"id": 2, "status": 200}]}"#),
        Answer(200, #"{"processed": 3, "responses": "all of them"}"#),
        Answer(200, #"{"processed": 3, "responses": [1, 2, 3]}"#),
        Answer(200, #"{"processed": 3, "responses": [{}, {}, {}]}"#),
        Answer(400, #"{"processed": 3, "responses": [{"id": 1, "status": 200}, {"error": "no"}]}"#),
        Answer(400, #"{"processed": 3, "responses": [{"id": 1, "status": 200}, {"error": "no"}, {"id": 3}, {"id": 4}]}"#),
        Answer(400, #"{"error": "the whole body was refused"}"#),
        Answer(400, "<html>Bad Request</html>"),
        Answer(500, #"{"error": "internal"}"#),
        Answer(302, ""),
        Answer(200, #"{"processed": 3, "responses": [{"id": 1, "status": 200}, {"id": 2, "status": 200}, {"id": 3, "status": 200}]"#),
    ])
    func aBrokenWriteAnswerIsABadAnswerAndNothingIsRemoved(_ answer: Answer) async throws {
        let (report, cache, server) = try await Self.push(itemsAnswers: [answer])
        defer { removeCacheFolder(cache) }
        #expect(Self.isBadAnswer(report.failure), "\(answer) gave \(String(describing: report.failure))")
        #expect(report.written == 0)
        #expect(report.kept == 3)
        #expect(try cache.count() == 3)
        #expect(try cache.lastUpload() == nil)
        _ = server
    }

    @Test func aHugeAnswerIsABadAnswerAndNothingIsRemoved() async throws {
        let (report, cache, _) = try await Self.push(itemsAnswers: [Answer(200, "[", times: 9 << 20)])
        defer { removeCacheFolder(cache) }
        #expect(Self.isBadAnswer(report.failure))
        #expect(try cache.count() == 3)
    }

    @Test func aWellFormedMixedAnswerFromAnotherVaultIsRead() async throws {
        // The seed's own shapes: {"id": n} entries without status, an error entry.
        let (report, cache, _) = try await Self.push(itemsAnswers: [Answer(400, #"{"processed":3,"responses":[{"error":"duplicate"},{"id":7},{"id":"8","status":200}]}"#)])
        defer { removeCacheFolder(cache) }
        #expect(report.failure == nil)
        #expect(report.written == 2)
        #expect(report.refused == ["duplicate": 1])
        #expect(try cache.pending(limit: 10).map(\.record.timestamp) == [sampleRecords(3)[0].timestamp])
    }

    @Test func a200ThatRefusesSomeItemsIsReadItemByItemSoNothingIsWrittenTwice() async throws {
        let (report, cache, _) = try await Self.push(itemsAnswers: [Answer(200, #"{"processed": 3, "responses": [{"id": 1}, {"error": "no"}, {"id": 3}]}"#)])
        defer { removeCacheFolder(cache) }
        #expect(report.failure == nil)
        #expect(report.written == 2 && report.refused == ["no": 1] && report.kept == 1)
        #expect(try cache.pending(limit: 10).map(\.record.timestamp) == [sampleRecords(3)[1].timestamp])
    }

    @Test func a401OnAWriteRenewsTheTokenAndRetriesTheBatch() async throws {
        let (report, cache, server) = try await Self.push(itemsAnswers: [
            Answer(401, #"{"error":"invalid_token"}"#),
            Answer(200, #"{"processed":3,"responses":[{"id":1,"status":200},{"id":2,"status":200},{"id":3,"status":200}]}"#),
        ])
        defer { removeCacheFolder(cache) }
        #expect(report.failure == nil)
        #expect(report.written == 3)
        #expect(try cache.count() == 0)
        #expect(try server.requests().filter { $0["path"] as? String == "/api/repos/r/items" }.count == 2)
    }

    @Test func a401AfterRenewalStopsThePush() async throws {
        let (report, cache, server) = try await Self.push(itemsAnswers: [Answer(401, #"{"error":"invalid_token"}"#)])
        defer { removeCacheFolder(cache) }
        #expect(report.failure == .unauthorized)
        #expect(try cache.count() == 3)
        #expect(try server.requests().filter { $0["path"] as? String == "/api/repos/r/items" }.count == 2)
    }

    @Test(arguments: [
        Answer(200, "not json"), Answer(200, "[]"), Answer(200, #"{"access_token": 12}"#), Answer(200, #"{"access_token": ""}"#),
        Answer(200, #"{"access_token": "a\r\nX-Evil: 1"}"#), Answer(200, #"{"access_token": "abc", "expires_in": "soon"}"#),
        Answer(200, #"{"access_token": "abc", "username": ["x"]}"#),
    ])
    func aBrokenTokenAnswerIsABadAnswer(_ answer: Answer) async throws {
        let server = try Self.server(["POST /oauth/token": [answer]])
        await #expect {
            try await VaultClient(vault: server.url).signIn(StandinVault.userA)
        } throws: { error in
            if case .badAnswer = error as? VaultError { true } else { false }
        }
    }

    @Test func aSignInAnsweredWithAnythingBut200IsInvalidCredentials() async throws {
        for status in [400, 401, 403, 500] {
            let server = try Self.server(["POST /oauth/token": [Answer(status, "{}")]])
            await #expect(throws: VaultError.invalidCredentials) { try await VaultClient(vault: server.url).signIn(StandinVault.userA) }
        }
    }

    @Test(arguments: [
        Answer(200, "{}"), Answer(200, "not json"), Answer(200, #"[{"name": "no url"}]"#), Answer(200, #"[{"name": 1, "url": "u", "uid": "u", "secret": "s"}]"#),
        Answer(200, #"["x"]"#), Answer(500, "[]"),
    ])
    func aBrokenModuleListIsABadAnswer(_ answer: Answer) async throws {
        let server = try Self.server(["GET /api/modules/index": [answer]])
        await #expect {
            try await VaultClient(vault: server.url).modules(token: FixedTokens().fixed)
        } throws: { error in
            if case .badAnswer = error as? VaultError { true } else { false }
        }
    }

    @Test(arguments: [
        Answer(200, "not json"), Answer(200, #"{"pub_key": 5}"#), Answer(200, "[]"), Answer(500, "{}"),
    ])
    func aBrokenKeyAnswerIsABadAnswerAndTheRecordsStay(_ answer: Answer) async throws {
        let server = try Self.server([Self.key: [answer]])
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try cache.add(sampleRecords(2), source: nil)
        let report = await VaultPusher(client: VaultClient(vault: server.url), tokens: FixedTokens(), cache: cache).push(repository: "r")
        #expect(Self.isBadAnswer(report.failure))
        #expect(try cache.count() == 2)
        #expect(try server.requests().allSatisfy { $0["method"] as? String == "GET" })
    }

    @Test(arguments: [#"{"pub_key": "abc"}"#, #"{"pub_key": "zz2cd8ee9bd1b4c8b3c6a7e2f3e2ab6a45d1f4b1c3a5a32b0e0b06e1a97b9f9a"}"#])
    func aKeyThatIsNot64HexCharactersIsInvalidKeyAndNothingIsSent(_ body: String) async throws {
        let server = try Self.server([Self.key: [Answer(200, body)]])
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try cache.add(sampleRecords(2), source: nil)
        let report = await VaultPusher(client: VaultClient(vault: server.url), tokens: FixedTokens(), cache: cache).push(repository: "r")
        guard case .invalidKey = report.failure else { Issue.record("got \(String(describing: report.failure))"); return }
        #expect(try cache.count() == 2)
        #expect(try server.requests().count == 1)
    }

    @Test func anEmptyOrNullKeyMeansPlainRecords() async throws {
        for body in [#"{"id": 1, "pub_key": ""}"#, #"{"id": 1, "pub_key": null}"#, #"{"id": 1}"#] {
            let server = try Self.server([Self.key: [Answer(200, body)], Self.items: [Answer(200, #"{"processed":1,"responses":[{"id":1,"status":200}]}"#)]])
            let (cache, folder) = try temporaryCache()
            defer { try? FileManager.default.removeItem(at: folder) }
            _ = try cache.add(sampleRecords(1), source: nil)
            let report = await VaultPusher(client: VaultClient(vault: server.url), tokens: FixedTokens(), cache: cache).push(repository: "r")
            #expect(report.failure == nil && !report.encrypted && report.written == 1, "\(body)")
        }
    }
}
