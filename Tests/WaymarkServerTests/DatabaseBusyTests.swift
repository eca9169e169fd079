import Foundation
import Testing
import Vapor
import WaymarkAPI
@testable import WaymarkServer

@Suite("An overloaded database answers 503, which clients retry")
struct DatabaseBusyTests {
    @Test("No database connection free within the pool's wait is 503 busy with Retry-After, not 500")
    func poolTimeout() async throws {
        let app = try await Application.make(.testing)
        do {
            let request = Request(application: app, on: app.eventLoopGroup.next())
            let answer = JSONErrorMiddleware.response(for: ConnectionPoolTimeoutError.connectionRequestTimeout, request: request)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.headers.first(name: .retryAfter) == "5")
            let body = try JSONDecoder().decode(APIErrorBody.self, from: Data(buffer: try #require(answer.body.buffer)))
            #expect(body.error == "busy")
            try await app.asyncShutdown()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}
