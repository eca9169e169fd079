import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkServer

/// Field paths over the API (DESIGN §3.10, issue #15 point 4): `POST/GET /api/v1/paths`,
/// `GET/DELETE /api/v1/paths/{id}` and `GET /api/v1/paths/{id}.kml`, on both databases.
@Suite("Field paths: stored, measured, listed, exported as KML and deleted by their owner only")
struct FieldPathAPITests {
    /// A path as the API answers it.
    struct Answer: Decodable {
        var id: String
        var name: String?
        var area: Double?
        var perimeter: Double?
        var length: Double
        var pointCount: Int
        @UTCTime var startedAt: Date
        @UTCTime var endedAt: Date
        @UTCTime var createdAt: Date
        var kml: String
        var points: [[Double?]]?
    }

    struct List: Decodable { var items: [Answer] }

    static func post(_ server: TestServer, _ body: [UInt8], token: String, key: String? = nil) async throws -> TestingHTTPResponse {
        var headers = TestServer.bearer(token)
        headers.contentType = .json
        if let key { headers.replaceOrAdd(name: "Idempotency-Key", value: key) }
        return try await server.send(.POST, "/api/v1/paths", headers: headers, body: body)
    }

    static func body(name: String?, points: [[Any]]) throws -> [UInt8] {
        var object: [String: Any] = ["points": points]
        if let name { object["name"] = name }
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    static func user(_ server: TestServer, _ prefix: String) async throws -> String {
        try await server.register("\(prefix)-\(UUID().uuidString.prefix(8).lowercased())").token
    }

    /// A small path in Vienna: 5 points, a few metres each way.
    static var small: [[Any]] { [
        [48.2082, 16.3738, 171.5, 1_750_000_000.25], [48.2083, 16.3738, NSNull(), 1_750_000_001.25],
        [48.2083, 16.3740, 172, 1_750_000_002], [48.2082, 16.3740, 172, 1_750_000_003], [48.2082, 16.3738, 171.5, 1_750_000_004],
    ] }

    @Test("A walked 100 m square round-trips: the area is the library's and GeographicLib's, the points come back as sent, the KML validates against the OGC schema", arguments: TestDatabase.all)
    func roundTrip(database: TestDatabase) async throws {
        let walk = try await FieldPathReference.walk("100 m square, Vienna, clockwise")
        try await withServer(database) { server in
            let token = try await Self.user(server, "farmer")
            let body = try Self.body(name: "Nordacker / Süd", points: walk.points)
            let created = try await Self.post(server, body, token: token, key: "walk-\(UUID().uuidString)")
            #expect(created.status == .created, "\(created.text)")
            let path = try created.decode(Answer.self)
            #expect(created.headers.first(name: .location) == "/api/v1/paths/\(path.id)")

            let library = try FieldPath.decode(json: Data(body)).measure()
            let polygon = try #require(library.polygon)
            #expect(path.area == polygon.area, "the server's area is WaymarkCore's")
            #expect(path.perimeter == polygon.perimeter)
            #expect(path.length == library.length)
            let area = try #require(path.area)
            #expect(abs(area - abs(walk.area)) < 1e-3, "GeographicLib: \(abs(walk.area)) m², the server: \(area) m²")
            #expect(abs(area - 10_000) < 50, "a 100 m square is 10,000 m² within 0.5 %")
            #expect(path.name == "Nordacker / Süd")
            #expect(path.pointCount == walk.points.count)
            #expect(path.startedAt == Date(timeIntervalSince1970: 1_750_000_000))
            #expect(path.endedAt == Date(timeIntervalSince1970: 1_750_000_000 + Double(walk.points.count - 1)))
            #expect(path.kml == "/api/v1/paths/\(path.id).kml")
            #expect(path.points?.count == walk.points.count)

            // One path: the points exactly as sent.
            let one = try await server.send(.GET, "/api/v1/paths/\(path.id)", headers: TestServer.bearer(token))
            #expect(one.status == .ok)
            let read = try one.decode(Answer.self)
            let back = try #require(read.points)
            #expect(back.count == walk.points.count)
            // As sent: the body's numbers as JSON reads them.
            let sentPoints = try FieldPath.decode(json: Data(body)).points
            for (index, (got, sent)) in zip(back, sentPoints).enumerated() {
                let wanted = [sent.latitude, sent.longitude, sent.altitude, sent.time.timeIntervalSince1970]
                // Lat, lon and altitude exactly; the time as a Date keeps it (to a microsecond).
                guard got.count == 4, got[0] == wanted[0], got[1] == wanted[1], got[2] == wanted[2],
                      let time = got[3], let sentTime = wanted[3], abs(time - sentTime) < 1e-6
                else {
                    Issue.record("point \(index + 1) came back as \(got), was sent as \(wanted)")
                    break
                }
            }
            #expect(read.area == path.area && read.id == path.id)

            // The list: without points.
            let list = try await server.send(.GET, "/api/v1/paths", headers: TestServer.bearer(token))
            #expect(list.status == .ok)
            #expect(!list.text.contains("\"points\""))
            let items = try list.decode(List.self).items
            #expect(items.map(\.id) == [path.id])
            #expect(items.first?.area == path.area && items.first?.pointCount == walk.points.count)

            // The KML: a download named after the path, valid against the OGC schema, with the area.
            let kml = try await server.send(.GET, "/api/v1/paths/\(path.id).kml", headers: TestServer.bearer(token))
            #expect(kml.status == .ok)
            #expect(kml.headers.first(name: .contentType) == "application/vnd.google-earth.kml+xml")
            #expect(kml.headers.first(name: .contentDisposition) == "attachment; filename=\"Nordacker S_d.kml\"; filename*=UTF-8''Nordacker%20S%C3%BCd.kml")
            let document = Data(kml.body.readableBytesView)
            try await FieldPathReference.validate(document)
            let data = try KMLExtendedData.read(document)
            let written = try #require(data["area"].flatMap(Double.init))
            #expect(abs(written - area) <= 0.005)
            #expect(data["points"] == String(walk.points.count))

            // Deleted: gone from the list, 404 after.
            #expect(try await server.send(.DELETE, "/api/v1/paths/\(path.id)", headers: TestServer.bearer(token)).status == .noContent)
            #expect(try await server.send(.GET, "/api/v1/paths/\(path.id)", headers: TestServer.bearer(token)).status == .notFound)
            #expect(try await server.send(.GET, "/api/v1/paths/\(path.id).kml", headers: TestServer.bearer(token)).status == .notFound)
            #expect(try await server.send(.DELETE, "/api/v1/paths/\(path.id)", headers: TestServer.bearer(token)).status == .notFound)
            #expect(try await server.send(.GET, "/api/v1/paths", headers: TestServer.bearer(token)).decode(List.self).items.isEmpty)
        }
    }

    @Test("A retry under the same Idempotency-Key answers the same path and stores none; another path under that key is 409", arguments: TestDatabase.all)
    func idempotentRetry(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let token = try await Self.user(server, "resender")
            let body = try Self.body(name: "Wiese", points: Self.small)
            let key = "offline-\(UUID().uuidString)"
            let first = try await Self.post(server, body, token: token, key: key)
            #expect(first.status == .created, "\(first.text)")
            let second = try await Self.post(server, body, token: token, key: key)
            #expect(second.status == .created)
            #expect(try second.decode(Answer.self).id == (try first.decode(Answer.self).id))
            #expect(second.text == first.text, "the retry's answer is the first one's")
            // Sent again several at once (a page that resends while an earlier send is still under way).
            let server = server
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await Self.post(server, body, token: token, key: key + "-b").decode(Answer.self).id }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1, "one path for one key, however often sent at once")
            #expect(try await server.send(.GET, "/api/v1/paths", headers: TestServer.bearer(token)).decode(List.self).items.count == 2)

