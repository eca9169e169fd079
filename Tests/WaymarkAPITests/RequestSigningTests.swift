import Foundation
import Testing
import WaymarkAPI
import WaymarkCore

@Suite("Request signing, version 2 (DESIGN §3.3)")
struct RequestSigningTests {
    static let postBody = Data(#"{"lookup":"x"}"#.utf8)
    static let postHeaders: [(name: String, value: String)] = [("content-type", "  application/json\t"), ("idempotency-key", "idem-1")]

    // Expected values computed independently with `openssl dgst -sha256 -hmac`.
    @Test("a POST is signed over the version, method, target, timestamp, nonce, body hash and the signed headers, trimmed")
    func knownAnswerPost() {
        #expect(RequestSigning.bodyHash(Self.postBody) == "0832aec4cf3af89448d2c968b2ce67863c57e9c39957fadeb938091279f661a4")
        let text = RequestSigning.stringToSign(method: "post", target: "/api/v1/routes", timestamp: 1_700_000_000, nonce: "AAAAAAAAAAAAAAAAAAAAAA",
                                               bodyHash: RequestSigning.bodyHash(Self.postBody), signedHeaders: Self.postHeaders)
        #expect(text == "waymark-sig-v2\nPOST\n/api/v1/routes\n1700000000\nAAAAAAAAAAAAAAAAAAAAAA\n0832aec4cf3af89448d2c968b2ce67863c57e9c39957fadeb938091279f661a4\ncontent-type:application/json\nidempotency-key:idem-1\n")
        let sig = RequestSigning.signature(secret: "s3cret-é", method: "post", target: "/api/v1/routes", timestamp: 1_700_000_000,
                                           nonce: "AAAAAAAAAAAAAAAAAAAAAA", bodyHash: RequestSigning.bodyHash(Self.postBody), signedHeaders: Self.postHeaders)
        #expect(sig == "7c21f7aaf2418b43a5b12ddf2e0c023a2685b25d2efc6f9126b95c4d53265c42")
    }

    @Test("a GET signs the query string exactly as sent, the hash of the empty body, and no headers")
    func knownAnswerGet() {
        let sig = RequestSigning.signature(secret: "s3cret-é", method: "GET", target: "/api/v1/routes?lookup=ab%20cd", timestamp: 1_700_000_000,
                                           nonce: "n0nce-with_16chr", bodyHash: RequestSigning.bodyHash(Data()), signedHeaders: [])
        #expect(sig == "c0eca8943891e4ad037db638af12f0b5fc4be4d8ccde2c3bedaf901a1fba969f")
    }

    @Test("the schemathesis signing hook (scripts/api/sign_requests.py) signs exactly as RequestSigning does")
    func pythonHookAgrees() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/api/sign_requests.py")
        let vectors: [(secret: String, method: String, target: String, nonce: String, body: Data, headers: [(name: String, value: String)])] = [
            ("s3cret-é", "post", "/api/v1/routes", "AAAAAAAAAAAAAAAAAAAAAA", Self.postBody, Self.postHeaders),
            ("s3cret-é", "GET", "/api/v1/routes?lookup=ab%20cd", "n0nce-with_16chr", Data(), []),
            ("k", "DELETE", "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA", RequestSigning.randomNonce(), Data(),
             [("x-delete-token", String(repeating: "ab", count: 32))]),
            ("another secret", "POST", "/route", RequestSigning.randomNonce(), Data((0..<300).map { UInt8($0 % 256) }),
             [("x-route-lookup", " \(String(repeating: "c", count: 64)) "), ("x-delete-token-hash", String(repeating: "d", count: 64)),
              ("content-type", "text/plain"), ("idempotency-key", "ünïcödé?")]),
        ]
        for vector in vectors {
            let input: [String: Any] = [
                "secret": vector.secret, "method": vector.method, "target": vector.target, "timestamp": 1_700_000_123,
                "nonce": vector.nonce, "body_base64": vector.body.base64EncodedString(), "headers": vector.headers.map { [$0.name, $0.value] },
            ]
            let argument = String(decoding: try JSONSerialization.data(withJSONObject: input), as: UTF8.self)
            let output = try Self.run(["python3", script.path, "--vector", argument])
            let python = try #require(try JSONSerialization.jsonObject(with: output) as? [String: String])
            let bodyHash = RequestSigning.bodyHash(vector.body)
            #expect(python["string_to_sign"] == RequestSigning.stringToSign(
                method: vector.method, target: vector.target, timestamp: 1_700_000_123, nonce: vector.nonce, bodyHash: bodyHash, signedHeaders: vector.headers))
            #expect(python["signature"] == RequestSigning.signature(
                secret: vector.secret, method: vector.method, target: vector.target, timestamp: 1_700_000_123, nonce: vector.nonce,
                bodyHash: bodyHash, signedHeaders: vector.headers), "\(vector.method) \(vector.target)")
        }
        // And the known answer of knownAnswerPost, from the hook itself.
        let fixed = try Self.run(["python3", script.path, "--vector",
                                  #"{"secret": "s3cret-é", "method": "post", "target": "/api/v1/routes", "timestamp": 1700000000, "nonce": "AAAAAAAAAAAAAAAAAAAAAA", "body_base64": "eyJsb29rdXAiOiJ4In0=", "headers": [["content-type", "  application/json\t"], ["idempotency-key", "idem-1"]]}"#])
        let answer = try #require(try JSONSerialization.jsonObject(with: fixed) as? [String: String])
        #expect(answer["signature"] == "7c21f7aaf2418b43a5b12ddf2e0c023a2685b25d2efc6f9126b95c4d53265c42")
    }

    @Test("the signing headers carry the key, the timestamp, the nonce, the signed header names in order, and a signature that verifies")
    func headers() throws {
        let body = Data("{}".utf8)
        let now = Date(timeIntervalSince1970: 1_700_000_000.9)
        let headers = RequestSigning.headers(key: "wmk_1", secret: "k", method: "POST", target: "/api/v1/routes", body: body,
                                             headers: [("Idempotency-Key", "i-1"), ("Content-Type", "application/json")],
                                             now: now, nonce: "fixed-nonce-0123456789")
        let byName = Dictionary(headers, uniquingKeysWith: { first, _ in first })
        #expect(headers.map(\.0) == [APIHeader.key, APIHeader.timestamp, APIHeader.nonce, APIHeader.signedHeaders, APIHeader.signature])
        #expect(byName[APIHeader.key] == "wmk_1")
        #expect(byName[APIHeader.timestamp] == "1700000000")
        #expect(byName[APIHeader.nonce] == "fixed-nonce-0123456789")
        #expect(byName[APIHeader.signedHeaders] == "idempotency-key;content-type")
        let signed: [(name: String, value: String)] = [("idempotency-key", "i-1"), ("content-type", "application/json")]
        #expect(RequestSigning.verify(presented: try #require(byName[APIHeader.signature]), secret: "k", method: "POST", target: "/api/v1/routes",
                                      timestamp: 1_700_000_000, nonce: "fixed-nonce-0123456789", bodyHash: RequestSigning.bodyHash(body), signedHeaders: signed))
        // No headers to sign: the list is empty, not missing.
        let bare = RequestSigning.headers(key: "wmk_1", secret: "k", method: "GET", target: "/x", body: Data(), now: now, nonce: "fixed-nonce-0123456789")
        #expect(Dictionary(bare, uniquingKeysWith: { first, _ in first })[APIHeader.signedHeaders] == "")
    }

    @Test("verification accepts the right signature and refuses any change, the nonce and the signed headers included")
    func verify() {
        let hash = RequestSigning.bodyHash(Data("{}".utf8))
        let nonce = "0123456789abcdef"
        let headers: [(name: String, value: String)] = [("idempotency-key", "a")]
        let sig = RequestSigning.signature(secret: "k", method: "POST", target: "/route", timestamp: 5, nonce: nonce, bodyHash: hash, signedHeaders: headers)
        func check(_ presented: String = sig, secret: String = "k", target: String = "/route", timestamp: Int = 5, nonce: String = nonce,
                   headers: [(name: String, value: String)] = headers) -> Bool {
            RequestSigning.verify(presented: presented, secret: secret, method: "POST", target: target, timestamp: timestamp, nonce: nonce,
                                  bodyHash: hash, signedHeaders: headers)
        }
        #expect(check())
        #expect(check(headers: [("idempotency-key", " a ")]), "values are trimmed")
        #expect(!check(secret: "K"))
        #expect(!check(target: "/route?x"))
        #expect(!check(timestamp: 6))
        #expect(!check(nonce: "0123456789abcdeF"))
        #expect(!check(headers: [("idempotency-key", "b")]))
        #expect(!check(headers: []))
        #expect(!check(headers: [("idempotency-key", "a"), ("content-type", "text/plain")]))
        #expect(!check(String(sig.dropLast())))
        #expect(!check(sig.uppercased()))
    }

    @Test("nonces: 16 to 64 characters of A-Za-z0-9_-; fresh ones are 22 characters and differ")
    func nonces() {
        #expect(RequestSigning.isValidNonce(String(repeating: "a", count: 16)))
        #expect(RequestSigning.isValidNonce(String(repeating: "Z", count: 64)))
        #expect(RequestSigning.isValidNonce("AZaz09_-AZaz09_-"))
        #expect(!RequestSigning.isValidNonce(String(repeating: "a", count: 15)))
        #expect(!RequestSigning.isValidNonce(String(repeating: "a", count: 65)))
        #expect(!RequestSigning.isValidNonce("0123456789abcde+"))
        #expect(!RequestSigning.isValidNonce("0123456789abcdé"))
        let fresh = (0..<100).map { _ in RequestSigning.randomNonce() }
        #expect(fresh.allSatisfy { $0.count == 22 && RequestSigning.isValidNonce($0) })
        #expect(Set(fresh).count == 100)
    }

    @Test("the constant-time comparison is a real comparison")
    func constantTime() {
        #expect(RequestSigning.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!RequestSigning.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!RequestSigning.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!RequestSigning.constantTimeEqual([], [0]))
    }

    @Test("the DTOs use the wire names of the API")
    func wireNames() throws {
        let created = try JSONEncoder().encode(RouteCreated(routeID: "r1", creationTime: 42))
        let object = try JSONSerialization.jsonObject(with: created) as? [String: Any]
        #expect(object?["route_id"] as? String == "r1")
        #expect(object?["creation_time"] as? Int == 42)
        #expect("0832aec4cf3af89448d2c968b2ce67863c57e9c39957fadeb938091279f661a4".isLowercaseHex64)
        #expect(!"0832AEC4cf3af89448d2c968b2ce67863c57e9c39957fadeb938091279f661a4".isLowercaseHex64)
        #expect(!"abc".isLowercaseHex64)
    }

    /// Runs a command and returns its standard output; fails the test when it fails.
    static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(arguments.prefix(2).joined(separator: " ")) exited \(process.terminationStatus)")
        return output
    }
}
