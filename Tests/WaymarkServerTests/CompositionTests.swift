import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
import Yams
@testable import WaymarkServer

/// A route store in memory, to show that the server takes whatever store it is given.
final class MemoryRouteStore: RouteStore, Sendable {
    private let routes = NIOLockedValueBox<[String: (route: WaymarkServer.StoredRoute, lookup: String?)]>([:])
    let clock: WallClock

    init(clock: WallClock) {
        self.clock = clock
    }

    var count: Int { routes.withLockedValue { $0.count } }

    func create(_ route: NewRoute, consumerID: UUID, idempotencyKey: String?, nonce: NonceClaim?) async throws -> CreateOutcome {
        let created = RouteCreated(routeID: RouteID.random(), creationTime: clock.unixSeconds)
        let stored = WaymarkServer.StoredRoute(id: created.routeID, envelopeJSON: String(decoding: route.envelope.jsonData(), as: UTF8.self),
                                 creationTime: created.creationTime, deleteTokenHash: route.deleteTokenHash)
        routes.withLockedValue { $0[created.routeID] = (stored, route.lookup) }
        return .created(created)
    }

    func route(id: String) async throws -> WaymarkServer.StoredRoute? { routes.withLockedValue { $0[id]?.route } }

    func route(lookup: String) async throws -> WaymarkServer.StoredRoute? {
        routes.withLockedValue { all in all.values.filter { $0.lookup == lookup }.map(\.route).max { $0.creationTime < $1.creationTime } }
    }

    func delete(id: String) async throws { routes.withLockedValue { $0[id] = nil } }
}

/// Field paths in memory: the paths area takes whatever store it is given.
final class MemoryFieldPathStore: FieldPathStore, Sendable {
    private let paths = NIOLockedValueBox<[StoredFieldPath]>([])

    var count: Int { paths.withLockedValue { $0.count } }

    func insert(_ path: StoredFieldPath) async throws { paths.withLockedValue { $0.append(path) } }
    func path(id: UUID, owner: UUID) async throws -> StoredFieldPath? { paths.withLockedValue { $0.first { $0.id == id && $0.ownerID == owner } } }
    func path(owner: UUID, idempotencyKey: String) async throws -> StoredFieldPath? {
        paths.withLockedValue { $0.first { $0.ownerID == owner && $0.idempotencyKey == idempotencyKey } }
    }
    func paths(owner: UUID) async throws -> [StoredFieldPath] {
        paths.withLockedValue { $0.filter { $0.ownerID == owner }.map { var summary = $0; summary.points = nil; return summary } }
    }
    func delete(id: UUID, owner: UUID) async throws -> Bool {
        paths.withLockedValue { all in
            let before = all.count
            all.removeAll { $0.id == id && $0.ownerID == owner }
            return all.count < before
        }
    }
}

/// The database's task store with every task's creation counted: the task area uses the store
/// it is given, with the photo area's claims asked through it too.
final class CountingTaskStore: TaskStore, Sendable {
    let base: any TaskStore
    private let calls = NIOLockedValueBox<[String: Int]>([:])

    init(_ base: any TaskStore) { self.base = base }

    func count(_ name: String) -> Int { calls.withLockedValue { $0[name, default: 0] } }
    private func called(_ name: String) { calls.withLockedValue { $0[name, default: 0] += 1 } }

    func create(_ task: NewTask) async throws -> UUID { called("create"); return try await base.create(task) }
    func task(createdBy officer: UUID, idempotencyKey: String) async throws -> TaskRecord? { try await base.task(createdBy: officer, idempotencyKey: idempotencyKey) }
    func task(id: UUID) async throws -> TaskRecord? { called("task"); return try await base.task(id: id) }
    func tasks(assignee: UUID?, status: TaskStatus?) async throws -> [TaskRecord] { called("tasks"); return try await base.tasks(assignee: assignee, status: status) }
    func photos(of task: UUID) async throws -> [TaskPhotoLink] { try await base.photos(of: task) }
    func link(photo: UUID) async throws -> (task: UUID, sent: Bool)? { try await base.link(photo: photo) }
    func apply(_ event: TaskEvent, task id: UUID, actor: UUID, reason: String?) async throws -> TaskChange {
        called("apply"); return try await base.apply(event, task: id, actor: actor, reason: reason)
    }
    func setNote(_ note: String, task id: UUID) async throws -> Bool { try await base.setNote(note, task: id) }
    func add(photo: UUID, to id: UUID) async throws -> TaskPhotoChange { try await base.add(photo: photo, to: id) }
    func remove(photo: UUID, from id: UUID) async throws -> TaskPhotoChange { try await base.remove(photo: photo, from: id) }
    func history(of task: UUID) async throws -> [TaskHistoryEntry] { try await base.history(of: task) }
    func isSent(photoID: UUID, on sql: any SQLDatabase, lock: Bool) async throws -> Bool { try await base.isSent(photoID: photoID, on: sql, lock: lock) }
    func isTaskPhoto(photoID: UUID, on sql: any SQLDatabase) async throws -> Bool { try await base.isTaskPhoto(photoID: photoID, on: sql) }
}

