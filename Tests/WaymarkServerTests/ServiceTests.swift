import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer
import Yams

@Suite("Service endpoints, errors and consumer keys")
struct ServiceTests {
    @Test("GET /healthz answers without a signature", arguments: TestDatabase.all)
    func health(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let response = try await server.send(.GET, "/healthz")
            #expect(response.status == .ok)
            #expect(response.text == #"{"status":"ok"}"#)
            #expect(response.headers.contentType == .json)
        }
    }

    @Test("GET /openapi.yaml answers without a signature and describes every path, header and status")
    func openAPI() async throws {
        try await withServer(.sqlite) { server in
            let response = try await server.send(.GET, "/openapi.yaml")
            #expect(response.status == .ok)
            let text = response.text
            let document = try #require(try Yams.load(yaml: text) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            for path in ["/healthz", "/openapi.yaml", "/api/v1/routes", "/api/v1/routes/{route_id}", "/route"] {
                #expect(paths[path] != nil, "\(path)")
            }
            let components = try #require(document["components"] as? [String: [String: Any]])
            let parameters = (components["parameters"] ?? [:]).values.compactMap { ($0 as? [String: Any])?["name"] as? String }
                + paths.values.flatMap { item in
                    ([item["parameters"]] + item.values.map { ($0 as? [String: Any])?["parameters"] }).compactMap { $0 as? [[String: Any]] }.joined()
                        .compactMap { $0["name"] as? String }
                }
            let schemes = (components["securitySchemes"] ?? [:]).values.compactMap { ($0 as? [String: Any])?["name"] as? String }
            for header in ["X-API-Key", "X-API-Timestamp", "X-API-Nonce", "X-API-Signed-Headers", "X-API-Sig", "Idempotency-Key", "X-Route-Lookup", "X-Delete-Token-Hash", "X-Delete-Token"] {
                #expect(parameters.contains(header) || schemes.contains(header), "\(header)")
            }
            let statuses = Set(paths.values.flatMap { item in
                item.values.compactMap { ($0 as? [String: Any])?["responses"] as? [String: Any] }.flatMap(\.keys)
            })
            for status in ["200", "201", "204", "400", "401", "403", "404", "409", "413", "500"] {
                #expect(statuses.contains(status), "\(status)")
            }
            for code in ["missing_signature", "signature_version", "unsigned_header", "unknown_key", "bad_signature", "stale_timestamp", "replayed_request",
                         "idempotency_key_reused", "invalid_envelope", "not_deletable", "wrong_delete_token", "payload_too_large"] {
                #expect(text.contains(code), "\(code)")
            }
            for schema in ["CreateRouteRequest", "RouteCreated", "RouteRecord", "RouteEnvelope", "Error"] {
                #expect(components["schemas"]?[schema] != nil, "\(schema)")
            }
        }
    }

    @Test("Unknown paths are 404 JSON, signed or not", arguments: TestDatabase.all)
    func unknownRoutes(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for (method, target) in [(HTTPMethod.GET, "/nope"), (.GET, "/api/v1"), (.PUT, "/api/v2/routes"), (.GET, "/api/v2/routes/x")] {
                let unsigned = try await server.send(method, target)
                #expect(unsigned.status == .notFound, "\(method) \(target)")
                #expect(try unsigned.apiError().error == "not_found")
                #expect(try unsigned.apiError().reason.contains("openapi.yaml"))
                let signed = try await server.signed(method, target)
                #expect(signed.status == .notFound)
            }
        }
    }

    @Test("A known path asked with a method it does not serve is 405 JSON with Allow", arguments: TestDatabase.all)
    func wrongMethod(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for (method, target, allow) in [(HTTPMethod.PUT, "/api/v1/routes", "GET, POST"), (.PATCH, "/route", "POST"),
                                            (.POST, "/healthz", "GET"), (.PUT, "/api/v1/routes/abc", "GET, DELETE")] {
                let response = try await server.signed(method, target)
                #expect(response.status == .methodNotAllowed, "\(method) \(target)")
                #expect(response.headers.first(name: .allow) == allow)
                #expect(try response.apiError().error == "method_not_allowed")
            }
        }
    }

    @Test("ConsumerKeys creates, lists and revokes keys in the server's database", arguments: TestDatabase.all)
    func consumerKeys(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try await database.configuration(dataDirectory: directory)
        let keys = try await ConsumerKeys(configuration: configuration)
        let name = "phone-\(UUID().uuidString)"
        let created: (name: String, key: String, secret: String)
        do {
            created = try await keys.create(name: name)
            #expect(created.name == name)
            #expect(created.key.hasPrefix("wmk_"))
            #expect(created.secret.count >= 40)
            let listed = try #require(try await keys.list().first { $0.key == created.key })
            #expect(listed.name == name)
            #expect(!listed.revoked)
            #expect(abs(listed.created.timeIntervalSinceNow) < 60)
        } catch {
            try await keys.shutdown()
            throw error
        }
        try await keys.shutdown()

        // The server accepts the new key, until it is revoked.
        try await withServer(database, dataDirectory: directory) { server in
            let credentials = Credentials(key: created.key, secret: created.secret, id: UUID())
            let target = "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA"
            #expect(try await server.signed(.GET, target, as: credentials).status == .notFound)

            let revoker = try await ConsumerKeys(configuration: configuration)
            do {
                #expect(try await revoker.revoke(key: created.key))
                #expect(try await !revoker.revoke(key: "wmk_does-not-exist"))
                #expect(try await revoker.list().first { $0.key == created.key }?.revoked == true)
            } catch {
                try await revoker.shutdown()
                throw error
            }
            try await revoker.shutdown()
            #expect(try await server.signed(.GET, target, as: credentials).apiError().error == "unknown_key")
        }
    }
}
