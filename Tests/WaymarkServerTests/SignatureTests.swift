import Fluent
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

@Suite("Request signing: every /api/v1 and /route request is signed (version 2)")
struct SignatureTests {
    static let unknownRoute = "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA"

    @Test("Missing signature headers are 401 missing_signature on every endpoint", arguments: TestDatabase.all)
    func missing(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let requests: [(HTTPMethod, String)] = [
                (.POST, "/api/v1/routes"), (.GET, "/api/v1/routes?lookup=\(String(repeating: "a", count: 64))"),
                (.GET, Self.unknownRoute), (.DELETE, Self.unknownRoute), (.POST, "/route"),
            ]
            for (method, target) in requests {
                let response = try await server.send(method, target)
                #expect(response.status == .unauthorized, "\(method) \(target)")
                #expect(try response.apiError().error == "missing_signature")
                // Only one of the five headers is not enough either.
                let partial = try await server.send(method, target, headers: [APIHeader.key: server.consumer.key])
                #expect(try partial.apiError().error == "missing_signature")
                // Nor all but X-API-Signed-Headers.
                var withoutList = server.signature(method, target)
                withoutList.remove(name: APIHeader.signedHeaders)
                #expect(try await server.send(method, target, headers: withoutList).apiError().error == "missing_signature")
            }
        }
    }

    @Test("A version-1 request (no X-API-Nonce) is 401 signature_version, saying that version 2 is required", arguments: TestDatabase.all)
    func versionOne(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sample = try Sample.request()
            let created = try await server.signed(.POST, "/api/v1/routes", body: Sample.json(sample.request)).decode(RouteCreated.self)
            let target = "/api/v1/routes/\(created.routeID)"
            // Signed exactly as version 1 did: METHOD\nPATH?QUERY\nTIMESTAMP\nhex(SHA-256(body)), no nonce.
            let timestamp = Int(Date().timeIntervalSince1970)
            let message = "GET\n\(target)\n\(timestamp)\n\(RequestSigning.bodyHash(Data()))"
            let mac = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: Data(server.consumer.secret.utf8)))
            let v1: HTTPHeaders = [
                APIHeader.key: server.consumer.key, APIHeader.timestamp: String(timestamp),
                APIHeader.signature: mac.map { String(format: "%02x", $0) }.joined(),
            ]
            let response = try await server.send(.GET, target, headers: v1)
            #expect(response.status == .unauthorized)
            let error = try response.apiError()
            #expect(error.error == "signature_version")
            #expect(error.reason.contains("version 2 is required"))
            #expect(error.reason.contains(APIHeader.nonce))
            // The same request signed with version 2 is answered.
            #expect(try await server.signed(.GET, target).status == .ok)
        }
    }

    @Test("A forged signature is 401 bad_signature: wrong secret, altered body, path, query, method, nonce or signed header", arguments: TestDatabase.all)
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

            let signedAsGet = server.signature(.GET, Self.unknownRoute)
            let asDelete = try await server.send(.DELETE, Self.unknownRoute, headers: signedAsGet)
            #expect(try asDelete.apiError().error == "bad_signature")

            // Another nonce than the one signed.
            var otherNonce = server.signature(.GET, Self.unknownRoute)
            otherNonce.replaceOrAdd(name: APIHeader.nonce, value: RequestSigning.randomNonce())
            #expect(try await server.send(.GET, Self.unknownRoute, headers: otherNonce).apiError().error == "bad_signature")

            // A signed Idempotency-Key changed after signing.
            let key: HTTPHeaders = [APIHeader.idempotencyKey: "signed-key"]
            var changedKey = server.signature(.POST, "/api/v1/routes", body: body, headers: key)
            changedKey.add(name: APIHeader.idempotencyKey, value: "other-key")
            #expect(try await server.send(.POST, "/api/v1/routes", headers: changedKey, body: body).apiError().error == "bad_signature")

            // X-API-Signed-Headers naming a header the request does not carry.
            let phantom = server.signature(.GET, Self.unknownRoute, headers: ["X-Something": "x"])
            let withPhantom = try await server.send(.GET, Self.unknownRoute, headers: phantom)
            #expect(try withPhantom.apiError().error == "bad_signature")
            #expect(try withPhantom.apiError().reason.contains("x-something"))

            var badTimestamp = server.signature(.GET, Self.unknownRoute)
            badTimestamp.replaceOrAdd(name: APIHeader.timestamp, value: "yesterday")
            let unreadable = try await server.send(.GET, Self.unknownRoute, headers: badTimestamp)
            #expect(unreadable.status == .unauthorized)
            #expect(try await server.routeCount() == 0)
        }
    }

    @Test("A nonce that is not 16 to 64 characters of A-Za-z0-9_- is refused", arguments: TestDatabase.all)
    func badNonce(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for nonce in ["short", String(repeating: "n", count: 65), "has a space in it!", "plus+plus+plus+plus"] {
                let response = try await server.signed(.GET, Self.unknownRoute, nonce: nonce)
                #expect(response.status == .unauthorized, "\(nonce)")
                #expect(try response.apiError().error == "bad_signature")
                #expect(try response.apiError().reason.contains(APIHeader.nonce))
            }
            for nonce in [String(repeating: "n", count: 16), String(repeating: "N", count: 64), "AZaz09_-AZaz09_-"] {
                #expect(try await server.signed(.GET, Self.unknownRoute, nonce: nonce).status == .notFound, "\(nonce)")
            }
        }
    }

    @Test("A timestamp more than 300 s away is 401 stale_timestamp; 298 s is fine", arguments: TestDatabase.all)
    func stale(database: TestDatabase) async throws {
        // The server's clock stands still, so that the window is checked to the second however
        // long a loaded machine takes between signing and reading a request.
        let now = Date()
        var dependencies = ServerDependencies.testing
        dependencies.clock = .fixed(now)
        try await withServer(database, dependencies: dependencies) { server in
            for offset in [-302.0, 302.0, -3600.0, 3600.0] {
                let response = try await server.signed(.GET, Self.unknownRoute, now: now.addingTimeInterval(offset))
                #expect(response.status == .unauthorized, "\(offset)")
                #expect(try response.apiError().error == "stale_timestamp")
            }
            for offset in [-298.0, 298.0] {
                #expect(try await server.signed(.GET, Self.unknownRoute, now: now.addingTimeInterval(offset)).status == .notFound)
            }
        }
    }

    @Test("Identical requests in the same second with different nonces all succeed: GETs, and a wrong delete token then the right one", arguments: TestDatabase.all)
    func identicalRequestsInOneSecond(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sample = try Sample.request()
            let created = try await server.signed(.POST, "/api/v1/routes", body: Sample.json(sample.request)).decode(RouteCreated.self)
            let target = "/api/v1/routes/\(created.routeID)"
            let second = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))

            // `waymark routes export` then `routes get`: the same GET twice in one second.
            for _ in 0..<3 {
                #expect(try await server.signed(.GET, target, now: second).status == .ok)
            }
            let lookup = "/api/v1/routes?lookup=\(sample.request.lookup)"
            #expect(try await server.signed(.GET, lookup, now: second).status == .ok)
            #expect(try await server.signed(.GET, lookup, now: second).status == .ok)

            // A wrong delete token, then the right one, within the same second.
            let wrongToken = String(repeating: "0", count: 64)
            let wrong = try await server.signed(.DELETE, target, headers: [APIHeader.deleteToken: wrongToken], now: second)
            #expect(wrong.status == .forbidden)
            #expect(try wrong.apiError().error == "wrong_delete_token")
            let right = try await server.signed(.DELETE, target, headers: [APIHeader.deleteToken: sample.deleteToken], now: second)
            #expect(right.status == .noContent)
            #expect(try await server.signed(.GET, target, now: second).status == .notFound)
        }
    }

    @Test("A repeated nonce is 401 replayed_request, whatever the request and even for an idempotent retry", arguments: TestDatabase.all)
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

            // The same nonce, signed afresh for another request, is refused too.
            let nonce = try #require(headers.first(name: APIHeader.nonce))
            let reused = try await server.signed(.GET, "/api/v1/routes?lookup=\(sample.request.lookup)", nonce: nonce)
            #expect(try reused.apiError().error == "replayed_request")

            // A replayed POST, with or without an Idempotency-Key, is refused: a retry has a new nonce.
            let postHeaders = server.signature(.POST, "/api/v1/routes", body: body)
            #expect(try await server.send(.POST, "/api/v1/routes", headers: postHeaders, body: body).status == .created)
            let postReplay = try await server.send(.POST, "/api/v1/routes", headers: postHeaders, body: body)
            #expect(try postReplay.apiError().error == "replayed_request")
            var idempotent: HTTPHeaders = [APIHeader.idempotencyKey: "replay-\(UUID().uuidString)"]
            idempotent.add(contentsOf: server.signature(.POST, "/api/v1/routes", body: body, headers: idempotent))
            #expect(try await server.send(.POST, "/api/v1/routes", headers: idempotent, body: body).status == .created)
            #expect(try await server.send(.POST, "/api/v1/routes", headers: idempotent, body: body).apiError().error == "replayed_request")
            #expect(try await server.routeCount() == 3)

            // A replayed DELETE is refused too.
            var deleteHeaders: HTTPHeaders = [APIHeader.deleteToken: sample.deleteToken]
            deleteHeaders.add(contentsOf: server.signature(.DELETE, target, headers: deleteHeaders))
            #expect(try await server.send(.DELETE, target, headers: deleteHeaders).status == .noContent)
            #expect(try await server.send(.DELETE, target, headers: deleteHeaders).apiError().error == "replayed_request")

            // Nonces are per consumer: another consumer may use the same one.
            let other = try await server.makeConsumer(name: "other")
            #expect(try await server.signed(.GET, Self.unknownRoute, as: other, nonce: nonce).status == .notFound)
        }
    }

    @Test("A header that must be signed but is not (Idempotency-Key, X-Delete-Token, Content-Type, …) is 401 unsigned_header", arguments: TestDatabase.all)
    func unsignedHeaders(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sample = try Sample.request()
            let body = try Sample.json(sample.request)
            let created = try await server.signed(.POST, "/api/v1/routes", body: body).decode(RouteCreated.self)
            let target = "/api/v1/routes/\(created.routeID)"

            // Idempotency-Key sent but not signed: a man in the middle could have changed it.
            var unsignedKey = server.signature(.POST, "/api/v1/routes", body: body)
            unsignedKey.add(name: APIHeader.idempotencyKey, value: "not-signed")
            let keyResponse = try await server.send(.POST, "/api/v1/routes", headers: unsignedKey, body: body)
            #expect(keyResponse.status == .unauthorized)
            #expect(try keyResponse.apiError().error == "unsigned_header")
            #expect(try keyResponse.apiError().reason.contains("idempotency-key"))
            #expect(try await server.routeCount() == 1)

            // X-Delete-Token sent but not signed: nothing is deleted.
            var unsignedToken = server.signature(.DELETE, target)
            unsignedToken.add(name: APIHeader.deleteToken, value: sample.deleteToken)
            let tokenResponse = try await server.send(.DELETE, target, headers: unsignedToken)
            #expect(tokenResponse.status == .unauthorized)
            #expect(try tokenResponse.apiError().error == "unsigned_header")
            #expect(try await server.signed(.GET, target).status == .ok)

            // The others: Content-Type, X-Route-Lookup, X-Delete-Token-Hash; signing one does not cover another.
            let base64 = Array(sample.request.envelope.jsonData().base64EncodedString().utf8)
            for (name, value) in [("Content-Type", "text/plain"), (APIHeader.routeLookup, sample.request.lookup),
                                  (APIHeader.deleteTokenHash, sample.request.deleteTokenHash)] {
                var headers: HTTPHeaders = [APIHeader.idempotencyKey: "b64-\(name)"]
                headers.add(contentsOf: server.signature(.POST, "/route", body: base64, headers: headers))
                headers.add(name: name, value: value)
                let response = try await server.send(.POST, "/route", headers: headers, body: base64)
                #expect(try response.apiError().error == "unsigned_header", "\(name)")
            }
            #expect(try await server.routeCount() == 1)

            // Signed, the same requests go through.
            let signedKey = try await server.signed(.POST, "/api/v1/routes", headers: [APIHeader.idempotencyKey: "signed", "Content-Type": "application/json"], body: body)
            #expect(signedKey.status == .created)
            let signedDelete = try await server.signed(.DELETE, target, headers: [APIHeader.deleteToken: sample.deleteToken])
            #expect(signedDelete.status == .noContent)
        }
    }

    @Test("The nonce store survives a restart of the server", arguments: TestDatabase.all)
    func replayAfterRestart(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let headers = try await withServer(database, dataDirectory: directory) { (server: TestServer) async throws -> HTTPHeaders in
            let headers = server.signature(.GET, Self.unknownRoute)
            #expect(try await server.send(.GET, Self.unknownRoute, headers: headers).status == .notFound)
            return headers
        }
        try await withServer(database, dataDirectory: directory) { server in
            // The first server's consumer signed this; its key lives on in the same database.
            let replay = try await server.send(.GET, Self.unknownRoute, headers: headers)
            #expect(try replay.apiError().error == "replayed_request")
        }
    }

    @Test("Unknown and revoked keys are 401 unknown_key", arguments: TestDatabase.all)
    func unknownAndRevoked(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let stranger = Credentials(key: "wmk_nobody", secret: "whatever", id: UUID())
            let unknown = try await server.signed(.GET, Self.unknownRoute, as: stranger)
            #expect(unknown.status == .unauthorized)
            #expect(try unknown.apiError().error == "unknown_key")

            let other = try await server.makeConsumer(name: "soon revoked")
            #expect(try await server.signed(.GET, Self.unknownRoute, as: other).status == .notFound)
            #expect(try await server.stores.consumers.revoke(apiKey: other.key, userID: nil, now: Date()))
            let revoked = try await server.signed(.GET, Self.unknownRoute, as: other)
            #expect(revoked.status == .unauthorized)
            #expect(try revoked.apiError().error == "unknown_key")
            // Other consumers are unaffected.
            #expect(try await server.signed(.GET, Self.unknownRoute).status == .notFound)
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

@Suite("Nonce store")
struct NonceStoreTests {
    @Test("Nonces are remembered per consumer until their window has passed, then purged", arguments: TestDatabase.all)
    func purge(database: TestDatabase) async throws {
        // A database of its own: purging with a clock in the future would remove the nonces of
        // tests running at the same time on the shared PostgreSQL database.
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (configuration, shared) = try await SignatureUpgradeTests.freshConfiguration(database, dataDirectory: directory)
        try await withApp { app in
            try await app.useDatabase(configuration)
            try await app.migrateDatabase()
            let store = FluentNonceStore(database: app.serverDatabase)
            let now = Int(Date().timeIntervalSince1970)
            let consumer = UUID(), other = UUID()
            let fresh = RequestSigning.randomNonce(), old = RequestSigning.randomNonce()
            #expect(try await store.recordFirstUse(consumerID: consumer, nonce: fresh, timestamp: now))
            #expect(try await !store.recordFirstUse(consumerID: consumer, nonce: fresh, timestamp: now), "inside its window a nonce is a replay")
            #expect(try await !store.recordFirstUse(consumerID: consumer, nonce: fresh, timestamp: now + 10), "whatever the timestamp")
            #expect(try await store.recordFirstUse(consumerID: other, nonce: fresh, timestamp: now), "per consumer")
            // An expired row may be purged at any moment (the server's purger runs at start and every
            // minute), and a request that old is refused as stale before the nonce store is asked.
            #expect(try await store.recordFirstUse(consumerID: consumer, nonce: old, timestamp: now - 1_000))

            try await store.purgeExpired(now: Date(timeIntervalSince1970: TimeInterval(now)))
            // The expired one is gone (so it records as new), the fresh one is still a replay.
            #expect(try await store.recordFirstUse(consumerID: consumer, nonce: old, timestamp: now - 1_000))
            #expect(try await !store.recordFirstUse(consumerID: consumer, nonce: fresh, timestamp: now))
            // Once the clock is past the fresh one's window, it goes too.
            try await store.purgeExpired(now: Date(timeIntervalSince1970: TimeInterval(now + RequestSigning.maxClockSkew + 2)))
            #expect(try await store.recordFirstUse(consumerID: consumer, nonce: fresh, timestamp: now + 400))
        }
        try await SignatureUpgradeTests.drop(configuration, from: shared)
    }
}

@Suite("Upgrading a version-1 database")
struct SignatureUpgradeTests {
    @Test("A database made before signature version 2 keeps its keys and routes, and answers version-2 requests", arguments: TestDatabase.all)
    func upgrade(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (configuration, shared) = try await Self.freshConfiguration(database, dataDirectory: directory)
        // The schema as it was: only the first migration, with a consumer, a route and a seen signature.
        let sample = try Sample.request()
        let (credentials, routeID) = try await withApp { app in
            try await app.useDatabase(configuration, migrations: [CreateWaymarkSchema()])
            try await app.migrateDatabase()
            // The consumers table of version 1 (no owner column).
            let credentials = Credentials(key: "wmk_" + RandomToken.make(bytes: 12), secret: RandomToken.make(bytes: 32), id: UUID())
            let sql = try #require(app.db as? any SQLDatabase)
            try await sql.insert(into: ConsumerModel.schema)
                .columns("id", "name", "api_key", "secret", "created_at")
                .values(SQLBind(credentials.id), SQLBind("from version 1"), SQLBind(credentials.key), SQLBind(credentials.secret), SQLBind(Date()))
                .run()
            let route = RouteModel(id: RouteID.random(), envelope: String(decoding: sample.request.envelope.jsonData(), as: UTF8.self),
                                   lookup: sample.request.lookup, deleteTokenHash: sample.request.deleteTokenHash,
                                   creationTime: 1_700_000_000, consumerID: credentials.id)
            try await route.create(on: app.quietDB)
            try await sql.insert(into: CreateWaymarkSchema.seenSignaturesSchema)
                .columns("id", "digest", "expires_at").values(SQLBind(UUID()), SQLBind(String(repeating: "e", count: 64)), SQLBind(Int64(1)))
                .run()
            return (credentials, try #require(route.id))
        }

        // The server of today migrates it at start.
        try await withBuiltApplication(configuration) { app in
            let server = TestServer(app: app, database: database, configuration: configuration, consumer: credentials)
            let found = try await server.signed(.GET, "/api/v1/routes/\(routeID)")
            #expect(found.status == .ok)
            #expect(try found.decode(RouteRecord.self).envelope == sample.request.envelope)
            #expect(try await server.signed(.GET, "/api/v1/routes?lookup=\(sample.request.lookup)").status == .ok)
            // The nonce store works; the old signature store is gone.
            let headers = server.signature(.GET, "/api/v1/routes/\(routeID)")
            #expect(try await server.send(.GET, "/api/v1/routes/\(routeID)", headers: headers).status == .ok)
            #expect(try await server.send(.GET, "/api/v1/routes/\(routeID)", headers: headers).apiError().error == "replayed_request")
            let sql = try #require(app.db as? any SQLDatabase)
            await #expect(throws: (any Error).self) {
                try await sql.raw("SELECT COUNT(*) FROM \(ident: CreateWaymarkSchema.seenSignaturesSchema)").all()
            }
            // The route can be deleted with its token, as before.
            #expect(try await server.signed(.DELETE, "/api/v1/routes/\(routeID)", headers: [APIHeader.deleteToken: sample.deleteToken]).status == .noContent)
        }
        try await Self.drop(configuration, from: shared)
    }

    /// SQLite: a new file in `dataDirectory`. PostgreSQL: a new database next to the shared one
    /// (which other tests have migrated already), and the shared one's configuration.
    static func freshConfiguration(_ database: TestDatabase, dataDirectory: URL) async throws -> (ServerConfiguration, ServerConfiguration) {
        let shared = try await database.configuration(dataDirectory: dataDirectory)
        guard let url = shared.databaseURL else { return (shared, shared) }
        var components = try #require(URLComponents(string: url))
        let name = "waymark_upgrade_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12))"
        try await withApp { app in
            try await app.useDatabase(shared, migrations: [])
            let sql = try #require(app.db as? any SQLDatabase)
            try await sql.raw("CREATE DATABASE \(ident: name)").run()
        }
        components.path = "/\(name)"
        return (ServerConfiguration(dataDirectory: dataDirectory, databaseURL: try #require(components.string)), shared)
    }

    /// Drops a database made by ``freshConfiguration(_:dataDirectory:)`` (nothing to do for SQLite).
    static func drop(_ configuration: ServerConfiguration, from shared: ServerConfiguration) async throws {
        guard let url = configuration.databaseURL, url != shared.databaseURL, let components = URLComponents(string: url) else { return }
        let name = String(components.path.dropFirst())
        try await withApp { app in
            try await app.useDatabase(shared, migrations: [])
            let sql = try #require(app.db as? any SQLDatabase)
            try await sql.raw("DROP DATABASE IF EXISTS \(ident: name) WITH (FORCE)").run()
        }
    }
}
