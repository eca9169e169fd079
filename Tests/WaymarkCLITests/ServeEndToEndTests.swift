#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
import WaymarkTestSupport

/// The whole round trip through the real binaries: `waymark keys create`, `waymark serve`, an
/// upload through WaymarkClient, a server restart, then `waymark tag --server` finds the route by
/// the QR photo's nonce. Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
@Suite("waymark serve, end to end", .serialized)
struct ServeEndToEndTests {
    final class Server {
        let process: Process
        let port: Int
        let output: CapturedOutput

        init(data: URL, port: Int) throws {
            self.port = port
            output = try CapturedOutput()
            process = WaymarkBinary.start(["serve", "--data", data.path, "--port", String(port)])
            process.standardOutput = output.stdout
            process.standardError = output.stderr
            try process.run()
        }

        func stop() {
            process.stop(SIGTERM, grace: 30)
        }
    }

    static func freePort() async throws -> Int {
        let text = String(decoding: try await ExternalTool.run(["python3", "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])"]), as: UTF8.self)
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 18_080
    }

    /// Waits until the server answers (a signed GET of an unknown route gives 404 → nil).
    static func waitUntilUp(_ client: WaymarkClient) async throws {
        var quick = client
        quick.retry = RetryPolicy(maxAttempts: 1)
        quick.requestTimeout = 1
        for _ in 0..<150 {
            do {
                _ = try await quick.route(id: "probe")  // an answer, 404 included, means it is up
                return
            } catch {
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
        Issue.record("the server did not come up")
    }

    @Test("a route uploaded before a restart tags the photos of its QR code; export and delete work", arguments: CLIDatabase.all)
    func uploadRestartTag(database: CLIDatabase) async throws {
        try await database.run { try await uploadRestartTag() }
    }

    private func uploadRestartTag() async throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data")
        let keyOutput = try await WaymarkBinary.run(["keys", "create", "e2e", "--json", "--data", data.path])
        #expect(keyOutput.status == 0, "\(keyOutput.stderr)")
        let credentials = try JSONSerialization.jsonObject(with: Data(keyOutput.stdout.utf8)) as? [String: String] ?? [:]
        let key = try #require(credentials["key"]), secret = try #require(credentials["secret"])
        let port = try await Self.freePort()
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let client = WaymarkClient(credentials: ServerCredentials(serverURL: url, key: key, secret: secret))

        // A walk with one QR photo, the camera 7 min 03 s slow.
        let nonce = QRPayload.makeNonce()
        let start = 1_717_236_000.0
        let fixes = stride(from: -30.0, through: 300, by: 1).map {
            Fix(latitude: 46.0 + $0 / 100_000, longitude: 14.0 + $0 / 50_000, altitude: 300, accuracy: 5, time: Date(timeIntervalSince1970: start + $0))
        }
        let route = Route(nonce: nonce, qrPeriod: 1, tracks: [Track(fixes: fixes)])
        let passphrase = "a long passphrase, not in argv"
        let envelope = try RouteEnvelope.seal(route, passphrase: passphrase, nonce: nonce, kdf: .scrypt(n: 1024))
        let deleteToken = RouteKeys.deleteToken(master: try envelope.masterKey(passphrase: passphrase))
        let request = CreateRouteRequest(envelope: envelope, lookup: RouteKeys.lookupKey(nonce: nonce),
                                         deleteTokenHash: try RouteKeys.deleteTokenHash(token: deleteToken))

        var server = try Server(data: data, port: port)
        try await Self.waitUntilUp(client)
        let created = try await client.createRoute(request, idempotencyKey: "e2e-\(nonce)")
        server.stop()

        let trip = await try TwoPhotoTrip(in: folder.url, start: start, nonce: nonce)
        let (photos, qr, other) = (trip.photos, trip.qr, trip.other)

        server = try Server(data: data, port: port)
        defer { server.stop() }
        try await Self.waitUntilUp(client)
        let env = ["WAYMARK_API_KEY": key, "WAYMARK_API_SECRET": secret, "WAYMARK_PASSPHRASE": passphrase]
        let tag = try await WaymarkBinary.run(["tag", photos.path, "--server", url.absoluteString, "--json"], environment: env)
        #expect(tag.status == 0, "\(tag.stderr)")
        let reports = try WaymarkBinary.reports(tag)
        #expect(reports["IMG_0002.JPG"]?["status"] as? String == "tagged", "\(tag.stdout)\n\(tag.stderr)")
        let position = try #require(try await ExternalTool.position(other))
        #expect(abs(position.latitude - (46.0 + 200.0 / 100_000)) < 1e-5 && abs(position.longitude - (14.0 + 200.0 / 50_000)) < 1e-5)

        let gpx = folder.url.appendingPathComponent("export.gpx")
        let export = try await WaymarkBinary.run(["routes", "export", "--qr", qr.path, "--gpx", gpx.path, "--server", url.absoluteString], environment: env)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try TrackFile.read(contentsOf: gpx).first?.fixes.count == fixes.count)

        let delete = try await WaymarkBinary.run(["routes", "delete", created.routeID, "--yes", "--server", url.absoluteString], environment: env)
        #expect(delete.status == 0, "\(delete.stderr)")
        // `routes delete` fetched this very route a moment ago: the same GET in the same second is
        // no replay, since every request carries its own nonce (signature version 2).
        let get = try await WaymarkBinary.run(["routes", "get", created.routeID, "--server", url.absoluteString], environment: env)
        #expect(get.status == 1)
        #expect(get.stderr.contains("no route"))
    }
}
