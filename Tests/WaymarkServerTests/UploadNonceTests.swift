import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

/// An upload records its nonce in the transaction that stores the route (one commit); these
/// check that no guarantee of the separate nonce commit was lost on the way.
@Suite("Uploads record their nonce with the route: replays are still refused, refused uploads still burn their nonce")
struct UploadNonceTests {
    @Test("The same signed upload sent 10 times at once: one 201, nine replayed_request, one route", arguments: TestDatabase.all)
    func parallelReplays(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let body = try Sample.json(Sample.request().request)
            for idempotent in [false, true] {
                var headers: HTTPHeaders = idempotent ? [APIHeader.idempotencyKey: "replayed-\(UUID().uuidString)"] : [:]
                headers.add(contentsOf: server.signature(.POST, "/api/v1/routes", body: body, headers: headers))
                let tester = try server.app.testing()
                let request = TestingHTTPRequest(method: .POST, url: URI(string: "/api/v1/routes"), headers: headers, body: ByteBuffer(bytes: body))
                let answers = try await withThrowingTaskGroup(of: (HTTPStatus, String).self) { group in
                    for _ in 0..<10 {
                        group.addTask {
                            let response = try await tester.performTest(request: request)
                            return (response.status, response.text)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.filter { $0.0 == .created }.count == 1, "\(answers)")
                #expect(answers.filter { $0.0 == .unauthorized && $0.1.contains("replayed_request") }.count == 9, "\(answers)")
            }
            #expect(try await server.routeCount() == 2)
        }
    }

    @Test("An upload refused after its signature checked out (400, 409, an idempotent retry) has used its nonce", arguments: TestDatabase.all)
    func refusedUploadsBurnTheirNonce(database: TestDatabase) async throws {
        try await withServer(database) { server in
            // A body that is not a route: 400, and the same request again is a replay.
            let bad = Array(#"{"envelope": 1}"#.utf8)
            let badHeaders = server.signature(.POST, "/api/v1/routes", body: bad)
            #expect(try await server.send(.POST, "/api/v1/routes", headers: badHeaders, body: bad).status == .badRequest)
            #expect(try await server.send(.POST, "/api/v1/routes", headers: badHeaders, body: bad).apiError().error == "replayed_request")

            // An Idempotency-Key reused with another body: 409, then replayed_request.
            let key: HTTPHeaders = [APIHeader.idempotencyKey: "burn-\(UUID().uuidString)"]
            #expect(try await server.signed(.POST, "/api/v1/routes", headers: key, body: Sample.json(Sample.request().request)).status == .created)
            let other = try Sample.json(Sample.request().request)
            var conflict = key
            conflict.add(contentsOf: server.signature(.POST, "/api/v1/routes", body: other, headers: key))
            #expect(try await server.send(.POST, "/api/v1/routes", headers: conflict, body: other).status == .conflict)
            #expect(try await server.send(.POST, "/api/v1/routes", headers: conflict, body: other).apiError().error == "replayed_request")

            // An idempotent retry answered from the record (nothing new stored): its nonce is used too.
            let first = try Sample.json(Sample.request().request)
            let retryKey: HTTPHeaders = [APIHeader.idempotencyKey: "retry-\(UUID().uuidString)"]
            #expect(try await server.signed(.POST, "/api/v1/routes", headers: retryKey, body: first).status == .created)
            var retry = retryKey
            retry.add(contentsOf: server.signature(.POST, "/api/v1/routes", body: first, headers: retryKey))
            #expect(try await server.send(.POST, "/api/v1/routes", headers: retry, body: first).status == .created)
            #expect(try await server.send(.POST, "/api/v1/routes", headers: retry, body: first).apiError().error == "replayed_request")

            // The nonce of a refused upload cannot be spent on another request either.
            let nonce = try #require(badHeaders.first(name: APIHeader.nonce))
            #expect(try await server.signed(.GET, "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA", nonce: nonce).apiError().error == "replayed_request")
            #expect(try await server.routeCount() == 2)
        }
    }
}
