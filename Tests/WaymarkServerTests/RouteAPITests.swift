import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

@Suite("Route API: store, find, delete")
struct RouteAPITests {
    @Test("POST /api/v1/routes stores a route that GET by id and by lookup return, and it opens", arguments: TestDatabase.all)
    func createAndFind(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sample = try Sample.request()
            let before = Int(Date().timeIntervalSince1970)
            let response = try await server.signed(.POST, "/api/v1/routes", body: Sample.json(sample.request))
            let after = Int(Date().timeIntervalSince1970)
            #expect(response.status == .created)
            let created = try response.decode(RouteCreated.self)
            #expect(created.routeID.count == 22)
            #expect(created.routeID.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            #expect((before...after).contains(created.creationTime), "stamped while the request was served")
            #expect(response.headers.first(name: .location) == "/api/v1/routes/\(created.routeID)")

            let byID = try await server.signed(.GET, "/api/v1/routes/\(created.routeID)")
            #expect(byID.status == .ok)
            let record = try byID.decode(RouteRecord.self)
            #expect(record == RouteRecord(routeID: created.routeID, creationTime: created.creationTime, envelope: sample.request.envelope))
            let opened = try record.envelope.open(passphrase: Sample.passphrase, nonce: sample.nonce)
            #expect(opened.tracks.first?.fixes.first?.latitude == 46.4372)

            let byLookup = try await server.signed(.GET, "/api/v1/routes?lookup=\(sample.request.lookup)")
            #expect(byLookup.status == .ok)
            #expect(try byLookup.decode(RouteRecord.self) == record)
        }
    }

    @Test("Two uploads give two different random ids", arguments: TestDatabase.all)
    func idsAreRandom(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let body = try Sample.json(Sample.request().request)
            let first = try await server.signed(.POST, "/api/v1/routes", body: body).decode(RouteCreated.self)
            let second = try await server.signed(.POST, "/api/v1/routes", body: body).decode(RouteCreated.self)
            #expect(first.routeID != second.routeID)
            #expect(try await server.routeCount() == 2)
        }
    }

    @Test("POST /route takes the envelope as Base64 text, with optional lookup and hash headers", arguments: TestDatabase.all)
    func createBase64(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sample = try Sample.request()
            let body = Array(sample.request.envelope.jsonData().base64EncodedString().utf8)
            let headers: HTTPHeaders = [
                APIHeader.routeLookup: sample.request.lookup,
                APIHeader.deleteTokenHash: sample.request.deleteTokenHash,
                "Content-Type": "text/plain",
            ]
            let response = try await server.signed(.POST, "/route", headers: headers, body: body)
            #expect(response.status == .created)
            let created = try response.decode(RouteCreated.self)
            let found = try await server.signed(.GET, "/api/v1/routes?lookup=\(sample.request.lookup)")
            #expect(try found.decode(RouteRecord.self).routeID == created.routeID)
            #expect(try found.decode(RouteRecord.self).envelope == sample.request.envelope)

            // The original form without headers: stored, found by id, but never deletable.
            let bare = try await server.signed(.POST, "/route", body: body)
            #expect(bare.status == .created)
            let bareID = try bare.decode(RouteCreated.self).routeID
            #expect(try await server.signed(.GET, "/api/v1/routes/\(bareID)").status == .ok)
            let delete = try await server.signed(.DELETE, "/api/v1/routes/\(bareID)", headers: [APIHeader.deleteToken: sample.deleteToken])
            #expect(delete.status == .forbidden)
            #expect(try delete.apiError().error == "not_deletable")
            #expect(try await server.signed(.GET, "/api/v1/routes/\(bareID)").status == .ok)
        }
    }

    @Test("Absent routes are 404 JSON; a malformed or missing lookup is 400", arguments: TestDatabase.all)
    func notFound(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let byID = try await server.signed(.GET, "/api/v1/routes/AAAAAAAAAAAAAAAAAAAAAA")
            #expect(byID.status == .notFound)
            #expect(try byID.apiError().error == "not_found")
            let unknownLookup = String(repeating: "ab", count: 32)
            let byLookup = try await server.signed(.GET, "/api/v1/routes?lookup=\(unknownLookup)")
            #expect(byLookup.status == .notFound)
            #expect(try byLookup.apiError().error == "not_found")

            for target in ["/api/v1/routes?lookup=XYZ", "/api/v1/routes?lookup=\(unknownLookup.uppercased())", "/api/v1/routes"] {
                let response = try await server.signed(.GET, target)
                #expect(response.status == .badRequest, "\(target)")
                let error = try response.apiError()
                #expect(error.error == "invalid_lookup")
                #expect(error.reason.contains("lookup"))
            }
        }
    }

    @Test("DELETE needs the right token: 400 missing or malformed, 403 wrong, 204 right, then 404", arguments: TestDatabase.all)
    func delete(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sample = try Sample.request()
            let id = try await server.signed(.POST, "/api/v1/routes", body: Sample.json(sample.request)).decode(RouteCreated.self).routeID
            let target = "/api/v1/routes/\(id)"

            let missing = try await server.signed(.DELETE, target)
            #expect(missing.status == .badRequest)
            #expect(try missing.apiError().error == "invalid_delete_token")
            let malformed = try await server.signed(.DELETE, target, headers: [APIHeader.deleteToken: "not-a-token"])
            #expect(malformed.status == .badRequest)
            #expect(try malformed.apiError().reason.contains(APIHeader.deleteToken))

            let wrongToken = String(repeating: "0", count: 64)
            let wrong = try await server.signed(.DELETE, target, headers: [APIHeader.deleteToken: wrongToken])
            #expect(wrong.status == .forbidden)
            #expect(try wrong.apiError().error == "wrong_delete_token")
            // The lookup key or the stored hash itself is no token either.
            let hashAsToken = try await server.signed(.DELETE, target, headers: [APIHeader.deleteToken: sample.request.deleteTokenHash])
            #expect(hashAsToken.status == .forbidden)
            #expect(try await server.signed(.GET, target).status == .ok)

            let right = try await server.signed(.DELETE, target, headers: [APIHeader.deleteToken: sample.deleteToken])
            #expect(right.status == .noContent)
            #expect(try await server.signed(.GET, target).status == .notFound)
            #expect(try await server.signed(.GET, "/api/v1/routes?lookup=\(sample.request.lookup)").status == .notFound)
            let again = try await server.signed(.DELETE, target, headers: [APIHeader.deleteToken: sample.deleteToken])
            #expect(again.status == .notFound)
        }
    }
}
