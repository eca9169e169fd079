import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

@Suite("Over a real socket")
struct LiveServerTests {
    @Test("A real HTTP server signs, stores, limits bodies and answers JSON errors", arguments: TestDatabase.all)
    func live(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let live = try server.app.testing(method: .running(port: 0))
            func send(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) async throws -> TestingHTTPResponse {
                var all = headers
                all.add(contentsOf: server.signature(method, target, body: body, headers: headers))
                return try await live.performTest(request: TestingHTTPRequest(
                    method: method, url: URI(string: target), headers: all, body: ByteBuffer(bytes: body)
                ))
            }
            let sample = try Sample.request()
            let created = try await send(.POST, "/api/v1/routes", body: Sample.json(sample.request))
            #expect(created.status == .created)
            let found = try await send(.GET, "/api/v1/routes?lookup=\(sample.request.lookup)")
            #expect(found.status == .ok)
            #expect(try found.decode(RouteRecord.self).envelope == sample.request.envelope)

            let tooBig = try await send(.POST, "/api/v1/routes", body: [UInt8](repeating: 0x20, count: ServerConfiguration.maxBodySize + 1024))
            #expect(tooBig.status == .payloadTooLarge)
            #expect(try tooBig.apiError().error == "payload_too_large")

            // The declared size is refused before anything else, signed or not.
            let unsignedTooBig = try await live.performTest(request: TestingHTTPRequest(
                method: .POST, url: "/route", headers: [:], body: ByteBuffer(bytes: [UInt8](repeating: 0x41, count: ServerConfiguration.maxBodySize + 1))
            ))
            #expect(unsignedTooBig.status == .payloadTooLarge)
            #expect(try unsignedTooBig.apiError().error == "payload_too_large")

            let longKey = try await send(.POST, "/api/v1/routes", headers: [APIHeader.idempotencyKey: String(repeating: "k", count: 16_000)],
                                         body: Sample.json(sample.request))
            #expect(longKey.status == .badRequest)

            let unknown = try await live.performTest(request: TestingHTTPRequest(method: .GET, url: "/no/such/page", headers: [:], body: ByteBuffer()))
            #expect(unknown.status == .notFound)
            #expect(try unknown.apiError().error == "not_found")
        }
    }
}
