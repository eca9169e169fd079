import Fluent
import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

@Suite("Privacy: the server stores nothing it could read")
struct PrivacyTests {
    /// The coordinates of ``Sample/route(nonce:)`` in the text forms they could take, and the passphrase.
    static let forbidden: [String] = [
        "46.4372", "46,4372", "464372", "13.7767", "13,7767", "137767", "46.4373", "13.7768", "1520.5", "1520,5",
        Sample.passphrase, "Triglav",
    ]

    @Test("Uploaded routes leave no coordinate or passphrase in the database", arguments: TestDatabase.all)
    func nothingReadableStored(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var nonces: [String] = []
        var lookups: [String] = []
        try await withServer(database, dataDirectory: directory) { server in
            for _ in 0..<3 {
                let sample = try Sample.request()
                nonces.append(sample.nonce)
                lookups.append(sample.request.lookup)
                let json = try await server.signed(.POST, "/api/v1/routes", headers: [APIHeader.idempotencyKey: UUID().uuidString],
                                                   body: Sample.json(sample.request))
                #expect(json.status == .created)
            }
            let sample = try Sample.request()
            nonces.append(sample.nonce)
            let base64 = try await server.signed(.POST, "/route", headers: [APIHeader.routeLookup: sample.request.lookup],
                                                 body: Array(sample.request.envelope.jsonData().base64EncodedString().utf8))
            #expect(base64.status == .created)

            if database == .postgres {
                let rows = try await Self.allRowsAsText(server.app.db)
                #expect(rows.count >= 5)
                // The scan sees what was stored: the lookup keys are there.
                for lookup in lookups {
                    #expect(rows.contains { $0.contains(lookup) })
                }
                for needle in Self.forbidden + nonces {
                    #expect(!rows.contains { $0.contains(needle) }, "PostgreSQL holds \"\(needle)\"")
                }
            }
        }
        if database == .sqlite {
            // Every file SQLite left in the data folder (database, WAL, shared memory), byte by byte.
            let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            #expect(files.contains { $0.lastPathComponent == "waymark.sqlite" })
            var scanned = 0
            var all = Data()
            for file in files {
                let bytes = try Data(contentsOf: file)
                all += bytes
                scanned += bytes.count
                for needle in Self.forbidden + nonces {
                    #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(file.lastPathComponent) holds \"\(needle)\"")
                    #expect(bytes.range(of: Data(needle.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })) == nil)
                }
            }
            #expect(scanned > 10_000)
            // The scan sees what was stored: the lookup keys are there.
            for lookup in lookups {
                #expect(all.range(of: Data(lookup.utf8)) != nil)
            }
        }
    }

    /// Every row of every table in the public schema, cast to text (every column at once).
    static func allRowsAsText(_ database: any Database) async throws -> [String] {
        let sql = try #require(database as? any SQLDatabase)
        struct TableName: Decodable { var table_name: String }
        // Every table but PostGIS's own catalogue of coordinate systems (spatial_ref_sys), whose
        // projection parameters are full of numbers.
        let tables = try await sql.raw("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'spatial_ref_sys'")
            .all(decoding: TableName.self)
        #expect(tables.contains { $0.table_name == "routes" })
        var rows: [String] = []
        for table in tables {
            struct Row: Decodable { var row: String }
            let text = try await sql.raw("SELECT \(ident: table.table_name)::text AS row FROM \(ident: table.table_name)")
                .all(decoding: Row.self)
            rows += text.map(\.row)
        }
        return rows
    }
}
