import Fluent
import SQLKit
import Logging
import NIOCore
import NIOPosix
import Vapor

/// The server's Fluent database as the stores use it: on the calling event loop (each event
/// loop has its own connection pool, so requests never queue on one loop's connections), with
/// a logger that never writes query values (see ``Logging/Logger/withoutQueryValues``), and
/// with SQLite's ``WriteGate``.
struct ServerDatabase: Sendable {
    let databases: Databases
    let logger: Logger
    /// The SQLite database's gate; `nil` on PostgreSQL.
    let writeGate: WriteGate?

    init(databases: Databases, logger: Logger, writeGate: WriteGate?) {
        self.databases = databases
        self.logger = logger.withoutQueryValues
        self.writeGate = writeGate
    }

    /// The default database on the current event loop (any loop when called from elsewhere).
    var db: any Database {
        get throws {
            let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? databases.eventLoopGroup.any()
            guard let database = databases.database(logger: logger, on: loop) else {
                throw Abort(.internalServerError, reason: "no default database is configured")
            }
            return database
        }
    }

    /// Whether this is PostgreSQL (else SQLite).
    var isPostgres: Bool {
        guard let sql = try? db as? any SQLDatabase else { return false }
        return sql.dialect.name == "postgresql"
    }

    /// Runs `work` as a writer (see ``Fluent/Database/withWriteConnection(gate:_:)``).
    func write<T: Sendable>(_ work: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        try await db.withWriteConnection(gate: writeGate, work)
    }

    /// Runs `work` in one write transaction (see ``Fluent/Database/withWriteTransaction(gate:_:)``).
    func transaction<T: Sendable>(_ work: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        try await db.withWriteTransaction(gate: writeGate, work)
    }
}

extension Application {
    /// The stores' view of this application's database.
    var serverDatabase: ServerDatabase {
        ServerDatabase(databases: databases, logger: logger, writeGate: writeGate)
    }
}
