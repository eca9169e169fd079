import Crypto
import Foundation
import NIOCore
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
@testable import WaymarkServer

/// The rules of #34 that the hostile-client suite (Tests/Hostile) replays over a real socket,
/// here in-process on both databases and as units.
@Suite("Hardening")
struct HardeningTests {
    /// A capture time no other test's photo has, so that each test's JPEG has bytes of its own.
    static func uniqueTime() -> String {
        "20\(Int.random(in: 10...39)):0\(Int.random(in: 1...9)):1\(Int.random(in: 0...9)) \(Int.random(in: 10...23)):\(Int.random(in: 10...59)):\(Int.random(in: 10...59))"
    }

    @Test("A cursor opens only unchanged and for its own list; a changed byte, another list or made-up text does not")
    func cursorSeal() throws {
        let seal = CursorSeal(key: SymmetricKey(size: .bits256))
        let position = NearbyCursor(distance: 12.5, capturedAt: 1_700_000_000, id: UUID())
        let text = seal.text(position, binding: "nearby-photos|46.05|14.5|1609.344|distance|-|-")
        #expect(seal.open(NearbyCursor.self, from: text, binding: "nearby-photos|46.05|14.5|1609.344|distance|-|-") == position)
        #expect(seal.open(NearbyCursor.self, from: text, binding: "nearby-photos|46.05|14.5|5000.0|distance|-|-") == nil, "another radius")
        #expect(CursorSeal(key: SymmetricKey(size: .bits256)).open(NearbyCursor.self, from: text, binding: "nearby-photos|46.05|14.5|1609.344|distance|-|-") == nil,
                "another server's key")
        var changed = Array(text)
        let index = changed.index(changed.startIndex, offsetBy: 3)
        changed[index] = changed[index] == "A" ? "B" : "A"
        #expect(seal.open(NearbyCursor.self, from: String(changed), binding: "nearby-photos|46.05|14.5|1609.344|distance|-|-") == nil)
        // The forged cursor of the finding: a negative distance, unsealed.
        let forged = Data(#"{"distance":-1000,"capturedAt":0,"id":"\#(UUID().uuidString)"}"#.utf8).base64EncodedString()
        #expect(seal.open(NearbyCursor.self, from: forged, binding: "nearby-photos|46.05|14.5|1609.344|distance|-|-") == nil)
        #expect(!NearbyCursor(distance: -1000, capturedAt: 0, id: UUID()).fits(radius: 1_609.344))
        #expect(!NearbyCursor(distance: 2_000, capturedAt: 0, id: UUID()).fits(radius: 1_609.344))
    }

