import AsyncHTTPClient
import Foundation
import Logging
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkTestSupport
@testable import WaymarkServer

/// The optional street address of a scene's page from a Nominatim-compatible geocoder
/// (`waymark serve --nominatim-url`, DESIGN §3.9), against a stand-in that answers as Nominatim's
/// `/reverse` does and logs what it was asked.
@Suite("Street addresses from a Nominatim-compatible geocoder: asked only for a scene's own page, in its language, cached, spaced, and never breaking the page")
struct StreetAddressTests {
    /// A stand-in geocoder. Its answers come in turn from the JSON list in its second argument (the
    /// last one again when they run out): "ok" answers as Nominatim does, naming the asked point
    /// and language in `display_name`; "sea" is Nominatim's "Unable to geocode"; "nolicence" an
    /// answer without `licence`; "garbage", "500", "huge", "control" and "slow" (5 s) are broken;
    /// "slow2" answers after 2 s.
    static let script = #"""
import http.server, json, os, sys, time, urllib.parse
log, modes = sys.argv[1], json.loads(sys.argv[2])
seen = []
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        seen.append({"path": url.path, "query": query, "agent": self.headers.get("User-Agent", ""), "at": time.monotonic()})
        open(log + ".tmp", "w").write(json.dumps(seen)); os.replace(log + ".tmp", log)
        mode = modes.pop(0) if len(modes) > 1 else modes[0]
        name = "Náměstí Svobody 1, 602 00 Brno [%s %s %s]" % (query.get("lat"), query.get("lon"), query.get("accept-language"))
        answer = {"place_id": 1, "licence": "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
                  "osm_type": "node", "lat": query.get("lat"), "lon": query.get("lon"), "display_name": name}
        status, body = 200, json.dumps(answer)
        if mode == "sea": body = json.dumps({"error": "Unable to geocode"})
        elif mode == "nolicence": del answer["licence"]; body = json.dumps(answer)
        elif mode == "garbage": body = "<html>Service Unavailable</html>"
        elif mode == "500": status = 500
        elif mode == "huge": answer["display_name"] = "x" * 200000; body = json.dumps(answer)
        elif mode == "control": answer["display_name"] = "Brno\u0007\u001b[2J"; body = json.dumps(answer)
        elif mode == "slow": time.sleep(5)
        elif mode == "slow2": time.sleep(2)
        data = body.encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    static func geocoder(_ modes: [String]) throws -> ScriptedServer {
        try ScriptedServer(script: script, arguments: [String(decoding: try JSONSerialization.data(withJSONObject: modes), as: UTF8.self)])
    }

    static func lookups(_ geocoder: ScriptedServer) throws -> [[String: Any]] {
        try geocoder.requests()
    }

    @Test("A scene's page carries the street address in the page's language; lists and the create answer do not ask; a second view is answered from the cache")
    func scenePage() async throws {
        let geocoder = try Self.geocoder(["ok"])
        try await withServer(.sqlite, configuration: { $0.nominatim = try? ServiceURL(geocoder.url.absoluteString) }) { server in
            let alice = try await server.register(sceneUser("alice"))
            let scene = try await server.scene(token: alice.token)
            #expect(scene.address?.street == nil, "the create answer does not wait for the geocoder")
            let list = try await server.send(.GET, "/api/v1/scenes?latitude=49.19522&longitude=16.60796")
            #expect(list.status == .ok && list.text.contains(#""street":null"#), "\(list.text)")
            #expect(try Self.lookups(geocoder).isEmpty, "only a scene's own page asks the geocoder")

            let german = try await server.send(.GET, "/api/v1/scenes/\(scene.id)", headers: ["Accept-Language": "de-DE,de;q=0.9,en;q=0.5"])
            #expect(german.status == .ok, "\(german.text)")
            let address = try #require(try german.decode(SceneDTO.self).address)
            #expect(address.line == "Brno, South Moravian, Czechia", "the gazetteer's line stays")
            #expect(address.street == StreetAddressDTO(line: "Náměstí Svobody 1, 602 00 Brno [49.19522 16.60796 de-de]",
                                                       attribution: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright"))
            var asked = try Self.lookups(geocoder)
            #expect(asked.count == 1)
            let query = try #require(asked.first?["query"] as? [String: String])
            #expect(asked.first?["path"] as? String == "/reverse")
            #expect(query == ["format": "jsonv2", "lat": "49.19522", "lon": "16.60796", "zoom": "18", "addressdetails": "0", "accept-language": "de-de"])
            #expect((asked.first?["agent"] as? String)?.hasPrefix("Waymark (") == true, "Nominatim's policy asks for a User-Agent naming the application")

            // Again in German: from the cache. In English (no Accept-Language): asked once more.
            _ = try await server.send(.GET, "/api/v1/scenes/\(scene.id)", headers: ["Accept-Language": "de-DE"])
            #expect(try Self.lookups(geocoder).count == 1)
            let english = try await server.send(.GET, "/api/v1/scenes/\(scene.id)")
            #expect(try english.decode(SceneDTO.self).address?.street?.line.hasSuffix("[49.19522 16.60796 en]") == true, "\(english.text)")
            asked = try Self.lookups(geocoder)
            #expect(asked.count == 2)
        }
    }

