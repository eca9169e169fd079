import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

@Suite("Idempotency-Key: retries never store a second route")
struct IdempotencyTests {
    @Test("A retry with the same key answers the same 201 and stores nothing new", arguments: TestDatabase.all)
    func retry(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let body = try Sample.json(Sample.request().request)
            let key: HTTPHeaders = [APIHeader.idempotencyKey: "upload-\(UUID().uuidString)"]
            let first = try await server.signed(.POST, "/api/v1/routes", headers: key, body: body)
            #expect(first.status == .created)
            // A retry in the same second (a client retrying after a lost answer): a new request with
            // a fresh nonce and the same Idempotency-Key.
            let second = try await server.signed(.POST, "/api/v1/routes", headers: key, body: body)
            #expect(second.status == .created)
            #expect(try second.decode(RouteCreated.self) == first.decode(RouteCreated.self))
            #expect(try await server.routeCount() == 1)

            // The same content re-encoded (other key order, spacing) is still the same request.
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            let reencoded = Array(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]))
            let third = try await server.signed(.POST, "/api/v1/routes", headers: key, body: reencoded)
            #expect(try third.decode(RouteCreated.self) == first.decode(RouteCreated.self))
            #expect(try await server.routeCount() == 1)
        }
    }

    @Test("The same key with a different body is 409 idempotency_key_reused", arguments: TestDatabase.all)
    func reusedKey(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let key: HTTPHeaders = [APIHeader.idempotencyKey: "k-\(UUID().uuidString)"]
            let first = try await server.signed(.POST, "/api/v1/routes", headers: key, body: Sample.json(Sample.request().request))
            #expect(first.status == .created)
            let other = try await server.signed(.POST, "/api/v1/routes", headers: key, body: Sample.json(Sample.request().request))
            #expect(other.status == .conflict)
            #expect(try other.apiError().error == "idempotency_key_reused")
            #expect(try await server.routeCount() == 1)
        }
    }

    @Test("Keys are per consumer: another consumer's same key stores its own route", arguments: TestDatabase.all)
    func perConsumer(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let body = try Sample.json(Sample.request().request)
            let key: HTTPHeaders = [APIHeader.idempotencyKey: "shared-key"]
            let mine = try await server.signed(.POST, "/api/v1/routes", headers: key, body: body).decode(RouteCreated.self)
            let other = try await server.makeConsumer(name: "other")
            let theirs = try await server.signed(.POST, "/api/v1/routes", headers: key, body: body, as: other).decode(RouteCreated.self)
            #expect(mine.routeID != theirs.routeID)
            #expect(try await server.routeCount() == 1)
            #expect(try await server.routeCount(of: other) == 1)
        }
    }

    @Test("20 parallel retries (same key and body, each with its own nonce): one route, twenty 201s with its id", arguments: TestDatabase.all)
    func parallelIdentical(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let body = try Sample.json(Sample.request().request)
            let key: HTTPHeaders = [APIHeader.idempotencyKey: "parallel-\(UUID().uuidString)"]
            let tester = try server.app.testing()
            let answers = try await withThrowingTaskGroup(of: (HTTPStatus, String).self) { group in
                for _ in 0..<20 {
                    var headers = key
                    headers.add(contentsOf: server.signature(.POST, "/api/v1/routes", body: body, headers: key))
                    let request = TestingHTTPRequest(method: .POST, url: URI(string: "/api/v1/routes"), headers: headers, body: ByteBuffer(bytes: body))
                    group.addTask {
                        let response = try await tester.performTest(request: request)
                        return (response.status, response.text)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 20)
            #expect(answers.allSatisfy { $0.0 == .created }, "\(answers.filter { $0.0 != .created })")
            let ids = Set(try answers.map { try JSONDecoder().decode(RouteCreated.self, from: Data($0.1.utf8)).routeID })
            #expect(ids.count == 1)
            #expect(try await server.routeCount() == 1)
            let id = try #require(ids.first)
            #expect(try await server.signed(.GET, "/api/v1/routes/\(id)").status == .ok)
        }
    }

    @Test("POST /route is idempotent the same way", arguments: TestDatabase.all)
    func base64Form(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sample = try Sample.request()
            let body = Array(sample.request.envelope.jsonData().base64EncodedString().utf8)
            let headers: HTTPHeaders = [APIHeader.idempotencyKey: "b64-\(UUID().uuidString)", APIHeader.routeLookup: sample.request.lookup]
            let first = try await server.signed(.POST, "/route", headers: headers, body: body)
            let second = try await server.signed(.POST, "/route", headers: headers, body: body)
            #expect(first.status == .created)
            #expect(try second.decode(RouteCreated.self) == first.decode(RouteCreated.self))
            #expect(try await server.routeCount() == 1)

            var otherLookup = headers
            otherLookup.replaceOrAdd(name: APIHeader.routeLookup, value: String(repeating: "c", count: 64))
            let conflict = try await server.signed(.POST, "/route", headers: otherLookup, body: body)
            #expect(conflict.status == .conflict)
        }
    }
}
