import Fluent
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

/// The databases a test runs against: SQLite always, PostgreSQL when `DATABASE_URL` is set
/// (or required by `WAYMARK_REQUIRE_POSTGRES=1`, in which case a missing URL fails the test).
/// `WAYMARK_TEST_DATABASES=postgres` (make test's PostgreSQL pass, after the SQLite one) runs the
/// PostgreSQL cases alone, so that no SQLite case runs twice.
enum TestDatabase: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static var all: [TestDatabase] {
        let environment = ProcessInfo.processInfo.environment
        let wantPostgres = environment["DATABASE_URL"].map { !$0.isEmpty } == true || environment["WAYMARK_REQUIRE_POSTGRES"] == "1"
        if wantPostgres, environment["WAYMARK_TEST_DATABASES"] == "postgres" { return [.postgres] }
        return wantPostgres ? [.sqlite, .postgres] : [.sqlite]
    }

    var testDescription: String { rawValue }

    /// The configuration for a test; for PostgreSQL, once the shared database is migrated.
    func configuration(dataDirectory: URL) async throws -> ServerConfiguration {
        switch self {
        case .sqlite:
            return ServerConfiguration(dataDirectory: dataDirectory)
        case .postgres:
            let url = try #require(
                ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 },
                "WAYMARK_REQUIRE_POSTGRES=1 but DATABASE_URL is not set; run the tests under scripts/with-postgres"
            )
            let configuration = ServerConfiguration(dataDirectory: dataDirectory, databaseURL: url)
            // Tests run in parallel against one PostgreSQL database: migrate it once, before
            // any of them, so that their own start-up finds nothing left to do.
            try await Self.postgresMigrated(configuration).value
            return configuration
        }
    }

    private static let migration = NIOLockedValueBox<Task<Void, any Error>?>(nil)

    private static func postgresMigrated(_ configuration: ServerConfiguration) -> Task<Void, any Error> {
        migration.withLockedValue { task in
            if let task { return task }
            let new = Task {
                let keys = try await ConsumerKeys(configuration: configuration)
                try await keys.shutdown()
            }
            task = new
            return new
        }
    }
}

/// A consumer's key and secret.
struct Credentials: Sendable {
    var key: String
    var secret: String
    var id: UUID
}

/// The real application, configured as `waymark serve` configures it, driven in-process.
struct TestServer: Sendable {
    let app: Application
    let database: TestDatabase
    let configuration: ServerConfiguration
    let consumer: Credentials

    /// A new consumer in this server's database, of no account or of `userID`'s.
    func makeConsumer(name: String = "test", userID: UUID? = nil) async throws -> Credentials {
        try await Credentials.make(in: app, name: name, userID: userID)
    }

    /// Starts the application on a real socket at a port the kernel chooses (a port picked in
    /// advance may be taken by the time it is bound), and returns that port: the gate's, as
    /// `waymark serve` listens.
    func startListening() async throws -> Int {
        app.http.server.configuration.port = 0
        try await app.server.start()
        return try #require(app.storage[GatedServer.Key.self]?.localAddress?.port, "the server is listening")
    }

    /// The stores on this server's database.
    var stores: ServerStores { ServerStores.fluent(app.serverDatabase, clock: .system) }

    /// The signing headers (version 2) of a request that also carries `headers`, all of which
    /// are signed; send `headers` along with them.
    func signature(_ method: HTTPMethod, _ target: String, body: [UInt8] = [], headers: HTTPHeaders = [:], as credentials: Credentials? = nil,
                   now: Date? = nil, nonce: String? = nil) -> HTTPHeaders {
        let credentials = credentials ?? consumer
        return HTTPHeaders(RequestSigning.headers(
            key: credentials.key, secret: credentials.secret, method: method.rawValue, target: target, body: body,
            headers: headers.map { ($0.name, $0.value) }, now: now ?? Date(), nonce: nonce ?? RequestSigning.randomNonce()
        ))
    }

    /// Sends a request exactly as given (no signature added).
    func send(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) async throws -> TestingHTTPResponse {
        try await app.testing().performTest(request: TestingHTTPRequest(
            method: method, url: URI(string: target), headers: headers, body: ByteBuffer(bytes: body)
        ))
    }

