import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

/// Keeps every log line, with its metadata, in memory.
final class CapturedLog: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])

    var all: [String] { lines.withLockedValue { $0 } }

    func append(_ line: String) { lines.withLockedValue { $0.append(line) } }

    func logger() -> Logger {
        var logger = Logger(label: "waymark.test") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?,
                 source: String, file: String, function: String, line: UInt) {
            let all = self.metadata.merging(extra ?? [:]) { $1 }
            log.append("\(level) \(message) \(all.map { "\($0)=\($1)" }.joined(separator: " "))")
        }
    }
}

@Suite("Logging: no secrets, signatures or bodies, even at trace level")
struct LoggingTests {
    @Test("Logs of signed uploads, reads, deletes and refusals hold no secret", arguments: TestDatabase.all)
    func noSecretsLogged(database: TestDatabase) async throws {
        let log = CapturedLog()
        try await withServer(database) { server in
            server.app.logger = log.logger()
            let consumer = try await server.makeConsumer(name: "logged")
            let sample = try Sample.request()
            let body = try Sample.json(sample.request)
            var headers: HTTPHeaders = [APIHeader.idempotencyKey: "log-test"]
            let signature = server.signature(.POST, "/api/v1/routes", body: body, headers: headers, as: consumer)
            headers.add(contentsOf: signature)
            let created = try await server.send(.POST, "/api/v1/routes", headers: headers, body: body)
            #expect(created.status == .created)
            let id = try created.decode(RouteCreated.self).routeID
            #expect(try await server.signed(.GET, "/api/v1/routes/\(id)", as: consumer).status == .ok)
            #expect(try await server.send(.POST, "/api/v1/routes", headers: headers, body: body).status == .unauthorized, "a replay")
            var forged = consumer
            forged.secret = "wrong"
            #expect(try await server.signed(.GET, "/api/v1/routes/\(id)", as: forged).status == .unauthorized)
            #expect(try await server.signed(.DELETE, "/api/v1/routes/\(id)", headers: [APIHeader.deleteToken: sample.deleteToken], as: consumer).status == .noContent)

            let lines = log.all
            #expect(lines.count > 5, "the capture sees the server's log")
            let secrets = [
                consumer.secret, try #require(signature.first(name: APIHeader.signature)), sample.deleteToken,
                sample.request.envelope.ct.base64EncodedString(), String(decoding: body.prefix(40), as: UTF8.self),
                Sample.passphrase,
            ]
            for secret in secrets {
                let leak = lines.first { $0.contains(secret) }
                #expect(leak == nil, "log holds \(secret.prefix(12))…: \(leak?.prefix(160) ?? "")")
            }
        }
    }
}
