import Foundation
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
import WaymarkTestSupport

/// OwnTracks as the background recorder (issue #29), through the real binaries: `waymark owntracks
/// pair` pairs a device; a stand-in OwnTracks app written from OwnTracks' documentation
/// (Tests/Reference/owntracks_client.py, PyNaCl) posts 500 encrypted positions along a real GPX's
/// path, with retries and a shuffled queue; `waymark tag --server` finds them by the nonce of the
/// device's time QR code and places the photos; `waymark vault push --owntracks` sends one
/// position per interval. On SQLite, and on PostgreSQL under scripts/with-postgres.
@Suite("OwnTracks as the background recorder, end to end", .serialized)
struct OwnTracksEndToEndTests {
    /// What the stand-in app posted: `[lat, lon, alt, acc, tst]`, in time order.
    struct Posted: Decodable {
        var posted: Int
        var duplicates: Int
        var positions: [[Double]]
    }

    static func client(_ arguments: [String]) async throws -> [String: Any] {
        let output = try await ExternalTool.run([try StandinVault.python(), packageRoot.appendingPathComponent("Tests/Reference/owntracks_client.py").path] + arguments)
        return try JSONSerialization.jsonObject(with: output) as? [String: Any] ?? [:]
    }

    @Test("the app's encrypted positions tag photos within 1 m, plaintext and wrong secrets are refused, nothing stored reads as a position, and the vault gets one per interval",
          arguments: CLIDatabase.all)
    func backgroundRecording(database: CLIDatabase) async throws {
        try await database.run { try await backgroundRecording() }
    }

    private func backgroundRecording() async throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data")
        // One PostgreSQL serves every test of a run: a name of its own.
        let username = "ot" + QRPayload.makeNonce().lowercased()
        let passwordFile = folder.url.appendingPathComponent("password"), passphraseFile = folder.url.appendingPathComponent("passphrase")
        try Data("a password for the phone\n".utf8).write(to: passwordFile)
        let passphrase = "the route passphrase, never in argv"
        try Data((passphrase + "\n").utf8).write(to: passphraseFile)
        let created = try await WaymarkBinary.run(["users", "create", username, "--data", data.path, "--password-file", passwordFile.path])
        #expect(created.status == 0, "\(created.stderr)")
        let keyOutput = try await WaymarkBinary.run(["keys", "create", "tagging", "--json", "--data", data.path])
        let credentials = try JSONSerialization.jsonObject(with: Data(keyOutput.stdout.utf8)) as? [String: String] ?? [:]
        let apiKey = try #require(credentials["key"]), apiSecret = try #require(credentials["secret"])

        let port = try await ServeEndToEndTests.freePort()
        let server = try ServeEndToEndTests.Server(data: data, port: port)
        defer { server.stop() }
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let client = WaymarkClient(credentials: ServerCredentials(serverURL: url, key: apiKey, secret: apiSecret))
        try await ServeEndToEndTests.waitUntilUp(client)