    @Test("Nearby pages through every photo once with its cursors; a forged or foreign cursor answers 400 invalid_cursor", arguments: TestDatabase.all)
    func nearbyCursors(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let centre = (latitude: -30.0 - Double.random(in: 0..<5), longitude: 120.0 + Double.random(in: 0..<5))
            let data = try await TestPhoto.jpeg(in: folder, time: Self.uniqueTime())
            var uploaded: Set<UUID> = []
            for index in 0..<4 {
                let photo = try await server.upload(data, token: alice.token, fields: [
                    "latitude": "\(centre.latitude + Double(index) * 0.001)", "longitude": "\(centre.longitude)",
                ]).decode(PhotoDTO.self)
                uploaded.insert(photo.id)
            }
            let base = "/api/v1/photos/nearby?latitude=\(centre.latitude)&longitude=\(centre.longitude)&radius=2000&limit=1"
            var seen: [UUID] = []
            var cursor: String?
            repeat {
                let target = base + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await server.send(.GET, target).decode(WaymarkAPI.Page<PhotoDTO>.self)
                seen += page.items.map(\.id)
                cursor = page.next
            } while cursor != nil && seen.count < 10
            #expect(seen.count == 4 && Set(seen) == uploaded, "\(seen)")

            let first = try #require(try await server.send(.GET, base).decode(WaymarkAPI.Page<PhotoDTO>.self).next)
            let forged = RandomToken.base64URL(Array(#"{"distance":-1000,"capturedAt":0,"id":"\#(UUID().uuidString)"}"#.utf8))
            for (target, what) in [(base + "&cursor=\(forged)", "forged"),
                                   (base.replacingOccurrences(of: "radius=2000", with: "radius=3000") + "&cursor=\(first)", "another radius"),
                                   (base + "&sort=recent&cursor=\(first)", "another order")] {
                let answer = try await server.send(.GET, target)
                #expect(answer.status == .badRequest, "\(what)")
                #expect(try answer.apiError().error == "invalid_cursor", "\(what)")
            }
        }
    }

    @Test("A private photo's place from its own GPS is not published when it is made public, unless its owner says so", arguments: TestDatabase.all)
    func placeFromFile(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let place = (-41.0 - Double.random(in: 0..<5), -160.0 - Double.random(in: 0..<5))
            let data = try await TestPhoto.jpeg(in: folder, time: Self.uniqueTime(), gps: place)
            func makePublic(_ id: UUID, _ body: [String: Any]) async throws -> PhotoDTO {
                var headers = TestServer.bearer(alice.token)
                headers.contentType = .json
                return try await server.send(.PATCH, "/api/v1/photos/\(id)", headers: headers,
                                             body: Array(try JSONSerialization.data(withJSONObject: body))).decode(PhotoDTO.self)
            }
            let secret = try await server.upload(data, token: alice.token, fields: ["visibility": "private"]).decode(PhotoDTO.self)
            #expect(secret.latitude != nil)
            let published = try await makePublic(secret.id, ["visibility": "public"])
            #expect(published.visibility == "public" && published.latitude == nil && published.longitude == nil)
            let nearby = try await server.send(.GET, "/api/v1/photos/nearby?latitude=\(place.0)&longitude=\(place.1)&radius=100")
                .decode(WaymarkAPI.Page<PhotoDTO>.self)
            #expect(!nearby.items.contains { $0.id == secret.id })

            let consented = try await server.upload(data, token: alice.token, fields: ["visibility": "private"]).decode(PhotoDTO.self)
            let kept = try await makePublic(consented.id, ["visibility": "public", "usePhotoPlace": true])
            #expect(abs((kept.latitude ?? 0) - place.0) < 1e-6)

            // A place the phone sent is the owner's own and stays.
            let given = try await server.upload(data, token: alice.token, fields: ["visibility": "private", "latitude": "10", "longitude": "20"])
                .decode(PhotoDTO.self)
            #expect(try await makePublic(given.id, ["visibility": "public"]).latitude == 10)
            // Unticked on the photo page, no place is published, whoever gave it.
            let withdrawn = try await server.upload(data, token: alice.token, fields: ["visibility": "private", "latitude": "10", "longitude": "20"])
                .decode(PhotoDTO.self)
            #expect(try await makePublic(withdrawn.id, ["visibility": "public", "usePhotoPlace": false]).latitude == nil)
            // usePhotoPlace is true or false; null or another type is refused (schemathesis).
            var headers = TestServer.bearer(alice.token)
            headers.contentType = .json
            for body in [#"{"visibility":"public","usePhotoPlace":null}"#, #"{"visibility":"public","usePhotoPlace":"yes"}"#] {
                #expect(try await server.send(.PATCH, "/api/v1/photos/\(given.id)", headers: headers, body: Array(body.utf8)).status == .badRequest, "\(body)")
            }
        }
    }

