import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

@Suite("Request signing: every /api/v1 and /route request is signed")
struct SignatureTests {
    @Test("Missing signature headers are 401 missing_signature on every endpoint", arguments: TestDatabase.all)
    func missing(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let requests: [(HTTPMethod, String)] = [
                (.POST, "/api/v1/routes"), (.GET, "/api/v1/routes?lookup=\(String(repeating: "a", count: 64))"),
                (.GET, "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA"), (.DELETE, "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA"), (.POST, "/route"),
            ]
            for (method, target) in requests {
                let response = try await server.send(method, target)
                #expect(response.status == .unauthorized, "\(method) \(target)")
                #expect(try response.apiError().error == "missing_signature")
                // Only one of the three headers is not enough either.
                let partial = try await server.send(method, target, headers: [APIHeader.key: server.consumer.key])
                #expect(try partial.apiError().error == "missing_signature")
            }
        }
    }

    @Test("A forged signature is 401 bad_signature: wrong secret, altered body, path, query or method", arguments: TestDatabase.all)
    func forged(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let body = try Sample.json(Sample.request().request)
            var wrongSecret = server.consumer
            wrongSecret.secret = "not the secret"
            let withWrongSecret = try await server.signed(.POST, "/api/v1/routes", body: body, as: wrongSecret)
            #expect(withWrongSecret.status == .unauthorized)
            #expect(try withWrongSecret.apiError().error == "bad_signature")

            var alteredBody = body
            alteredBody[alteredBody.count - 3] ^= 0x01
            let signedForOriginal = server.signature(.POST, "/api/v1/routes", body: body)
            let tampered = try await server.send(.POST, "/api/v1/routes", headers: signedForOriginal, body: alteredBody)
            #expect(try tampered.apiError().error == "bad_signature")

            let lookup = String(repeating: "a", count: 64)
            let signedForOtherQuery = server.signature(.GET, "/api/v1/routes?lookup=\(String(repeating: "b", count: 64))")
            let otherQuery = try await server.send(.GET, "/api/v1/routes?lookup=\(lookup)", headers: signedForOtherQuery)
            #expect(try otherQuery.apiError().error == "bad_signature")

            let signedWithoutQuery = server.signature(.GET, "/api/v1/routes")
            let queryAdded = try await server.send(.GET, "/api/v1/routes?lookup=\(lookup)", headers: signedWithoutQuery)
            #expect(try queryAdded.apiError().error == "bad_signature")

            let signedAsGet = server.signature(.GET, "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA")
            let asDelete = try await server.send(.DELETE, "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA", headers: signedAsGet)
            #expect(try asDelete.apiError().error == "bad_signature")

            var badTimestamp = server.signature(.GET, "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA")
            badTimestamp.replaceOrAdd(name: APIHeader.timestamp, value: "yesterday")
            let unreadable = try await server.send(.GET, "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA", headers: badTimestamp)
            #expect(unreadable.status == .unauthorized)
            #expect(try await server.routeCount() == 0)
        }
    }

    @Test("A timestamp more than 300 s away is 401 stale_timestamp; 290 s is fine", arguments: TestDatabase.all)
    func stale(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let target = "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA"
            for offset in [-302.0, 302.0, -3600.0, 3600.0] {
                let response = try await server.signed(.GET, target, now: Date().addingTimeInterval(offset))
                #expect(response.status == .unauthorized, "\(offset)")
                #expect(try response.apiError().error == "stale_timestamp")
            }
            for offset in [-290.0, 290.0] {
                #expect(try await server.signed(.GET, target, now: Date().addingTimeInterval(offset)).status == .notFound)
            }
        }
    }

    @Test("A replayed signature is 401 replayed_request", arguments: TestDatabase.all)
    func replayed(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sample = try Sample.request()
            let body = try Sample.json(sample.request)
            let created = try await server.signed(.POST, "/api/v1/routes", body: body).decode(RouteCreated.self)
            let target = "/api/v1/routes/\(created.routeID)"

            let headers = server.signature(.GET, target)
            #expect(try await server.send(.GET, target, headers: headers).status == .ok)
            let replay = try await server.send(.GET, target, headers: headers)
            #expect(replay.status == .unauthorized)
            #expect(try replay.apiError().error == "replayed_request")

            // A replayed POST without an Idempotency-Key would store a second route: refused.
            let postHeaders = server.signature(.POST, "/api/v1/routes", body: body)
            #expect(try await server.send(.POST, "/api/v1/routes", headers: postHeaders, body: body).status == .created)
            let postReplay = try await server.send(.POST, "/api/v1/routes", headers: postHeaders, body: body)
            #expect(try postReplay.apiError().error == "replayed_request")
            #expect(try await server.routeCount() == 2)

            // A replayed DELETE is refused too.
            let deleteHeaders = server.signature(.DELETE, target).merging([APIHeader.deleteToken: sample.deleteToken])
            #expect(try await server.send(.DELETE, target, headers: deleteHeaders).status == .noContent)
            #expect(try await server.send(.DELETE, target, headers: deleteHeaders).apiError().error == "replayed_request")
        }
    }

    @Test("The replay store survives a restart of the server", arguments: TestDatabase.all)
    func replayAfterRestart(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA"
        let headers = try await withServer(database, dataDirectory: directory) { (server: TestServer) async throws -> HTTPHeaders in
            let headers = server.signature(.GET, target)
            #expect(try await server.send(.GET, target, headers: headers).status == .notFound)
            return headers
        }
        try await withServer(database, dataDirectory: directory) { server in
            // The first server's consumer signed this; its key lives on in the same database.
            let replay = try await server.send(.GET, target, headers: headers)
            #expect(try replay.apiError().error == "replayed_request")
        }
    }

    @Test("Unknown and revoked keys are 401 unknown_key", arguments: TestDatabase.all)
    func unknownAndRevoked(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let target = "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA"
            let stranger = Credentials(key: "wmk_nobody", secret: "whatever", id: UUID())
            let unknown = try await server.signed(.GET, target, as: stranger)
            #expect(unknown.status == .unauthorized)
            #expect(try unknown.apiError().error == "unknown_key")

            let other = try await server.makeConsumer(name: "soon revoked")
            #expect(try await server.signed(.GET, target, as: other).status == .notFound)
            #expect(try await ConsumerDirectory(database: server.app.quietDB).revoke(apiKey: other.key))
            let revoked = try await server.signed(.GET, target, as: other)
            #expect(revoked.status == .unauthorized)
            #expect(try revoked.apiError().error == "unknown_key")
            // Other consumers are unaffected.
            #expect(try await server.signed(.GET, target).status == .notFound)
        }
    }
}

extension HTTPHeaders {
    func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        merged.add(contentsOf: other)
        return merged
    }
}

@Suite("Replay store")
struct ReplayStoreTests {
    @Test("Signatures are remembered until their window has passed, then purged", arguments: TestDatabase.all)
    func purge(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let store = ReplayStore(database: server.app.quietDB)
            let now = Int(Date().timeIntervalSince1970)
            let key = "purge-test-\(UUID().uuidString)"
            #expect(try await store.recordFirstUse(apiKey: key, signature: "fresh", timestamp: now))
            #expect(try await !store.recordFirstUse(apiKey: key, signature: "fresh", timestamp: now), "inside its window a signature is a replay")
            // An expired row may be purged at any moment (the server's purger runs at start and every
            // minute), and a request that old is refused as stale before the replay store is asked.
            #expect(try await store.recordFirstUse(apiKey: key, signature: "old", timestamp: now - 1_000))

            try await store.purgeExpired()
            // The expired one is gone (so it records as new), the fresh one is still a replay.
            #expect(try await store.recordFirstUse(apiKey: key, signature: "old", timestamp: now - 1_000))
            #expect(try await !store.recordFirstUse(apiKey: key, signature: "fresh", timestamp: now))
        }
    }
}