@Suite("The server is composed by buildApplication from swappable stores")
struct CompositionTests {
    @Test("A route store swapped for one in memory serves the route API; the database's routes table stays empty", arguments: TestDatabase.all)
    func swappedRouteStore(database: TestDatabase) async throws {
        // The server's clock stands still; the requests are signed at its time, so that a test
        // slowed past the signature's 300 s window by a busy machine is not refused as stale.
        let clock = WallClock.fixed(Date())
        let memory = MemoryRouteStore(clock: clock)
        var dependencies = ServerDependencies.testing
        dependencies.clock = clock
        dependencies.makeStores = { database, clock in
            var stores = ServerStores.fluent(database, clock: clock)
            stores.routes = memory
            return stores
        }
        try await withServer(database, dependencies: dependencies) { server in
            let sample = try Sample.request()
            let created = try await server.signed(.POST, "/api/v1/routes", body: Sample.json(sample.request), now: clock.now())
            #expect(created.status == .created)
            let id = try created.decode(RouteCreated.self)
            #expect(id.creationTime == clock.unixSeconds, "the injected clock stamps the route")
            #expect(memory.count == 1)
            #expect(try await server.routeCount() == 0, "nothing reached the database's routes table")
            let found = try await server.signed(.GET, "/api/v1/routes?lookup=\(sample.request.lookup)", now: clock.now())
            #expect(try found.decode(RouteRecord.self).envelope == sample.request.envelope)
            #expect(try await server.signed(.DELETE, "/api/v1/routes/\(id.routeID)", headers: [APIHeader.deleteToken: sample.deleteToken], now: clock.now()).status == .noContent)
            #expect(memory.count == 0)
        }
    }

    @Test("The areas built later take their stores from the dependencies too: paths kept in memory, tasks through a counting store", arguments: TestDatabase.all)
    func swappedAreaStores(database: TestDatabase) async throws {
        let paths = MemoryFieldPathStore()
        let counted = NIOLockedValueBox<CountingTaskStore?>(nil)
        var dependencies = ServerDependencies.testing
        dependencies.makeStores = { database, clock in
            var stores = ServerStores.fluent(database, clock: clock)
            stores.paths = paths
            let tasks = CountingTaskStore(stores.tasks)
            counted.withLockedValue { $0 = tasks }
            stores.tasks = tasks
            return stores
        }
        try await withServer(database, dependencies: dependencies) { server in
            let walker = try await server.register(uniqueName("walker"))
            let body = Array(#"{"name":"Meadow","points":[[46.05,14.5,null,1780000000],[46.051,14.5,null,1780000060],[46.051,14.502,null,1780000120]]}"#.utf8)
            var headers = TestServer.bearer(walker.token)
            headers.contentType = .json
            let created = try await server.send(.POST, "/api/v1/paths", headers: headers, body: body)
            #expect(created.status == .created, "\(created.body.string)")
            #expect(paths.count == 1, "the path went to the swapped store")
            #expect(try await server.get("/api/v1/paths", walker.token).body.string.contains("Meadow"))
            let sql = try #require(server.app.db as? any SQLDatabase)
            let rows = try await sql.raw("SELECT COUNT(*) AS n FROM \(ident: CreateFieldPaths.table) WHERE owner_id = \(bind: walker.user.id)")
                .first()?.decode(column: "n", as: Int.self)
            #expect(rows == 0, "nothing reached the database's paths table")

            let officer = try await server.officer(uniqueName("officer"))
            #expect(try await server.createTask(officer.token, assignee: walker.user.username).status == .created)
            #expect(try await server.get("/api/v1/tasks", walker.token).status == .ok)
            let tasks = try #require(counted.withLockedValue { $0 })
            #expect(tasks.count("create") == 1 && tasks.count("tasks") == 1, "the task area called the store it was given")
        }
    }

    @Test("The OpenAPI document describes exactly the routes the application serves")
    func openAPIMatchesRoutes() async throws {
        try await withServer(.sqlite) { server in
            let served = Set(server.app.routes.all.map { route in
                "\(route.method.rawValue) /" + route.path.map { component -> String in
                    switch component {
                    case let .parameter(name): return "{\(name)}"
                    default: return component.description
                    }
                }.joined(separator: "/")
            })
            // The document the server serves, read as YAML (not by its lines).
            let text = try await server.send(.GET, "/openapi.yaml").text
            let document = try #require(try Yams.load(yaml: text) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let documented = Set(paths.flatMap { path, item in
                item.keys.filter { ["get", "post", "put", "patch", "delete"].contains($0) }.map { "\($0.uppercased()) \(path)" }
            })
            #expect(documented.count >= 14)
            #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented).sorted())")
            #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
        }
    }

    @Test("405 comes from the route table: a new route is counted without a list to edit")
    func methodNotAllowedFromRouteTable() async throws {
        try await withServer(.sqlite) { server in
            server.app.patch("api", "v1", "experiment", ":id") { _ in Response(status: .noContent) }
            let answer = try await server.send(.GET, "/api/v1/experiment/7")
            #expect(answer.status == .methodNotAllowed)
            #expect(answer.headers.first(name: .allow) == "PATCH")
            #expect(try await server.send(.GET, "/api/v1/experiment").status == .notFound)
            #expect(try await server.send(.PUT, "/api/v1/keys/wmk_x").headers.first(name: .allow) == "DELETE")
        }
    }
}