    @Test("A cluster's box loses the corner of a photo that was made private or deleted", arguments: TestDatabase.all)
    func clusterExtent(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let data = try await TestPhoto.jpeg(in: folder, time: Self.uniqueTime())
            let base = (latitude: 10.0 + Double.random(in: 0..<1), longitude: 10.0 + Double.random(in: 0..<1))
            var ids: [UUID] = []
            for offset in [0.0, 0.01, 0.02] {
                ids.append(try await server.upload(data, token: alice.token, fields: [
                    "latitude": "\(base.latitude + offset)", "longitude": "\(base.longitude + offset)",
                ]).decode(PhotoDTO.self).id)
            }
            // The zoom-3 tile that holds them (Web Mercator).
            let radians = base.latitude * .pi / 180
            let tile = (x: Int((base.longitude + 180) / 360 * 8), y: Int((1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2 * 8))
            // This test's cluster: the one within 0.1° of its photos (on PostgreSQL other tests'
            // photos share the database and may cluster in the same tile).
            func box() async throws -> [Double] {
                let body = try await server.send(.GET, "/api/v1/photos/clusters/3/\(tile.x)/\(tile.y)").body
                let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
                let features = json?["features"] as? [[String: Any]] ?? []
                let cluster = features.first { feature in
                    let point = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
                    let count = (feature["properties"] as? [String: Any])?["count"] as? Int ?? 0
                    return count > 1 && point.count == 2 && abs(point[0] - base.longitude) < 0.1 && abs(point[1] - base.latitude) < 0.1
                }
                return (cluster?["properties"] as? [String: Any])?["bbox"] as? [Double] ?? []
            }
            let full = try await box()
            let answer = try await server.send(.GET, "/api/v1/photos/clusters/3/\(tile.x)/\(tile.y)").text
            #expect(full.last.map { abs($0 - (base.latitude + 0.02)) < 1e-6 } == true, "\(full) \(tile) \(answer)")
            var headers = TestServer.bearer(alice.token)
            headers.contentType = .json
            _ = try await server.send(.PATCH, "/api/v1/photos/\(ids[2])", headers: headers, body: Array(#"{"visibility":"private"}"#.utf8))
            let shrunk = try await box()
            #expect(shrunk.count == 4 && abs(shrunk[3] - (base.latitude + 0.01)) < 1e-6 && abs(shrunk[2] - (base.longitude + 0.01)) < 1e-6, "\(shrunk)")
            _ = try await server.send(.DELETE, "/api/v1/photos/\(ids[0])", headers: TestServer.bearer(alice.token))
            #expect(try await box().isEmpty, "one photo left: no cluster")
        }
    }

    @Test("A foreign write passes only when a header authenticates it; a bad Authorization never falls back to the cookie", arguments: TestDatabase.all)
    func crossSiteHeaders(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let session = try await server.register("gina-\(UUID().uuidString.prefix(8).lowercased())")
            let cookie = TestServer.cookie(session.token)
            for extra: HTTPHeaders in [["Authorization": "Bearer wmt_bogus"], ["X-API-Sig": "bogus"], ["Authorization": "Basic eDp5"]] {
                let refused = try await server.json(.POST, "/api/v1/keys", NewDeviceKeyRequest(name: "planted"),
                                                    headers: cookie.merging(["Origin": "https://evil.example"]).merging(extra))
                #expect(refused.status == .forbidden, "\(extra)")
            }
            let bogus = try await server.json(.POST, "/api/v1/keys", NewDeviceKeyRequest(name: "planted"),
                                              headers: cookie.merging(["Authorization": "Bearer wmt_bogus"]))
            #expect(bogus.status == .unauthorized, "no fallback to the cookie")
            let listed = try await server.send(.GET, "/api/v1/keys", headers: cookie).decode(WaymarkAPI.Page<DeviceKeyDTO>.self)
            #expect(listed.items.isEmpty)
            let created = try await server.json(.POST, "/api/v1/keys", NewDeviceKeyRequest(name: "app"),
                                                headers: TestServer.bearer(session.token).merging(["Origin": "https://evil.example"]))
            #expect(created.status == .created)
            #expect(created.headers.first(name: .cacheControl) == "no-store", "the secret is kept by no cache")
        }
    }

    @Test("Host names: the configured and loopback names and IP addresses are answered, any other 421 unknown_host")
    func hostNames() {
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
        configuration.publicNames = ["Photos.Example.org"]
        let check = HostCheckMiddleware(configuration: configuration, hostName: "box.lan")
        for host in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "192.0.2.4", "photos.example.org", "PHOTOS.example.org:8443",
                     "box", "box.lan:8080", "box.local", "app.localhost:9"] {
            #expect(check.admits(host), "\(host)")
        }
        for host in ["evil.example", "photos.example.org.evil.example", "127.0.0.1.nip.io", "box.evil"] {
            #expect(!check.admits(host), "\(host)")
        }
    }

    @Test("/vendor/ serves exactly the libraries the app caches (VENDOR_FILES in Web/app/shell.js)")
    func vendorList() throws {
        let shell = try String(contentsOf: WebAppTests.web.appendingPathComponent("app/shell.js"), encoding: .utf8)
        let list = try #require(shell.firstMatch(of: /VENDOR_FILES = Object\.freeze\(\[([^\]]*)\]/)?.1)
        let files = Set(list.matches(of: /'\/vendor\/([^']+)'/).map { String($0.1) })
        #expect(!files.isEmpty && files == WebAppMiddleware.vendorLibraries)
        #expect(WebAppMiddleware.isVendorLibrary("leaflet/images/marker-icon.png"))
        #expect(!WebAppMiddleware.isVendorLibrary("leaflet/images/../../typescript/lib.d.ts"))
        #expect(!WebAppMiddleware.isVendorLibrary("typescript/package.json"))
    }