        // Pairing: the configuration, and its QR code as OwnTracks' camera import reads it.
        let qrImage = folder.url.appendingPathComponent("pairing.pgm")
        let pair = try await WaymarkBinary.run(["owntracks", "pair", "--server", url.absoluteString, "--user", username, "--password-file", passwordFile.path,
                                                "--passphrase-file", passphraseFile.path, "--json", "--qr-image", qrImage.path])
        #expect(pair.status == 0, "\(pair.stderr)")
        let pairing = try JSONSerialization.jsonObject(with: Data(pair.stdout.utf8)) as? [String: String] ?? [:]
        let endpoint = try #require(pairing["url"]), secret = try #require(pairing["password"])
        let key = try #require(pairing["encryptionKey"]), nonce = try #require(pairing["nonce"])
        #expect(endpoint == "\(url.absoluteString)/api/v1/owntracks" && pairing["username"] == username && pairing["deviceId"] != nil)
        #expect(key.utf8.count == 32 && QRPayload.isWaymarkNonce(nonce), "\(pairing)")
        let link = String(decoding: try await ExternalTool.run(["zbarimg", "-q", "--raw", qrImage.path]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(link.hasPrefix("owntracks:///config?inline="), "\(link)")
        let inline = try #require(Data(base64Encoded: String(link.dropFirst("owntracks:///config?inline=".count))), "standard Base64: \(link)")
        let configuration = try #require(try JSONSerialization.jsonObject(with: inline) as? [String: Any])
        // owntracks.org/booklet/tech/json, _type=configuration: HTTP mode (3) to our endpoint with Basic auth and the key.
        #expect(configuration["_type"] as? String == "configuration" && configuration["mode"] as? Int == 3 && configuration["auth"] as? Bool == true)
        #expect(configuration["url"] as? String == endpoint && configuration["username"] as? String == username)
        #expect(configuration["password"] as? String == secret && configuration["encryptionKey"] as? String == key)
        #expect(configuration["monitoring"] as? Int == 2, "move mode for a tour: \(configuration)")

        // The app records: 500 positions, one every 10 s, ending 1 h 40 min before now.
        let start = (Int(Date().timeIntervalSince1970) / 10) * 10 - 6_000
        let sent = try JSONDecoder().decode(Posted.self, from: try await ExternalTool.run([
            try StandinVault.python(), packageRoot.appendingPathComponent("Tests/Reference/owntracks_client.py").path,
            "track", endpoint, username, secret, key, Fixtures.url("tracks/Mojstrovka.gpx").path, "500", String(start),
        ]))
        #expect(sent.posted == 500 && sent.duplicates == 50)
        let stored = try await client.owntracksMessages(lookup: RouteKeys.lookupKey(nonce: nonce), from: nil, to: nil)
        #expect(stored?.count == 500, "each message once, retries included")
        let plaintext = try await Self.client(["plaintext", endpoint, username, secret])
        #expect(plaintext["status"] as? Int == 400 && (plaintext["body"] as? String)?.contains("not_encrypted") == true, "\(plaintext)")
        let wrong = try await Self.client(["send", endpoint, username, "wmo_not-the-secret", #"{"_type":"encrypted","data":"AAAA"}"#])
        #expect(wrong["status"] as? Int == 401 && (wrong["wwwAuthenticate"] as? String)?.hasPrefix("Basic") == true, "\(wrong)")
        #expect(try await client.owntracksMessages(lookup: RouteKeys.lookupKey(nonce: nonce), from: nil, to: nil)?.count == 500,
                "the refused messages left nothing")

        // A tour: the camera 2 h ahead of UTC photographs /clock's code once, then four scenes.
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        func camera(_ utc: Int) -> String {
            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "UTC")
            format.dateFormat = "yyyy:MM:dd HH:mm:ss"
            return format.string(from: Date(timeIntervalSince1970: Double(utc + 7_200)))
        }
        try await ExternalTool.makePhoto(photos.appendingPathComponent("IMG_0001.JPG"), time: camera(start + 100),
                                         payload: QRPayload(time: start + 100, nonce: nonce).text, size: "1600x1200")
        for (index, offset) in [1_003, 2_000, 3_456, 4_901].enumerated() {
            try await ExternalTool.makePhoto(photos.appendingPathComponent(String(format: "IMG_%04d.JPG", index + 2)), time: camera(start + offset), size: "640x480")
        }
        let environment = ["WAYMARK_API_KEY": apiKey, "WAYMARK_API_SECRET": apiSecret, "WAYMARK_PASSPHRASE": passphrase]
        let tag = try await WaymarkBinary.run(["tag", photos.path, "--server", url.absoluteString, "--json"], environment: environment)
        #expect(tag.status == 0, "\(tag.stderr)")
        #expect(tag.stderr.contains("OwnTracks device \(nonce)"), "\(tag.stderr)")
        let reports = try WaymarkBinary.reports(tag)
        #expect(reports.count == 5 && reports.values.allSatisfy { $0["status"] as? String == "tagged" }, "\(tag.stdout)")
        // Where each photo should be: the posted positions interpolated at the time tag gave it,
        // and where exiftool reads it, compared by GeographicLib.
        var pairs: [[Double]] = []
        for (name, report) in reports.sorted(by: { $0.key < $1.key }) {
            let utc = try #require((report["utcTime"] as? String).flatMap(InternetTime.date)).timeIntervalSince1970
            let after = try #require(sent.positions.firstIndex { $0[4] >= utc }, "\(name) at \(utc) is after the walk")
            let (a, b) = (sent.positions[max(after - 1, 0)], sent.positions[after])
            let share = b[4] == a[4] ? 0 : (utc - a[4]) / (b[4] - a[4])
            let written = try #require(try await ExternalTool.position(photos.appendingPathComponent(name)), "\(name) has no GPS")
            pairs.append([a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share, written.latitude, written.longitude])
        }
        let distances = try JSONSerialization.jsonObject(with: try await ExternalTool.run([try StandinVault.python(), "-c", """
            import json, sys
            from geographiclib.geodesic import Geodesic
            print(json.dumps([Geodesic.WGS84.Inverse(a, b, c, d)["s12"] for a, b, c, d in json.loads(sys.argv[1])]))
            """, String(decoding: try JSONSerialization.data(withJSONObject: pairs), as: UTF8.self)])) as? [Double] ?? []
        #expect(distances.count == 5 && distances.allSatisfy { $0 < 1 }, "metres from the track: \(distances)")

        // Nothing the server stored or logged reads as one of the positions.
        let needles = sent.positions.flatMap { [String(format: "%.5f", $0[0]), String(format: "%.5f", $0[1])] }.map { Data($0.utf8) }
        var haystacks: [(String, Data)] = [("the server's log", try server.output.read(\.stdoutURL).data(using: .utf8)! + (try server.output.read(\.stderrURL).data(using: .utf8)!))]
        if let databaseURL = CLIDatabase.url {
            haystacks.append(("pg_dump", try await ExternalTool.run(["pg_dump", "--data-only", databaseURL])))
        } else {
            for case let file as URL in FileManager.default.enumerator(at: data, includingPropertiesForKeys: nil) ?? .init() {
                if let bytes = try? Data(contentsOf: file) { haystacks.append((file.lastPathComponent, bytes)) }
            }
        }
        for (name, bytes) in haystacks {
            let found = needles.first { bytes.range(of: $0) != nil }
            #expect(found == nil, "\(name) holds \(found.map { String(decoding: $0, as: UTF8.self) } ?? "")")
        }

        // The data vault: one position per 5 minutes of the walk.
        let vault = try StandinVault()
        let home = try VaultHome()
        try home.login(vault)
        let from = InternetTime.text(Date(timeIntervalSince1970: Double(start))), to = InternetTime.text(Date(timeIntervalSince1970: Double(start + 4_990)))
        let push = try home.run(["vault", "push", "--owntracks", nonce, "--from", from, "--to", to, "--every", "5m", "--server", url.absoluteString],
                                environment)
        var firstOfSlot: [Int: Double] = [:]
        for position in sent.positions { firstOfSlot[Int(position[4]) / 300] = min(firstOfSlot[Int(position[4]) / 300] ?? .infinity, position[4]) }
        #expect(push.status == 0, "\(push.both)")
        #expect(push.stdout.contains("Sent \(firstOfSlot.count) records"), "\(push.both)")
        let items = try vault.items()
        let times = Set(items.compactMap { ($0["plaintext"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["timestamp"] as? String }
            .compactMap(InternetTime.date).map(\.timeIntervalSince1970))
        #expect(items.count == firstOfSlot.count && times == Set(firstOfSlot.values), "one record per 5 min, the first fix of each: \(times.sorted())")
    }
}