    @Test("Without --nominatim-url a scene's page has no street and the server asks no one")
    func offByDefault() async throws {
        let geocoder = try Self.geocoder(["ok"])
        try await withServer(.sqlite) { server in
            #expect(server.configuration.nominatim == nil)
            let alice = try await server.register(sceneUser("alice"))
            let scene = try await server.scene(token: alice.token)
            let page = try await server.send(.GET, "/api/v1/scenes/\(scene.id)", headers: ["Accept-Language": "de"])
            let address = try #require(try page.decode(SceneDTO.self).address)
            #expect(address.street == nil && address.line == "Brno, South Moravian, Czechia")
            #expect(page.text.contains(#""street":null"#))
            #expect(try Self.lookups(geocoder).isEmpty)
        }
    }

    @Test("A geocoder that is broken, slow or has nothing there leaves the page without a street — the page still answers, and the failure is kept rather than asked on every view", arguments: [
        "sea", "garbage", "500", "huge", "control", "slow",
    ])
    func brokenAnswers(_ mode: String) async throws {
        let geocoder = try Self.geocoder([mode])
        try await withServer(.sqlite, configuration: { $0.nominatim = try? ServiceURL(geocoder.url.absoluteString) }) { server in
            let alice = try await server.register(sceneUser("alice"))
            let scene = try await server.scene(token: alice.token)
            let page = try await server.send(.GET, "/api/v1/scenes/\(scene.id)")
            #expect(page.status == .ok, "\(page.text)")
            let address = try #require(try page.decode(SceneDTO.self).address)
            #expect(address.street == nil && address.line == "Brno, South Moravian, Czechia", "\(mode): \(page.text)")
            // Viewed again: the failure (or "nothing there") is kept, not asked on every view.
            #expect(try await server.send(.GET, "/api/v1/scenes/\(scene.id)").status == .ok)
            #expect(try Self.lookups(geocoder).count == 1, "\(mode)")
        }
    }

    @Test("A geocoder nobody listens on: no street")
    func nobodyListens() async throws {
        let port = await try unusedLocalPort()
        let streets = StreetAddresses(geocoder: try ServiceURL("http://127.0.0.1:\(port)"), http: HTTPClient.shared, logger: Logger(label: "test"))
        #expect(await streets.address(latitude: 49.2, longitude: 16.6, language: "en") == nil)
        #expect(await streets.address(latitude: 49.2, longitude: 16.6, language: "en") == nil)
    }