    /// Signs (every one of `headers` included, with a fresh nonce unless one is given) and sends a request.
    func signed(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                as credentials: Credentials? = nil, now: Date? = nil, nonce: String? = nil) async throws -> TestingHTTPResponse {
        var all = headers
        all.add(contentsOf: signature(method, target, body: body, headers: headers, as: credentials, now: now, nonce: nonce))
        return try await send(method, target, headers: all, body: body)
    }

    /// How many routes a consumer has stored.
    func routeCount(of credentials: Credentials? = nil) async throws -> Int {
        try await RouteModel.query(on: app.db).filter(\.$consumerID == (credentials ?? consumer).id).count()
    }
}

/// Runs `body` against a freshly configured server with its own data folder and consumer.
@discardableResult
func withServer<T>(_ database: TestDatabase, dataDirectory: URL? = nil, dependencies: ServerDependencies = .testing,
                   configuration change: (inout ServerConfiguration) -> Void = { _ in },
                   _ body: (TestServer) async throws -> T) async throws -> T {
    let directory = dataDirectory ?? makeTemporaryDirectory()
    defer { if dataDirectory == nil { try? FileManager.default.removeItem(at: directory) } }
    var configuration = try await database.configuration(dataDirectory: directory)
    change(&configuration)
    return try await withBuiltApplication(configuration, dependencies) { app in
        let consumer = try await Credentials.make(in: app, name: "test")
        return try await body(TestServer(app: app, database: database, configuration: configuration, consumer: consumer))
    }
}

/// Runs `body` on an application made by ``buildApplication(_:_:environment:)`` (as `waymark serve`
/// makes it) in the testing environment, and shuts it down afterwards.
func withBuiltApplication<T>(_ configuration: ServerConfiguration, _ dependencies: ServerDependencies = .testing,
                             _ body: (Application) async throws -> T) async throws -> T {
    let app = try await buildApplication(configuration, dependencies, environment: .testing)
    do {
        let result = try await body(app)
        try await app.asyncShutdown()
        return result
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
}

extension ServerDependencies {
    /// The real dependencies with libsodium's smallest Argon2id cost, so that tests that sign in stay fast.
    static var testing: ServerDependencies {
        ServerDependencies(passwordCost: .minimum)
    }
}

extension Credentials {
    /// A new consumer in `app`'s database.
    static func make(in app: Application, name: String, userID: UUID? = nil) async throws -> Credentials {
        let consumer = Consumer.make(name: name, userID: userID, now: Date())
        try await FluentConsumerStore(database: app.serverDatabase).create(consumer)
        return Credentials(key: consumer.apiKey, secret: consumer.secret, id: consumer.id)
    }
}

func makeTemporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-server-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Sample routes, sealed for real (with a cheap scrypt so tests stay fast).
enum Sample {
    static let passphrase = "Triglav sunrise, quietly"

    static func nonce() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return String((0..<12).map { _ in alphabet.randomElement() ?? "0" })
    }

    static func route(nonce: String) -> WaymarkCore.Route {
        let start = Date(timeIntervalSince1970: 1_564_650_590)
        let fixes = (0..<5).map { index in
            Fix(latitude: 46.4372 + Double(index) * 0.0001, longitude: 13.7767 + Double(index) * 0.0001,
                altitude: 1_520.5, accuracy: 4.2, time: start.addingTimeInterval(Double(index) * 5))
        }
        return WaymarkCore.Route(nonce: nonce, qrPeriod: 5, tracks: [Track(fixes: fixes)])
    }

    /// A complete create request and the delete token that goes with it.
    static func request(nonce: String = Sample.nonce()) throws -> (request: CreateRouteRequest, deleteToken: String, nonce: String) {
        let envelope = try RouteEnvelope.seal(route(nonce: nonce), passphrase: passphrase, nonce: nonce, kdf: .scrypt(n: 1024))
        let token = RouteKeys.deleteToken(master: try envelope.masterKey(passphrase: passphrase))
        let request = CreateRouteRequest(
            envelope: envelope, lookup: RouteKeys.lookupKey(nonce: nonce),
            deleteTokenHash: try RouteKeys.deleteTokenHash(token: token)
        )
        return (request, token, nonce)
    }

    static func json(_ request: CreateRouteRequest) throws -> [UInt8] {
        Array(try JSONEncoder().encode(request))
    }
}

extension TestingHTTPResponse {
    /// The body decoded as `T`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
    }

    /// The `{"error", "reason"}` body.
    func apiError() throws -> APIErrorBody {
        try decode(APIErrorBody.self)
    }

    var text: String { String(buffer: body) }
}
