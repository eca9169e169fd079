import Foundation
import Testing
import Vapor
import VaporTesting
@testable import WaymarkServer

@Suite("Body limits: 8 MiB, except for the uploads of photos")
struct BodySizeLimitTests {
    @Test("Which requests carry photos: a photo, a task's evidence, a rephotograph (one), a scene (two); nothing else")
    func photoRoutes() {
        #expect(BodySizeLimitMiddleware.photoCount(method: .POST, path: "/api/v1/photos") == 1)
        #expect(BodySizeLimitMiddleware.photoCount(method: .POST, path: "/api/v1/tasks/3f1c/photos") == 1)
        #expect(BodySizeLimitMiddleware.photoCount(method: .POST, path: "/api/v1/scenes/3f1c/photos") == 1)
        #expect(BodySizeLimitMiddleware.photoCount(method: .POST, path: "/api/v1/scenes") == 2)
        for (method, path) in [(HTTPMethod.PATCH, "/api/v1/photos"), (.POST, "/api/v1/tasks"), (.POST, "/api/v1/tasks//photos"),
                               (.POST, "/api/v1/paths"), (.POST, "/api/v1/photos/x"), (.POST, "/api/v1/tasks/x/photos/y"),
                               (.POST, "/api/v2/photos"), (.POST, "/x/api/v1/photos"), (.POST, "/")] {
            #expect(BodySizeLimitMiddleware.photoCount(method: method, path: path) == nil, "\(method) \(path)")
        }
    }

    @Test("A declared 9 MiB body reaches a photo upload route (401 here, signed out) but not a JSON route (413)", arguments: TestDatabase.all)
    func largeUploadsPass(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let body = [UInt8](repeating: 0x20, count: 9 * 1024 * 1024)
            let headers: HTTPHeaders = ["Content-Type": "multipart/form-data; boundary=x"]
            for path in ["/api/v1/scenes", "/api/v1/tasks/\(UUID())/photos", "/api/v1/scenes/\(UUID())/photos"] {
                let response = try await server.send(.POST, path, headers: headers, body: body)
                #expect(response.status == .unauthorized, "\(path): \(response.status)")
            }
            let paths = try await server.send(.POST, "/api/v1/paths", headers: ["Content-Type": "application/json"], body: body)
            #expect(paths.status == .payloadTooLarge)
        }
    }
}