@Suite("Accounts keep no secret in clear: not in the database, not in the logs")
struct AccountSecretsTests {
    @Test("Passwords and session tokens appear neither in the database files or rows nor in the log; the hash is Argon2id", arguments: TestDatabase.all)
    func noSecretsStoredOrLogged(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = CapturedLog()
        let password = "Seventeen ravens over Lipica \(UUID().uuidString.prefix(4))"
        var secrets: [String] = [password]
        let name = "hana-\(UUID().uuidString.prefix(8).lowercased())"
        try await withServer(database, dataDirectory: directory) { server in
            server.app.logger = log.logger()
            let registered = try await server.register(name, password: password)
            secrets.append(registered.token)
            let signedIn = try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: name, password: password)).decode(SessionDTO.self)
            secrets.append(signedIn.token)
            _ = try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: name, password: password + "x"))
            let key = try await server.json(.POST, "/api/v1/keys", NewDeviceKeyRequest(name: "tablet"), headers: TestServer.bearer(signedIn.token))
                .decode(NewDeviceKeyDTO.self)
            #expect(try await server.send(.GET, "/api/v1/me", headers: TestServer.cookie(signedIn.token)).status == .ok)

            let stored = try #require(try await server.stores.accounts.account(username: name))
            #expect(stored.passwordHash.encoded.hasPrefix("$argon2id$v=19$"))
            #expect(stored.passwordHash.verify(password))
            // The token's SHA-256 is what the sessions table holds.
            #expect(try await server.stores.sessions.session(tokenHash: AccountService.tokenHash(signedIn.token), now: Date()) != nil)

            if database == .postgres {
                let rows = try await PrivacyTests.allRowsAsText(server.app.db)
                #expect(rows.contains { $0.contains(stored.passwordHash.encoded) }, "the scan sees the users table")
                #expect(rows.contains { $0.contains(key.key) })
                for secret in secrets {
                    #expect(!rows.contains { $0.contains(secret) }, "PostgreSQL holds \(secret.prefix(8))…")
                }
            }
        }
        if database == .sqlite {
            var all = Data()
            for file in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
            where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                all += try Data(contentsOf: file)
            }
            #expect(all.range(of: Data(name.utf8)) != nil, "the scan sees the users table")
            for secret in secrets {
                #expect(all.range(of: Data(secret.utf8)) == nil, "the SQLite files hold \(secret.prefix(8))…")
            }
        }
        let lines = log.all
        #expect(lines.contains { $0.contains("signed in") })
        for secret in secrets {
            let leak = lines.first { $0.contains(secret) }
            #expect(leak == nil, "the log holds \(secret.prefix(8))…: \(leak?.prefix(120) ?? "")")
        }
    }
}