    @Test("The multipart reader keeps known fields only, and stops at its total size and its part count")
    func multipartLimits() throws {
        func form(_ parts: [(String, String)]) -> ByteBuffer {
            var text = ""
            for (name, value) in parts {
                text += "--b\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
            }
            return ByteBuffer(string: text + "--b--\r\n")
        }
        let limits = MultipartFormLimits(maxTotalBytes: 10_000, maxFileBytes: 1_000)
        let reader = try MultipartFormReader(boundary: "b", fileParts: ["photo"], fieldLimits: ["title": 100], limits: limits)
        _ = try reader.read(form([("title", "Lake"), ("unknown", "kept nowhere"), ("title", "second")]))
        try reader.finish()
        #expect(reader.fields == ["title": "Lake"])

        let many = try MultipartFormReader(boundary: "b", fileParts: ["photo"], fieldLimits: ["title": 100], limits: limits)
        #expect(throws: MultipartProblem.tooManyParts) { _ = try many.read(form((0..<40).map { ("f\($0)", "x") })) }

        let large = try MultipartFormReader(boundary: "b", fileParts: ["photo"], fieldLimits: [:], limits: limits)
        #expect(throws: MultipartProblem.tooLarge) { _ = try large.read(form([("", String(repeating: "x", count: 20_000))])) }
    }
}

@Suite("Behind a proxy")
struct TrustedProxyTests {
    @Test("Address ranges: v4, v6, CIDR and v4-mapped v6; junk is refused")
    func ranges() throws {
        let loopback = try #require(IPRange("127.0.0.1")), private10 = try #require(IPRange("10.0.0.0/8")), v6 = try #require(IPRange("fd00::/8"))
        #expect(loopback.contains("127.0.0.1") && loopback.contains("::ffff:127.0.0.1") && !loopback.contains("127.0.0.2"))
        #expect(private10.contains("10.200.3.4") && !private10.contains("11.0.0.1") && !private10.contains("fd00::1"))
        #expect(v6.contains("fd12:3456::1") && !v6.contains("fe80::1"))
        #expect(IPRange("::1")?.contains("::1") == true)
        for junk in ["", "localhost", "10.0.0.0/33", "10.0.0.0/", "::/129", "1.2.3.4/x", "1.2.3"] { #expect(IPRange(junk) == nil, "\(junk)") }
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
        #expect(throws: ServerConfiguration.ProxyProblem.notAnAddress("proxy.lan")) { try configuration.trustProxies(["127.0.0.1", "proxy.lan"]) }
    }

    /// Thirty failed sign-ins across names, each from `X-Forwarded-For: forwarded`, over a real socket (the peer is 127.0.0.1),
    /// then a sign-in of another account from `X-Forwarded-For: then`: its status. The server's clock stands still: the
    /// 30th failure paces its address for 1 s, and on CI's loaded cores more than that passed before the last attempt.
    static func signInAfterFailures(trusting proxies: [String], forwarded: String, then: String, database: TestDatabase) async throws -> HTTPStatus {
        try await withServer(database, dependencies: ServerDependencies(clock: .fixed(Date()), passwordCost: .minimum),
                             configuration: { try? $0.trustProxies(proxies) }) { server in
            let name = "owner-\(UUID().uuidString.prefix(8).lowercased())"
            _ = try await server.register(name)
            let tester = try server.app.testing(method: .running(port: 0))
            for index in 0..<30 {
                try await tester.test(.POST, "/api/v1/sessions", beforeRequest: { request in
                    request.headers.contentType = .json
                    request.headers.replaceOrAdd(name: .xForwardedFor, value: forwarded)
                    request.body = ByteBuffer(bytes: try JSONEncoder().encode(SignInRequest(username: "ghost\(index)-\(name)", password: "whatever it is")))
                }, afterResponse: { response in
                    #expect(response.status == .unauthorized, "attempt \(index)")
                })
            }
            var status = HTTPStatus.internalServerError
            try await tester.test(.POST, "/api/v1/sessions", beforeRequest: { request in
                request.headers.contentType = .json
                request.headers.replaceOrAdd(name: .xForwardedFor, value: then)
                request.body = ByteBuffer(bytes: try JSONEncoder().encode(SignInRequest(username: name, password: "correct horse battery")))
            }, afterResponse: { response in status = response.status })
            return status
        }
    }

    @Test("With --trusted-proxy, one client's failures pace that client only; without it X-Forwarded-For changes nothing", arguments: TestDatabase.all)
    func throttleSeesTheClient(database: TestDatabase) async throws {
        #expect(try await Self.signInAfterFailures(trusting: ["127.0.0.1"], forwarded: "203.0.113.9", then: "203.0.113.10", database: database) == .ok)
        #expect(try await Self.signInAfterFailures(trusting: ["127.0.0.1"], forwarded: "203.0.113.9", then: "198.51.100.1, 203.0.113.9", database: database)
                == .tooManyRequests, "the rightmost address that is no trusted proxy's is the client: a client cannot prepend its way out")
        #expect(try await Self.signInAfterFailures(trusting: [], forwarded: "203.0.113.9", then: "203.0.113.10", database: database) == .tooManyRequests,
                "from an untrusted peer the header is ignored: every attempt is 127.0.0.1's")
    }
}
