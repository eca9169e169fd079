import Fluent
import SQLKit
import Vapor

/// The floor of this stack for `make bench`: `POST /bench/floor` stores the request body with
/// one plain INSERT and answers 201 — no signature, no nonce, no idempotency, no JSON.
///
/// It writes through the server's own write path (on SQLite: its ``WriteGate`` and busy
/// timeout), so that the floor differs from an upload only in what the upload does beyond one
/// INSERT. It exists only when `waymark serve --bench-floor` asks for it (``ServerConfiguration/benchFloor``),
/// on the same database set-up as the route API (the same pool, WAL and synchronous mode on
/// SQLite, the same PostgreSQL connection), so that `waymark-load --mode floor` measures what
/// one durable INSERT per request costs here and the route API can be compared with it.
/// Its table is not part of the schema's migrations; it is created when the flag is given.
enum BenchFloor {
    static let table = "bench_floor"

    static func register(on app: Application) async throws {
        guard let sql = app.quietDB as? any SQLDatabase else { return }
        try await sql.create(table: table).ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("body", type: .text, .notNull)
            .run()
        let body = HTTPBodyStreamStrategy.collect(maxSize: ByteCount(value: ServerConfiguration.maxBodySize))
        app.on(.POST, "bench", "floor", body: body) { request async throws -> Response in
            let text = request.body.data.map { String(buffer: $0) } ?? ""
            let id = RandomToken.make(bytes: 16)
            try await request.quietDB.withWriteConnection(gate: request.application.writeGate) { connection in
                guard let sql = connection as? any SQLDatabase else { throw Abort(.internalServerError) }
                try await sql.insert(into: table)
                    .columns("id", "body")
                    .values(SQLBind(id), SQLBind(text))
                    .run()
            }
            return Response(status: .created)
        }
    }
}