    @Test("At most one request a second where the geocoder sees them: of three points asked at once, one goes without; a slow answer pushes the next request back")
    func oneRequestASecond() async throws {
        let geocoder = try Self.geocoder(["ok"])
        let streets = StreetAddresses(geocoder: try ServiceURL(geocoder.url.absoluteString), http: HTTPClient.shared, logger: Logger(label: "test"))
        async let first = streets.address(latitude: 49.1, longitude: 16.1, language: "en")
        async let second = streets.address(latitude: 49.2, longitude: 16.2, language: "en")
        async let third = streets.address(latitude: 49.3, longitude: 16.3, language: "en")
        let answers = await [first, second, third]
        #expect(answers.contains(nil), "a third request within the second would break the policy: \(answers)")
        let times = try Self.lookups(geocoder).compactMap { $0["at"] as? Double }.sorted()
        #expect(times.count <= 2, "\(times)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 0.95 }, "Nominatim's policy: one request a second as it arrives (\(times))")

        // A request that takes 2 s: the next one waits for its end plus a second — past its
        // page's patience, so it goes without (a busy machine may let it through, but never
        // sooner than a second after the slow one ended); a missed turn is not kept.
        let slow = try Self.geocoder(["slow2", "ok"])
        let patient = StreetAddresses(geocoder: try ServiceURL(slow.url.absoluteString), http: HTTPClient.shared, logger: Logger(label: "test"))
        async let late = patient.address(latitude: 49.1, longitude: 16.1, language: "en")
        try await Task.sleep(for: .milliseconds(100))
        async let next = patient.address(latitude: 49.2, longitude: 16.2, language: "en")
        let (lateAnswer, nextAnswer) = await (late, next)
        let slowTimes = try Self.lookups(slow).compactMap { $0["at"] as? Double }
        if slowTimes.count == 2 {
            #expect(slowTimes[1] - slowTimes[0] >= 2.95, "after the slow request's end plus a second: \(slowTimes)")
        } else if nextAnswer != nil {
            // On a machine so busy that the slow one's task started past its page's patience, it
            // went without a turn and the next one took it: one request was sent, the next one's.
            #expect(lateAnswer == nil && slowTimes.count == 1, "one request sent, and only one answered: \(slowTimes), \(String(describing: lateAnswer))")
        } else {
            // The slow one was sent (on a machine so busy that even its task started over 2 s late,
            // it too went without a turn, and nothing was sent); the next one was not.
            #expect(slowTimes.count <= 1, "a request without a turn is not sent: \(slowTimes)")
            // A missed turn is not kept: a later view asks. (On a loaded machine the view right
            // after may itself come too late for the turn it is given, so a few views are allowed,
            // a spacing apart.)
            var asked = false
            for _ in 0..<10 where !asked {
                _ = await patient.address(latitude: 49.2, longitude: 16.2, language: "en")
                asked = try Self.lookups(slow).count > slowTimes.count
                if !asked { try await Task.sleep(for: StreetAddresses.spacing) }
            }
            #expect(asked, "a missed turn is not kept: a later view asks")
            #expect(try Self.lookups(slow).count == slowTimes.count + 1, "one view, one request")
        }
    }

    @Test("Reading answers: the line and the licence, Nominatim's error as 'nothing there', and anything off the contract refused")
    func parsing() {
        let ok = StreetAddresses.parse(Data(#"{"display_name": "  1, Main Street, Springfield ", "licence": "Data © OSM"}"#.utf8))
        #expect(ok == .found(StreetAddressDTO(line: "1, Main Street, Springfield", attribution: "Data © OSM")))
        let noLicence = StreetAddresses.parse(Data(#"{"display_name": "Brno"}"#.utf8))
        #expect(noLicence == .found(StreetAddressDTO(line: "Brno", attribution: StreetAddresses.defaultAttribution)))
        let oddLicence = StreetAddresses.parse(Data(#"{"display_name": "Brno", "licence": 42}"#.utf8))
        #expect(oddLicence.address?.attribution == StreetAddresses.defaultAttribution)
        #expect(StreetAddresses.parse(Data(#"{"error": "Unable to geocode"}"#.utf8)) == .nothingThere)
        for broken in ["", "null", "[]", #"{"display_name": 7}"#, #"{"display_name": "   "}"#, #"{"name": "Brno"}"#,
                       #"{"display_name": "a\u0000b"}"#, "{\"display_name\": \"\(String(repeating: "x", count: 1_001))\"}", "{\"display_name\": \"Brno\""] {
            if case .failed = StreetAddresses.parse(Data(broken.utf8)) {} else { Issue.record("\(broken.prefix(40)) was accepted") }
        }
    }

    @Test("The language asked for is Accept-Language's first tag when it is a language tag, else English")
    func language() {
        let cases: [(String?, String)] = [
            (nil, "en"), ("de", "de"), ("de-DE,de;q=0.9,en;q=0.5", "de-de"), ("cs;q=1, en", "cs"), ("zh-Hant-TW", "zh-hant-tw"),
            ("*", "en"), ("", "en"), ("d", "en"), ("deutsch", "en"), ("de-", "en"), ("de DE", "en"), ("'; DROP TABLE scenes; --", "en"),
            ("en-verylongsubtag", "en"), ("ü", "en"), ("a-b-c-d-e", "en"),
        ]
        for (header, expected) in cases {
            #expect(StreetAddresses.language(acceptLanguage: header) == expected, "\(String(describing: header))")
        }
    }
}
