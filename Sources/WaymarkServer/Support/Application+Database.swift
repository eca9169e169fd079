import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import Vapor

extension Application {
    /// Every migration of the server's schema, oldest first: each area's (``serverAreas``), in
    /// the areas' order.
    static var waymarkMigrations: [any Migration] {
        serverAreas.flatMap(\.migrations)
    }

    /// Points Fluent at SQLite in the data folder, or at PostgreSQL when a database URL is given,
    /// and registers the migrations (it does not run them; tests pass older lists to make an
    /// older database).
    func useDatabase(_ configuration: ServerConfiguration, migrations list: [any Migration] = Application.waymarkMigrations) async throws {
        try DataFolder.prepare(configuration.dataDirectory)
        if let url = configuration.databaseURL {
            var postgres = try SQLPostgresConfiguration(url: url)
            // postgres-kit would try TLS first ("prefer"); without a choice in the URL, don't.
            let tlsParameters: Set<String> = ["tlsmode", "sslmode", "ssl", "tls"]
            let query = URLComponents(string: url)?.queryItems ?? []
            if !query.contains(where: { tlsParameters.contains($0.name.lowercased()) }) {
                postgres.coreConfiguration.tls = .disable
            }
            // Fluent's default is one connection per event loop (two on a 2-core machine) and 10 s
            // to wait for one: 20 concurrent route uploads on two loaded cores waited longer and
            // four answered 500. Four per loop, and a request still waiting after 30 s answers 503
            // (JSONErrorMiddleware), which clients retry.
            databases.use(.postgres(configuration: postgres, maxConnectionsPerEventLoop: 4, connectionPoolTimeout: .seconds(30)), as: .psql)
        } else {
            databases.use(.sqlite(.file(configuration.sqliteFile.path)), as: .sqlite)
            writeGate = WriteGate()
        }
        for migration in list {
            migrations.add(migration)
        }
    }

    /// Runs the migrations; on SQLite, first switches the file to write-ahead logging so that
    /// readers never wait for a writer.
    ///
    /// Two processes starting on a fresh database at once (a server and `waymark keys`, or two
    /// servers) race to create the tables; the loser fails on its first CREATE TABLE, before it
    /// has changed anything, so it waits and runs the migrations again, which are then already
    /// recorded as done.
    func migrateDatabase() async throws {
        if let sql = db as? any SQLDatabase, sql.dialect.name == "sqlite" {
            try await sql.raw("PRAGMA journal_mode = WAL").run()
        }
        var attempt = 0
        while true {
            do {
                try await autoMigrate()
                return
            } catch {
                attempt += 1
                guard attempt < 10 else { throw error }
                logger.notice("migrating the database failed; another process may be migrating it at the same time; trying again", metadata: ["attempt": "\(attempt)"])
                try await Task.sleep(nanoseconds: 500_000_000)
            }
        }
    }
}

extension Database {
    /// Runs `work` on one pooled connection that, on SQLite, waits up to 10 s for another
    /// writer (another connection or process) instead of failing at once with SQLITE_BUSY.
    ///
    /// With the SQLite database's `gate` (``Application/writeGate``), writers of this process
    /// take turns before they take a connection, so that they never busy-wait for each other.
    func withWriteConnection<T: Sendable>(gate: WriteGate? = nil, _ work: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        let write: @Sendable () async throws -> T = {
            try await withConnection { connection in
                if let sql = connection as? any SQLDatabase, sql.dialect.name == "sqlite" {
                    try await sql.raw("PRAGMA busy_timeout = 10000").run()
                }
                return try await work(connection)
            }
        }
        guard let gate else { return try await write() }
        return try await gate.serialized(write)
    }

    /// Runs `work` in one transaction (BEGIN … COMMIT, or ROLLBACK when it throws) on one
    /// connection, as a writer of ``withWriteConnection(gate:_:)``.
    ///
    /// Not `withWriteConnection { $0.transaction { … } }`: fluent-postgres-driver hands out
    /// connections marked as already in a transaction, so `transaction` on one runs the
    /// statements without BEGIN, each committed on its own.
    func withWriteTransaction<T: Sendable>(gate: WriteGate? = nil, _ work: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        guard let sql = self as? any SQLDatabase, sql.dialect.name == "sqlite" else {
            return try await transaction(work)
        }
        return try await withWriteConnection(gate: gate) { connection in
            try await connection.transaction(work)
        }
    }
}

extension Logger {
    /// This logger, raised to at least `.info`.
    ///
    /// FluentKit and SQLKit log every query together with its bound values at `.debug`:
    /// consumer secrets, envelopes, hashes. The server's database handles use this logger so
    /// that no log level, however verbose, writes those values out.
    var withoutQueryValues: Logger {
        var logger = self
        if logger.logLevel < .info {
            logger.logLevel = .info
        }
        return logger
    }
}

extension Request {
    /// The default database with the request's logger, minus query values (see ``Logging/Logger/withoutQueryValues``).
    var quietDB: any Database { db(nil, logger: logger.withoutQueryValues) }
}

extension Application {
    /// The default database with the application's logger, minus query values (see ``Logging/Logger/withoutQueryValues``).
    var quietDB: any Database { db(nil, logger: logger.withoutQueryValues) }
}
