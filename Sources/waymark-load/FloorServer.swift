import ArgumentParser
import Foundation
import SQLKit
import Vapor
import WaymarkCore
@_spi(Bench) import WaymarkServer

/// `waymark-load serve`: the Waymark server of `make bench`, with the floor of its stack beside
/// the route API. `POST /bench/floor` stores the request body with one plain INSERT and answers
/// 201: no signature, no nonce, no idempotency, no JSON.
///
/// The floor writes through the server's own write path (on SQLite: its write gate and busy
/// timeout) on the same database set-up as the route API (the same pool, WAL and synchronous mode
/// on SQLite, the same PostgreSQL connection), so that `waymark-load routes --mode floor` measures
/// what one durable INSERT per request costs here and the route API differs from it only in what
/// an upload does beyond that INSERT. The server also prints where Vapor listens behind its
/// connection gate, so that the gate's own cost can be measured. Its table is not part of the
/// schema; it is made when this starts.
struct FloorServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the Waymark server with POST /bench/floor beside it (make bench).")

    @ArgumentParser.Option(help: "The data folder (ignored when DATABASE_URL is set).") var data = "./data"
    @ArgumentParser.Option(help: "The port to listen on (127.0.0.1).") var port = 8080

    static let table = "bench_floor"

    func run() async throws {
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: data), databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"])
        configuration.host = "127.0.0.1"
        configuration.port = port
        configuration.tls = .off
        configuration.announcesUpstream = true
        var dependencies = ServerDependencies()
        dependencies.extraRoutes = [Self.floor]
        try await WaymarkServerApp.run(configuration, dependencies)
    }

    @Sendable static func floor(_ app: Application) async throws {
        try await app.asServerWriter { sql in
            try await sql.create(table: table).ifNotExists()
                .column("id", type: .text, .primaryKey(autoIncrement: false))
                .column("body", type: .text, .notNull)
                .run()
        }
        let body = HTTPBodyStreamStrategy.collect(maxSize: ByteCount(value: ServerConfiguration.maxBodySize))
        app.on(.POST, "bench", "floor", body: body) { request async throws -> Response in
            let text = request.body.data.map { String(buffer: $0) } ?? ""
            let id = UUID().uuidString
            try await request.application.asServerWriter { sql in
                try await sql.insert(into: table).columns("id", "body").values(SQLBind(id), SQLBind(text)).run()
            }
            return Response(status: .created)
        }
    }
}
