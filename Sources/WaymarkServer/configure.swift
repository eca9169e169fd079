import Fluent
import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// Sets up the server on `app`: the database (SQLite in the data folder, or PostgreSQL),
/// its migrations (run now), JSON errors, the 8 MiB body limit and every route.
///
/// Tests call this on a testing `Application`; ``WaymarkServerApp/run(_:bootstrapLogging:)`` calls it before serving.
public func configure(_ app: Application, _ configuration: ServerConfiguration) async throws {
    app.http.server.configuration.hostname = configuration.host
    app.http.server.configuration.port = configuration.port
    app.routes.defaultMaxBodySize = ByteCount(value: ServerConfiguration.maxBodySize)

    try await app.useDatabase(configuration)
    try await app.migrateDatabase()

    // Errors first, so that it also answers for the others; then one log line per request
    // (method and path only: no query, headers or body). Vapor gives each request an id.
    app.middleware = Middlewares()
    app.middleware.use(JSONErrorMiddleware())
    app.middleware.use(RouteLoggingMiddleware(logLevel: .info))

    app.get("healthz") { _ in
        Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(string: #"{"status":"ok"}"#))
    }
    app.get("openapi.yaml") { _ in
        Response(status: .ok, headers: ["Content-Type": "application/yaml; charset=utf-8"], body: .init(string: OpenAPIDocument.yaml))
    }
    RouteController().register(on: app.routes)
    if configuration.benchFloor {
        try await BenchFloor.register(on: app)
    }

    app.lifecycle.use(NoncePurger())
}

/// Purges expired nonces from the replay store at start and every minute while the server runs.
final class NoncePurger: LifecycleHandler, Sendable {
    private let task = NIOLockedValueBox<RepeatedTask?>(nil)
    /// The clock that decides which nonces have expired.
    let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
    }

    func didBootAsync(_ application: Application) async throws {
        let database = application.quietDB
        let writeGate = application.writeGate
        let logger = application.logger
        let eventLoop = application.eventLoopGroup.next()
        let now = self.now
        let repeated = eventLoop.scheduleRepeatedAsyncTask(initialDelay: .zero, delay: .seconds(60)) { _ in
            eventLoop.makeFutureWithTask {
                do {
                    try await NonceStore(database: database, writeGate: writeGate).purgeExpired(now: now())
                } catch {
                    logger.warning("could not purge expired request nonces", metadata: ["error": "\(String(reflecting: type(of: error)))"])
                }
            }
        }
        task.withLockedValue { $0 = repeated }
    }

    func shutdownAsync(_ application: Application) async {
        task.withLockedValue { $0?.cancel(); $0 = nil }
    }
}