            let other = try Self.body(name: "Wiese 2", points: Self.small)
            let reused = try await Self.post(server, other, token: token, key: key)
            #expect(reused.status == .conflict)
            #expect(try reused.apiError().error == "idempotency_key_reused")
            // A key is the owner's: another user's same key stores their own path.
            let bob = try await Self.user(server, "neighbour")
            let theirs = try await Self.post(server, body, token: bob, key: key)
            #expect(theirs.status == .created)
            #expect(try theirs.decode(Answer.self).id != (try first.decode(Answer.self).id))
            // Without a key every send is a new path.
            #expect(try await Self.post(server, body, token: bob).status == .created)
            #expect(try await server.send(.GET, "/api/v1/paths", headers: TestServer.bearer(bob)).decode(List.self).items.count == 2)
            let badKey = try await Self.post(server, body, token: token, key: "with space")
            #expect(badKey.status == .badRequest)
            #expect(try badKey.apiError().error == "invalid_idempotency_key")
        }
    }

    @Test("Another user's path answers 404 to every read, export and delete; signed out is 401", arguments: TestDatabase.all)
    func ownership(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await Self.user(server, "alice")
            let bob = try await Self.user(server, "bob")
            let created = try await Self.post(server, try Self.body(name: "Alice's field", points: Self.small), token: alice)
            let id = try created.decode(Answer.self).id
            for target in ["/api/v1/paths/\(id)", "/api/v1/paths/\(id).kml"] {
                let answer = try await server.send(.GET, target, headers: TestServer.bearer(bob))
                #expect(answer.status == .notFound, "\(target)")
                #expect(try answer.apiError().error == "not_found")
                #expect(!answer.text.contains("Alice"))
            }
            #expect(try await server.send(.DELETE, "/api/v1/paths/\(id)", headers: TestServer.bearer(bob)).status == .notFound)
            #expect(try await server.send(.GET, "/api/v1/paths", headers: TestServer.bearer(bob)).decode(List.self).items.isEmpty)
            #expect(try await server.send(.GET, "/api/v1/paths/\(id)", headers: TestServer.bearer(alice)).status == .ok, "still Alice's")
            let later = try await Self.post(server, try Self.body(name: "Alice's meadow", points: Self.small), token: alice).decode(Answer.self)
            let listed = try await server.send(.GET, "/api/v1/paths", headers: TestServer.bearer(alice)).decode(List.self).items
            #expect(listed.map(\.id) == [later.id, id], "newest first")
            #expect(listed.allSatisfy { $0.points == nil && $0.pointCount == 5 }, "a count, not the points")

            for (method, target) in [(HTTPMethod.GET, "/api/v1/paths"), (.GET, "/api/v1/paths/\(id)"), (.GET, "/api/v1/paths/\(id).kml"),
                                     (.DELETE, "/api/v1/paths/\(id)"), (.POST, "/api/v1/paths")] {
                let answer = try await server.send(method, target, headers: ["Content-Type": "application/json"],
                                                   body: method == .POST ? try Self.body(name: nil, points: Self.small) : [])
                #expect(answer.status == .unauthorized, "\(method) \(target)")
            }
            for target in ["/api/v1/paths/not-a-uuid", "/api/v1/paths/\(UUID().uuidString).kml", "/api/v1/paths/\(id).gpx", "/api/v1/paths/.kml"] {
                #expect(try await server.send(.GET, target, headers: TestServer.bearer(alice)).status == .notFound, "\(target)")
            }
            // Signing in by cookie works too, and a cookie write from another site is refused.
            #expect(try await server.send(.GET, "/api/v1/paths/\(id)", headers: TestServer.cookie(alice)).status == .ok)
            var crossSite = TestServer.cookie(alice)
            crossSite.replaceOrAdd(name: "Origin", value: "https://evil.example")
            #expect(try await server.send(.DELETE, "/api/v1/paths/\(id)", headers: crossSite).status == .forbidden)
        }
    }

    @Test("Bad bodies are 400 naming the point and the field; too many points and too large bodies are 413; nothing is stored", arguments: TestDatabase.all)
    func badInput(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let token = try await Self.user(server, "clumsy")
            let cases: [(String, String)] = [
                ("", "not a JSON object"),
                ("not json", "not a JSON object"),
                (#"{"points": []}"#, "no points"),
                (#"{"name": "x"}"#, "no list of points"),
                (#"{"points": [[48, 16, null, 1750000000]], "owner": "someone-else"}"#, "unknown field \"owner\""),
                (#"{"points": [[48, 16, null, 1750000000], [48, 16, 1750000001]]}"#, "Point 2 has 3 values"),
                (#"{"points": [[48, 16, null, 1750000000], [48, "16", null, 1750000001]]}"#, "Point 2: the longitude is not a number"),
                (#"{"points": [[48, 16, null, 1750000000], [91, 16, null, 1750000001]]}"#, "Point 2: the latitude is beyond ±90°"),
                (#"{"points": [[48, 16, null, 1750000000000]]}"#, "Point 1: the time is not between 2000 and 2100"),
                (#"{"points": [[48, 16, null, 1750000002], [48, 16, null, 1750000003], [48, 16, null, 1750000001]]}"#,
                 "Point 3 is earlier than the point before it"),
                (#"{"name": 7, "points": [[48, 16, null, 1750000000]]}"#, "name must be text"),
            ]
            for (body, reason) in cases {
                let answer = try await Self.post(server, Array(body.utf8), token: token)
                #expect(answer.status == .badRequest, "\(body)")
                let error = try answer.apiError()
                #expect(error.error == "invalid_path", "\(body)")
                #expect(error.reason.contains(reason), "\(body): \(error.reason)")
            }
            // One point more than a day at one a second.
            let row = "[48.2,16.3,null,1750000000]"
            let many = "{\"points\": [" + Array(repeating: row, count: FieldPath.maximumPointCount + 1).joined(separator: ",") + "]}"
            let tooMany = try await Self.post(server, Array(many.utf8), token: token)
            #expect(tooMany.status == .payloadTooLarge)
            #expect(try tooMany.apiError().error == "too_many_points")
            #expect(try tooMany.apiError().reason.contains("86400"))
            // A body over 8 MiB is refused before it is read.
            let huge = "{\"points\": [" + Array(repeating: row, count: 320_000).joined(separator: ",") + "]}"
            #expect(huge.utf8.count > ServerConfiguration.maxBodySize)
            let tooLarge = try await Self.post(server, Array(huge.utf8), token: token)
            #expect(tooLarge.status == .payloadTooLarge)
            #expect(try tooLarge.apiError().error == "payload_too_large")
            #expect(try await server.send(.GET, "/api/v1/paths", headers: TestServer.bearer(token)).decode(List.self).items.isEmpty)

            // A day's walk at the limit is taken, measured and exported.
            let day = (0..<FieldPath.maximumPointCount).map { index -> String in
                let angle = Double(index) / Double(FieldPath.maximumPointCount) * 2 * .pi
                return "[\(48.2 + 0.001 * sin(angle)),\(16.3 + 0.0015 * cos(angle)),null,\(1_750_000_000 + index)]"
            }
            let full = try await Self.post(server, Array(("{\"points\": [" + day.joined(separator: ",") + "]}").utf8), token: token)
            #expect(full.status == .created, "\(full.text.prefix(200))")
            #expect(try full.decode(Answer.self).pointCount == FieldPath.maximumPointCount)
        }
    }

    @Test("Short paths: one place has no area (null), the KML is a valid Point; file names are safe")
    func shortPathsAndFileNames() async throws {
        try await withServer(.sqlite) { server in
            let token = try await Self.user(server, "stander")
            let created = try await Self.post(server, try Self.body(name: "../../etc/passwd\"; x=\u{00e9}", points: [[48.2, 16.3, NSNull(), 1_750_000_000]]), token: token)
            #expect(created.status == .created, "\(created.text)")
            let path = try created.decode(Answer.self)
            #expect(path.area == nil && path.perimeter == nil && path.length == 0)
            #expect(created.text.contains("\"area\":null"), "a missing measure is null, not left out")
            let kml = try await server.send(.GET, path.kml, headers: TestServer.bearer(token))
            #expect(kml.status == .ok)
            try await FieldPathReference.validate(Data(kml.body.readableBytesView))
            let disposition = try #require(kml.headers.first(name: .contentDisposition))
            #expect(disposition == "attachment; filename=\"etc_passwd_x__.kml\"; filename*=UTF-8''etc_passwd_x_%C3%A9.kml")

            let unnamed = try await Self.post(server, try Self.body(name: "   ", points: Self.small), token: token).decode(Answer.self)
            #expect(unnamed.name == nil)
            let file = try await server.send(.GET, unnamed.kml, headers: TestServer.bearer(token))
            #expect(file.headers.first(name: .contentDisposition) == "attachment; filename=\"field-path-2025-06-15.kml\"; filename*=UTF-8''field-path-2025-06-15.kml")
        }
    }
}

/// GeographicLib's walks (`Tests/Reference/field_path_reference.py`) and the OGC KML 2.2 schema,
/// as the WaymarkCore FieldPath tests use them.
enum FieldPathReference {
    struct Missing: Error, CustomStringConvertible { var description: String }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One labelled walk: points `[lat, lon, alt | NSNull, t]` and GeographicLib's signed area.
    static func walk(_ label: String) async throws -> (points: [[Any]], area: Double) {
        let python = root.appendingPathComponent(".build-venv/tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Missing(description: "\(python) is missing — run scripts/bootstrap (geographiclib)")
        }
        let output = try await ExternalTool.run([python, root.appendingPathComponent("Tests/Reference/field_path_reference.py").path, "walks"])
        let walks = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        let walk = try #require(walks.first { $0["label"] as? String == label }, "no walk \(label)")
        return (try #require(walk["points"] as? [[Any]]), try #require(walk["area"] as? Double))
    }

    /// Runs xmllint against the OGC KML 2.2 schema; throws with its messages unless the document validates.
    static func validate(_ document: Data) async throws {
        let lib = root.appendingPathComponent(".build-venv/tools/lib")
        let schema = ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? [])
            .filter { $0.hasPrefix("python") }
            .map { lib.appendingPathComponent("\($0)/site-packages/pykml/schemas/ogckml22.xsd").path }
            .first { FileManager.default.fileExists(atPath: $0) }
        guard let schema else {
            throw Missing(description: "the OGC KML 2.2 schema (pykml/schemas/ogckml22.xsd in .build-venv) is missing — run scripts/bootstrap")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-path-\(UUID().uuidString).kml")
        try document.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await ExternalTool.run(["xmllint", "--nonet", "--noout", "--schema", schema, file.path])
    }
}

/// The `<Data name=…><value>…</value></Data>` pairs of a KML document.
final class KMLExtendedData: NSObject, XMLParserDelegate {
    private var values: [String: String] = [:]
    private var current: String?
    private var text = ""

    static func read(_ document: Data) throws -> [String: String] {
        let reader = KMLExtendedData()
        let parser = XMLParser(data: document)
        parser.delegate = reader
        guard parser.parse() else { throw FieldPathReference.Missing(description: "the KML is not well-formed XML") }
        return reader.values
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if name == "Data" { current = attributes["name"] }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "value", let current { values[current] = text }
        if name == "Data" { current = nil }
    }
}
