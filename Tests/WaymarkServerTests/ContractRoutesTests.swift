import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
@testable import WaymarkServer

/// The route table is the contract (#28): handlers are bound by operationId, method, path and
/// security come from the contract, and a server whose handlers and operations disagree does not start.
@Suite("Handlers are bound to the contract's operations")
struct ContractRoutesTests {
    static let open = APIContract.Operation(id: "listThings", method: "GET", path: "/api/v1/things", security: [])
    static let owned = APIContract.Operation(id: "editThing", method: "PATCH", path: "/api/v1/things/{thing_id}",
                                             security: [["bearer"], ["sessionCookie"]])

    /// A bare application with `routes` bound on its root (anyone) and a group that answers 401 (a session).
    static func withTable(_ operations: [APIContract.Operation] = [open, owned], sessionGroup: Bool = true,
                          _ body: (Application, ContractRoutes) async throws -> Void) async throws {
        let app = try await Application.make(.testing)
        do {
            var groups: [ContractRoutes.Access: any RoutesBuilder] = [.anyone: app.routes]
            if sessionGroup { groups[.session] = app.routes.grouped(SignedInUser.required) }
            try await body(app, ContractRoutes(operations, groups: groups))
            try await app.asyncShutdown()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    @Test("Bound by id, a handler gets the contract's method and path, on the group of its security")
    func bound() async throws {
        try await Self.withTable { app, routes in
            routes.on("listThings") { _ in "all" }
            routes.on("editThing") { request in request.parameters.get("thing_id") ?? "" }
            try routes.verify(app.routes)
            #expect(Set(app.routes.all.map { "\($0.method.rawValue) \($0.path.map(\.description).joined(separator: "/"))" })
                == ["GET api/v1/things", "PATCH api/v1/things/:thing_id"])
            let listed = try await app.testing().performTest(request: TestingHTTPRequest(method: .GET, url: "/api/v1/things", headers: [:], body: ByteBuffer()))
            #expect(listed.status == .ok && listed.body.string == "all")
            let edited = try await app.testing().performTest(request: TestingHTTPRequest(method: .PATCH, url: "/api/v1/things/7", headers: [:], body: ByteBuffer()))
            #expect(edited.status == .unauthorized, "a session-only operation is behind the session group")
        }
    }

    @Test("An operation without a handler stops the server, naming it")
    func unbound() async throws {
        try await Self.withTable { app, routes in
            routes.on("listThings") { _ in "all" }
            #expect(throws: ContractRoutes.Problem.unbound(["editThing"])) { try routes.verify(app.routes) }
        }
    }

    @Test("A handler for an operation the contract lacks, or a second handler for one, stops the server")
    func unknownOrTwice() async throws {
        try await Self.withTable { app, routes in
            routes.on("listThings") { _ in "all" }
            routes.on("editThing") { _ in "edited" }
            routes.on("deleteThing") { _ in "gone" }
            #expect(throws: ContractRoutes.Problem.unknownOperation("deleteThing")) { try routes.verify(app.routes) }
        }
        try await Self.withTable { app, routes in
            routes.on("listThings") { _ in "all" }
            routes.on("listThings") { _ in "again" }
            routes.on("editThing") { _ in "edited" }
            #expect(throws: ContractRoutes.Problem.boundTwice("listThings")) { try routes.verify(app.routes) }
            #expect(app.routes.all.count == 2, "the second binding added no route")
        }
    }

    @Test("An area binds only its own file's operations: another area's operation stops the server, naming both")
    func otherArea() async throws {
        try await Self.withTable { app, routes in
            let things = routes.area("things", operations: ["listThings"])
            things.on("listThings") { _ in "all" }
            things.on("editThing") { _ in "edited" }
            #expect(throws: ContractRoutes.Problem.otherArea("editThing", "things")) { try routes.verify(app.routes) }
            #expect(app.routes.all.count == 1, "the other area's operation was not bound")
        }
    }

    @Test("Every contract file has one area of the server, and each area binds every operation of its file and no other")
    func everyFileHasItsArea() throws {
        #expect(serverAreas.map(\.contract).sorted() == APIContract.areas.sorted())
        var seen = Set<String>()
        for area in serverAreas {
            let ids = try APIContract.operationIDs(inFile: area.contract)
            #expect(seen.isDisjoint(with: ids), "\(area.contract).yaml shares operations with another file")
            seen.formUnion(ids)
        }
        #expect(seen == Set(try APIContract.operations().map(\.id)), "the files' operations are the merged contract's")
    }

    @Test("An API route registered past the contract stops the server; routes outside /api and /route do not")
    func outside() async throws {
        try await Self.withTable { app, routes in
            routes.on("listThings") { _ in "all" }
            routes.on("editThing") { _ in "edited" }
            app.get("bench", "floor") { _ in "ok" }
            try routes.verify(app.routes)
            app.delete("api", "v1", "things", ":thing_id") { _ in "gone" }
            app.post("route") { _ in "legacy" }
            #expect(throws: ContractRoutes.Problem.outsideContract(["DELETE /api/v1/things/:thing_id", "POST /route"])) { try routes.verify(app.routes) }
        }
    }

    @Test("Security the server has no group for stops the server")
    func security() async throws {
        let odd = APIContract.Operation(id: "odd", method: "GET", path: "/api/v1/odd", security: [["mutualTLS"]])
        try await Self.withTable([Self.open, odd]) { app, routes in
            routes.on("listThings") { _ in "all" }
            routes.on("odd") { _ in "odd" }
            #expect(throws: ContractRoutes.Problem.unsupportedSecurity("odd", [["mutualTLS"]])) { try routes.verify(app.routes) }
        }
        try await Self.withTable(sessionGroup: false) { app, routes in
            routes.on("listThings") { _ in "all" }
            routes.on("editThing") { _ in "edited" }
            #expect(throws: ContractRoutes.Problem.noGroup("editThing", .session)) { try routes.verify(app.routes) }
        }
    }

    @Test("On the real server, every operation is guarded as its contract's security says: without credentials 401 exactly where a session or a signature is required")
    func guardedAsContracted() async throws {
        let operations = try APIContract.operations()
        try await withServer(.sqlite) { server in
            for operation in operations where operation.id != "pairingPage" {
                let target = operation.segments.map { segment -> String in
                    switch segment {
                    case .constant(let value): value
                    case .parameter(let name): ["z", "x", "y"].contains(name) ? "0" : UUID().uuidString.lowercased()
                    }
                }.joined(separator: "/")
                let answer = try await server.send(HTTPMethod(rawValue: operation.method), "/" + target,
                                                   headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
                let access = try #require(ContractRoutes.Access(operation.security), "\(operation.id)")
                switch access {
                case .session, .signature, .owntracks:
                    #expect(answer.status == .unauthorized, "\(operation.id) \(operation.method) /\(target): \(answer.status)")
                case .anyone, .optionalSession:
                    #expect(answer.status != .unauthorized,
                            "\(operation.id) \(operation.method) /\(target): \(answer.status)")
                }
            }
        }
    }
}
