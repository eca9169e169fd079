import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

@Suite("Route API: bad input is a 400 naming the field")
struct ValidationTests {
    /// A valid create request as a mutable JSON object.
    static func validObject() throws -> [String: Any] {
        let data = try Sample.json(Sample.request().request)
        return try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
    }

    static func bytes(_ object: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object))
    }

    @Test("Each malformed field of POST /api/v1/routes is named", arguments: TestDatabase.all)
    func malformedFields(database: TestDatabase) async throws {
        try await withServer(database) { server in
            // (change to the valid request, expected error code, text the reason must contain)
            let cases: [(String, (inout [String: Any]) -> Void, String, String)] = [
                ("no ct", { o in var e = o["envelope"] as? [String: Any] ?? [:]; e["ct"] = nil; o["envelope"] = e }, "invalid_envelope", "envelope.ct"),
                ("short iv", { o in var e = o["envelope"] as? [String: Any] ?? [:]; e["iv"] = "AAAA"; o["envelope"] = e }, "invalid_envelope", "envelope.iv"),
                ("version 2", { o in var e = o["envelope"] as? [String: Any] ?? [:]; e["v"] = 2; o["envelope"] = e }, "invalid_envelope", "envelope.v"),
                ("bad n", { o in
                    var e = o["envelope"] as? [String: Any] ?? [:]
                    var k = e["kdf"] as? [String: Any] ?? [:]
                    k["n"] = 1000
                    e["kdf"] = k
                    o["envelope"] = e
                }, "invalid_envelope", "envelope.kdf.n"),
                ("aead", { o in var e = o["envelope"] as? [String: Any] ?? [:]; e["aead"] = "rot13"; o["envelope"] = e }, "invalid_envelope", "envelope.aead"),
                ("no envelope", { o in o["envelope"] = nil }, "invalid_envelope", "envelope"),
                ("envelope string", { o in o["envelope"] = "hello" }, "invalid_envelope", "envelope"),
                ("upper-case lookup", { o in o["lookup"] = String(repeating: "AB", count: 32) }, "invalid_lookup", "lookup"),
                ("short lookup", { o in o["lookup"] = "abc" }, "invalid_lookup", "lookup"),
                ("lookup number", { o in o["lookup"] = 5 }, "invalid_lookup", "lookup"),
                ("no lookup", { o in o["lookup"] = nil }, "invalid_lookup", "lookup"),
                ("hash not hex", { o in o["deleteTokenHash"] = String(repeating: "zz", count: 32) }, "invalid_delete_token_hash", "deleteTokenHash"),
                ("no hash", { o in o["deleteTokenHash"] = nil }, "invalid_delete_token_hash", "deleteTokenHash"),
            ]
            for (name, change, code, field) in cases {
                var object = try Self.validObject()
                change(&object)
                let response = try await server.signed(.POST, "/api/v1/routes", body: Self.bytes(object))
                #expect(response.status == .badRequest, "\(name)")
                let error = try response.apiError()
                #expect(error.error == code, "\(name)")
                #expect(error.reason.contains(field), "\(name): \(error.reason)")
            }
            #expect(try await server.routeCount() == 0)
        }
    }

    @Test("Bodies that are not a JSON object are 400, never 500", arguments: TestDatabase.all)
    func notJSON(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for body in ["", "{", "[1,2]", "null", "\"text\"", "{\"envelope\": [}", String(repeating: "[", count: 10_000)] {
                let response = try await server.signed(.POST, "/api/v1/routes", body: Array(body.utf8))
                #expect(response.status == .badRequest, "\(body.prefix(20))")
                #expect(try response.apiError().error == "invalid_json")
            }
        }
    }

    @Test("POST /route: bad Base64, bad envelope and bad headers are named", arguments: TestDatabase.all)
    func base64Form(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sample = try Sample.request()
            let good = Array(sample.request.envelope.jsonData().base64EncodedString().utf8)

            let notBase64 = try await server.signed(.POST, "/route", body: Array("%%% not base64 %%%".utf8))
            #expect(notBase64.status == .badRequest)
            #expect(try notBase64.apiError().error == "invalid_envelope")

            let broken = Array(Data(#"{"v":1,"aead":"aes-256-gcm"}"#.utf8).base64EncodedString().utf8)
            let missingKDF = try await server.signed(.POST, "/route", body: broken)
            #expect(missingKDF.status == .badRequest)
            #expect(try missingKDF.apiError().reason.contains("kdf"))

            let badLookup = try await server.signed(.POST, "/route", headers: [APIHeader.routeLookup: "nothex"], body: good)
            #expect(badLookup.status == .badRequest)
            #expect(try badLookup.apiError().reason.contains(APIHeader.routeLookup))

            let badHash = try await server.signed(.POST, "/route", headers: [APIHeader.deleteTokenHash: "12"], body: good)
            #expect(badHash.status == .badRequest)
            #expect(try badHash.apiError().reason.contains(APIHeader.deleteTokenHash))
            #expect(try await server.routeCount() == 0)
        }
    }

    @Test("An Idempotency-Key longer than 255 characters is 400", arguments: TestDatabase.all)
    func longIdempotencyKey(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let body = try Sample.json(Sample.request().request)
            let response = try await server.signed(
                .POST, "/api/v1/routes", headers: [APIHeader.idempotencyKey: String(repeating: "k", count: 256)], body: body
            )
            #expect(response.status == .badRequest)
            #expect(try response.apiError().error == "invalid_idempotency_key")
            let longest = try await server.signed(
                .POST, "/api/v1/routes", headers: [APIHeader.idempotencyKey: String(repeating: "k", count: 255)], body: body
            )
            #expect(longest.status == .created)
        }
    }

    @Test("A body over 8 MiB is 413 JSON; exactly 8 MiB is read", arguments: TestDatabase.all)
    func bodyLimit(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tooBig = [UInt8](repeating: UInt8(ascii: " "), count: ServerConfiguration.maxBodySize + 1)
            let response = try await server.signed(.POST, "/api/v1/routes", body: tooBig)
            #expect(response.status == .payloadTooLarge)
            #expect(try response.apiError().error == "payload_too_large")

            // 8 MiB of spaces around a valid request is still within the limit.
            var padded = try Sample.json(Sample.request().request)
            padded += [UInt8](repeating: UInt8(ascii: " "), count: ServerConfiguration.maxBodySize - padded.count)
            let atLimit = try await server.signed(.POST, "/api/v1/routes", body: padded)
            #expect(atLimit.status == .created)
        }
    }
}
