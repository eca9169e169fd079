import Foundation
import Testing
import WaymarkCore
import WaymarkRecorder
import WaymarkTestSupport
import WaymarkVault

/// `waymark vault` against the stand-in vault, as a user types it (seed 002, contract C).
@Suite("waymark vault: sign in, modules, push, status, cache, sign out")
struct VaultCommandTests {
    static let english = (unreachable: "Error: can't access data vault", invalid: "Error: invalid username and/or password")
    static let german = (unreachable: "Fehler: Datentresor nicht erreichbar", invalid: "Fehler: ungültiger Benutzername und/oder Passwort")

    @Test("login: the user's name and where the sign-in is kept (a 0600 file); the seed's errors word for word, in English and German")
    func login() async throws {
        let vault = try VaultStandIn()
        let home = try VaultHome()

        let wrong = try home.login(vault, password: "not-the-password")
        #expect(wrong.status == 1, "\(wrong.both)")
        #expect(wrong.errorLines == [Self.english.invalid], "\(wrong.both)")
        #expect(!FileManager.default.fileExists(atPath: home.sessionFile.path), "a refused sign-in is not kept")
        for locale in [["LANG": "de_AT.UTF-8"], ["LC_MESSAGES": "de_DE.UTF-8", "LANG": "en_GB.UTF-8"], ["LC_ALL": "de_CH.UTF-8", "LANG": "en_US.UTF-8"]] {
            let german = try home.login(vault, password: "not-the-password", locale)
            #expect(german.errorLines == [Self.german.invalid], "\(locale): \(german.both)")
        }
        let englishOverGerman = try home.login(vault, password: "x", ["LC_ALL": "en_US.UTF-8", "LANG": "de_DE.UTF-8"])
        #expect(englishOverGerman.errorLines == [Self.english.invalid], "LC_ALL comes first: \(englishOverGerman.both)")

        let closed = "http://127.0.0.1:\(try await unusedLocalPort())"
        let password = try home.file("password", "user_a")
        for (locale, text) in [([:], Self.english.unreachable), (["LANG": "de_DE.UTF-8"], Self.german.unreachable)] {
            let unreachable = try home.run(["vault", "login", "--url", closed, "--user", "user_a@ownyourdata.eu", "--password-file", password], locale)
            #expect(unreachable.status == 1, "\(unreachable.both)")
            #expect(unreachable.errorLines.first == text, "\(unreachable.both)")
            #expect(unreachable.stderr.contains(closed), "names the vault it tried: \(unreachable.both)")
        }

        let signedIn = try home.login(vault)
        #expect(signedIn.status == 0, "\(signedIn.both)")
        #expect(signedIn.stdout.contains("Signed in to \(vault.url.absoluteString) as User A."), "\(signedIn.both)")
        #expect(signedIn.stdout.contains("kept in \(home.sessionFile.path) (readable only by you)"), "\(signedIn.both)")
        let mode = try FileManager.default.attributesOfItem(atPath: home.sessionFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the sign-in file is readable only by the user: \(String(mode ?? 0, radix: 8))")
        #expect(!signedIn.stdout.contains("user_a\n") && !signedIn.stderr.contains("user_a\n"), "the password is never printed")

        let status = try home.run(["vault", "status"])
        #expect(status.stdout.contains("User:") && status.stdout.contains("User A (user_a@ownyourdata.eu)"), "\(status.both)")
        #expect(!status.stdout.contains("\"user_a\"") && !status.stdout.contains(": user_a\n"), "no password in the status: \(status.both)")

        let unknownStore = try home.login(vault, ["WAYMARK_VAULT_STORE": "pigeon"])
        #expect(unknownStore.status != 0 && unknownStore.stderr.contains("WAYMARK_VAULT_STORE=pigeon names no store"), "\(unknownStore.both)")
    }

    @Test("login --qr: both payload forms of the seed from PNG and JPEG; an incomplete code says what it lacks; a wrong password shows what was read")
    func loginWithQRCode() async throws {
        let vault = try VaultStandIn()
        let home = try VaultHome()
        let address = vault.url.absoluteString
        func code(_ name: String, _ object: [String: Any], jpeg: Bool = false) async throws -> String {
            let text = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
            let file = home.url.appendingPathComponent(name)
            if jpeg {
                try await ExternalTool.makeQRJPEG(file, payload: text, width: 900, height: 700)
            } else {
                try await ExternalTool.run(["qrencode", "-s", "6", "-o", file.path, text])
            }
            return file.path
        }

        let password = try await home.run(["vault", "login", "--qr", try code("password.png", ["PIA_URL": address, "email": "user_a@ownyourdata.eu", "password": "user_a"])])
        #expect(password.status == 0, "\(password.both)")
        #expect(password.stdout.contains("Signed in to \(address) as User A."), "\(password.both)")

        let app = try await code("app.jpg", ["PIA_URL": address, "APP_KEY": "eu.ownyourdata.waymark", "APP_SECRET": "waymark-app-secret-0123456789"], jpeg: true)
        let appLogin = try home.run(["vault", "login", "--qr", app])
        #expect(appLogin.status == 0, "\(appLogin.both)")
        #expect(appLogin.stdout.contains("Signed in to \(address) as User A."), "\(appLogin.both)")
        let kept = try String(contentsOf: home.sessionFile, encoding: .utf8)
        #expect(kept.contains("eu.ownyourdata.waymark"), "the app credentials are the ones kept now")

        let incomplete = try await home.run(["vault", "login", "--qr", try code("incomplete.png", ["PIA_URL": address, "email": "user_a@ownyourdata.eu"])])
        #expect(incomplete.status == 1, "\(incomplete.both)")
        #expect(incomplete.stderr.contains("is incomplete: it lacks password."), "\(incomplete.both)")
        #expect(incomplete.stderr.contains("It holds: vault \(address), e-mail user_a@ownyourdata.eu."), "\(incomplete.both)")
        // What the code lacks may come from the options, as the seed fills the login form with what it read.
        let completed = try await home.run(["vault", "login", "--qr", try code("incomplete.png", ["PIA_URL": address, "email": "user_a@ownyourdata.eu"]),
                                      "--password-file", try home.file("password", "user_a")])
        #expect(completed.status == 0 && completed.stdout.contains("as User A"), "\(completed.both)")

        let appIncomplete = try await home.run(["vault", "login", "--qr", try code("app-incomplete.png", ["APP_KEY": "eu.ownyourdata.waymark"])])
        #expect(appIncomplete.stderr.contains("it lacks PIA_URL (the vault's address), APP_SECRET."), "\(appIncomplete.both)")

        let hostile = try await home.run(["vault", "login", "--qr", try code("hostile.png", ["PIA_URL": "javascript:alert(1)", "email": 42, "password": "user_a"])])
        #expect(hostile.status == 1, "\(hostile.both)")
        #expect(hostile.stderr.contains("Unusable in it: PIA_URL (the vault's address), email"), "\(hostile.both)")

        let notALogin = try await home.run(["vault", "login", "--qr", try code("other.png", ["hello": "world"])])
        #expect(notALogin.status == 1 && notALogin.stderr.contains("it lacks PIA_URL (the vault's address), email, password."), "\(notALogin.both)")
        let timeSync = home.url.appendingPathComponent("time-sync.png").path
        try await ExternalTool.run(["qrencode", "-o", timeSync, "1564650590-2OANEZK7Q1XD"])
        let plain = try home.run(["vault", "login", "--qr", timeSync])
        #expect(plain.status == 1 && plain.stderr.contains("is no data vault login"), "\(plain.both)")

        let wrong = try await home.run(["vault", "login", "--qr", try code("wrong.png", ["PIA_URL": address, "email": "user_a@ownyourdata.eu", "password": "wrong-one"])])
        #expect(wrong.status == 1, "\(wrong.both)")
        #expect(wrong.errorLines == ["Read from the QR code: vault \(address), e-mail user_a@ownyourdata.eu", Self.english.invalid], "\(wrong.both)")
    }

    @Test("modules: name, description and the link with PIA_URL, APP_KEY, APP_SECRET URL-encoded; user_b's empty list in the seed's words")
    func modules() throws {
        let vault = try VaultStandIn()
        let home = try VaultHome()
        let notSignedIn = try home.run(["vault", "modules"])
        #expect(notSignedIn.status == 1 && notSignedIn.stderr.contains("`waymark vault login` first"), "\(notSignedIn.both)")

        try home.login(vault)
        let listed = try home.run(["vault", "modules"])
        #expect(listed.status == 0, "\(listed.both)")
        let encoded = vault.url.absoluteString.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: "/", with: "%2F")
        let lines = listed.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Location", "\(listed.both)")
        #expect(lines.contains("Annotate — add notes to places you visit, with a deliberately very long title"), "\(listed.both)")
        #expect(lines.contains("  add notes to places you visit"), "\(listed.both)")
        #expect(lines.contains("  \(vault.url.absoluteString)/modules/location?PIA_URL=\(encoded)&APP_KEY=8ac6377e5697123aa18f8bca860f3bd2d8db6ec54002cc3becbdce9b1ac97943&APP_SECRET=95f1ea7336476d2d6c9b352c75d7bad1d2de0d3c456b973d3e9ffae4e00a1694"),
                "\(listed.both)")
        #expect(lines.contains { $0.hasPrefix("  \(vault.url.absoluteString)/modules/annotate?PIA_URL=\(encoded)&APP_KEY=") }, "\(listed.both)")

        try home.login(vault, email: "user_b@ownyourdata.eu", password: "Q/wdfbv67")
        let empty = try home.run(["vault", "modules"])
        #expect(empty.status == 0, "\(empty.both)")
        #expect(empty.stdout == "no modules available\nopen your data vault and connect to data sources: \(vault.url.absoluteString)\n", "\(empty.both)")
        let leer = try home.run(["vault", "modules"], ["LANG": "de_DE.UTF-8"])
        #expect(leer.stdout == "keine Module verfügbar\nöffne deinen Datentresor und erschließe Datenquellen: \(vault.url.absoluteString)\n", "\(leer.both)")
        let status = try home.run(["vault", "status"])
        #expect(status.stdout.contains("Very long User Name with many words (user_b@ownyourdata.eu)"), "\(status.both)")
    }

    @Test("push: a recorded route is cached and sent encrypted, only on Wi-Fi unless --any-network; a second push adds nothing; status counts")
    func pushRecordedRoute() async throws {
        let vault = try VaultStandIn()
        let home = try VaultHome()
        let nonce = QRPayload.makeNonce()
        let id = try await TagLocalRecorderTests.recordRoute(nonce: nonce, in: home.url)
        try home.login(vault)

        let wired = try home.run(["vault", "push"], ["WAYMARK_NETWORK": "other"])
        #expect(wired.status == 1, "\(wired.both)")
        #expect(wired.stdout.contains("Route \(id): 661 location records cached."), "the route is cached even when not sent: \(wired.both)")
        #expect(wired.stderr.contains("Not sent: this computer is on a wired network, not on Wi-Fi"), "\(wired.both)")
        #expect(wired.stderr.contains("`waymark vault push --any-network`") && wired.stderr.contains("661 records stay cached."), "\(wired.both)")
        #expect(try vault.items().isEmpty, "nothing reached the vault")
        #expect(try home.run(["vault", "status"]).stdout.contains("Cached records:  661"))
        let offline = try home.run(["vault", "push"], ["WAYMARK_NETWORK": "offline"])
        #expect(offline.status == 1 && offline.stderr.contains("there is no network connection"), "\(offline.both)")

        let sent = try home.run(["vault", "push", "--any-network"], ["WAYMARK_NETWORK": "other"])
        #expect(sent.status == 0, "\(sent.both)")
        #expect(sent.stdout.contains("Sent 661 records to eu.ownyourdata.location, encrypted to the repository's public key."), "\(sent.both)")
        let items = try vault.items()
        #expect(items.count == 661)
        #expect(items.allSatisfy { $0["repo"] as? String == "eu.ownyourdata.location" && $0["plaintext"] is String }, "every record sealed")
        let store = try SQLiteRecordingStore(path: home.url.appendingPathComponent("recorder.sqlite").path)
        let first = try #require(try await store.tracks(of: id).first?.fixes.first)
        // The vault opened the first record to the JSON of the route's first fix (the library's record, sealed).
        let opened = try #require(items.first?["plaintext"] as? String)
        let timestamp = VaultRecord(timestamp: first.time, latitude: 0, longitude: 0).timestamp
        #expect(opened.hasPrefix(#"{"timestamp":"\#(timestamp)","latitude":\#(first.latitude),"longitude":\#(first.longitude),"#), "\(opened)")

        let again = try home.run(["vault", "push"])
        #expect(again.status == 0, "\(again.both)")
        #expect(again.stdout.contains("1 recorded route cached before; nothing added for it."), "\(again.both)")
        #expect(again.stdout.contains("Nothing to send: no location records are cached."), "\(again.both)")
        #expect(try vault.items().count == 661, "the second push sent nothing")
        let named = try home.run(["vault", "push", String(id)])
        #expect(named.stdout.contains("Route \(id) was cached before; nothing added."), "\(named.both)")
        let missing = try home.run(["vault", "push", "99"])
        #expect(missing.status == 1 && missing.stderr.contains("there is no recorded route 99"), "\(missing.both)")

        let status = try home.run(["vault", "status"])
        #expect(status.stdout.contains("Cached records:  0"), "\(status.both)")
        #expect(status.stdout.contains("Repository:      eu.ownyourdata.location"), "\(status.both)")
        #expect(!status.stdout.contains("Last upload:     never"), "\(status.both)")
        let today = DateFormatter()
        today.dateFormat = "yyyy-MM-dd"
        #expect(status.stdout.contains("Last upload:     \(today.string(from: Date()))"), "today, local time: \(status.both)")
    }

    @Test("push --file --repo: a GPX track to a repository without a key arrives in plain text; refused records stay cached and go again")
    func pushTrackFile() throws {
        let vault = try VaultStandIn()
        let home = try VaultHome()
        try home.login(vault)
        let track = Fixtures.url("tracks/around-visnjan-with-car.gpx").path
        let records = Set(try TrackFile.read(contentsOf: URL(fileURLWithPath: track)).flatMap { VaultRecord.records(track: $0.fixes) }
            .map { "\($0.timestamp) \($0.latitude) \($0.longitude)" })
        let fixes = Array(records)
        let refused = try #require(fixes.sorted().dropFirst(3).first?.split(separator: " ").first.map(String.init))
        try vault.refuse([refused])

        let pushed = try home.run(["vault", "push", "--file", track, "--repo", "org.example.trips"])
        #expect(pushed.status == 1, "a refusal is a failure: \(pushed.both)")
        #expect(pushed.stdout.contains("\(track): \(fixes.count) location records cached."), "\(pushed.both)")
        #expect(pushed.stdout.contains("Sent \(fixes.count - 1) records to org.example.trips, in plain text (the repository has no public key)."), "\(pushed.both)")
        #expect(pushed.stderr.contains("The vault refused 1 record: refused by the stand-in vault"), "\(pushed.both)")
        #expect(pushed.stdout.contains("1 record stays cached; `waymark vault push` sends it again."), "\(pushed.both)")
        let items = try vault.items()
        #expect(items.count == fixes.count - 1)
        #expect(items.allSatisfy { $0["repo"] as? String == "org.example.trips" && $0["plaintext"] is NSNull }, "plain records")
        let status = try home.run(["vault", "status"])
        #expect(status.stdout.contains("Repository:      org.example.trips") && status.stdout.contains("Cached records:  1"), "\(status.both)")

        try vault.refuse([])
        let retried = try home.run(["vault", "push", "--file", track])
        #expect(retried.status == 0, "\(retried.both)")
        #expect(retried.stdout.contains("\(track) was cached before; nothing added."), "\(retried.both)")
        #expect(retried.stdout.contains("Sent 1 record to org.example.trips"), "only the refused one goes again: \(retried.both)")
        #expect(try vault.items().last?["record"].flatMap { ($0 as? [String: Any])?["timestamp"] as? String } == refused)

        let badRepo = try home.run(["vault", "push", "--repo", "a/b"])
        #expect(badRepo.status != 0 && badRepo.stderr.contains("--repo takes a repository name"), "\(badRepo.both)")
        let notATrack = try home.run(["vault", "push", "--file", try home.file("notes.txt", "hello")])
        #expect(notATrack.status == 1 && notATrack.stderr.contains("cannot be read as a track"), "\(notATrack.both)")
    }

    @Test("push: a vault that does not answer keeps every record, in the seed's words")
    func pushUnreachable() throws {
        let home = try VaultHome()
        do {
            let vault = try VaultStandIn()
            try home.login(vault)
        }  // the stand-in stops here; the kept sign-in names a vault that no longer answers
        let track = Fixtures.url("tracks/gpx1.1_with_all_fields.gpx").path
        let pushed = try home.run(["vault", "push", "--file", track], ["LANG": "de_DE.UTF-8"])
        #expect(pushed.status == 1, "\(pushed.both)")
        #expect(pushed.errorLines.contains(Self.german.unreachable), "\(pushed.both)")
        #expect(pushed.stdout.contains("2 records stay cached"), "\(pushed.both)")
    }

    @Test("clear-cache asks first: 'n' keeps the records, 'y' or --yes deletes them and says how many; logout keeps the cache")
    func clearCacheAndLogout() throws {
        let vault = try VaultStandIn()
        let home = try VaultHome()
        try home.login(vault)
        let track = Fixtures.url("tracks/gpx1.1_with_all_fields.gpx").path
        _ = try home.run(["vault", "push", "--file", track], ["WAYMARK_NETWORK": "other"])
        #expect(try home.run(["vault", "status"]).stdout.contains("Cached records:  2"))

        let no = try home.run(["vault", "clear-cache"], input: "n\n")
        #expect(no.status == 0 && no.stdout.contains("Nothing was deleted."), "\(no.both)")
        #expect(no.stderr.contains("Delete the 2 cached location records, which are not in the vault? [y/N]"), "\(no.both)")
        let silent = try home.run(["vault", "clear-cache"])
        #expect(silent.stdout.contains("Nothing was deleted."), "no answer is no: \(silent.both)")
        #expect(try home.run(["vault", "status"]).stdout.contains("Cached records:  2"))
        let yes = try home.run(["vault", "clear-cache"], input: "y\n")
        #expect(yes.stdout.contains("Deleted 2 cached location records."), "\(yes.both)")
        _ = try home.run(["vault", "push", "--file", Fixtures.url("tracks/gpx1.0_with_all_fields.gpx").path], ["WAYMARK_NETWORK": "other"])
        let forced = try home.run(["vault", "clear-cache", "--yes"])
        #expect(forced.stdout.contains("Deleted 2 cached location records."), "\(forced.both)")
        #expect(try home.run(["vault", "clear-cache", "--yes"]).stdout.contains("The cache is empty."))

        _ = try home.run(["vault", "push", "--file", Fixtures.url("tracks/unicode_with_bom.gpx").path], ["WAYMARK_NETWORK": "other"])
        let cached = try #require(try home.run(["vault", "status"]).stdout.split(separator: "\n").first { $0.hasPrefix("Cached records:") })
        let out = try home.run(["vault", "logout"])
        #expect(out.status == 0, "\(out.both)")
        #expect(out.stdout.contains("Signed out: the sign-in kept in \(home.sessionFile.path) (readable only by you) is deleted."), "\(out.both)")
        #expect(out.stdout.contains("stay here (`waymark vault clear-cache` deletes them)"), "\(out.both)")
        #expect(!FileManager.default.fileExists(atPath: home.sessionFile.path))
        let status = try home.run(["vault", "status"])
        #expect(status.stdout.contains("not signed in") && status.stdout.contains(String(cached)), "the cache stays: \(status.both)")
        #expect(try home.run(["vault", "logout"]).stdout.contains("Not signed in; no sign-in was kept."))
        let push = try home.run(["vault", "push"])
        #expect(push.status == 1 && push.stderr.contains("Not signed in to a data vault"), "\(push.both)")
    }

    /// A gpsd that answers one client after another with TPV reports: a 3D fix (`fix`) or none (`nofix`).
    static let gpsdScript = """
        import json, socket, sys, threading, time
        mode = sys.argv[2]
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        print(server.getsockname()[1], flush=True)
        def serve(client):
            try:
                client.sendall(b'{"class":"VERSION","release":"3.25","proto_major":3,"proto_minor":15}\\n')
                client.recv(1024)
                for _ in range(200):
                    if mode == "fix":
                        report = {"class": "TPV", "mode": 3, "time": "2026-11-24T21:14:03.000Z", "lat": 46.36831, "lon": 14.11462,
                                  "altMSL": 482.5, "eph": 4.2, "speed": 1.39, "track": 87.4}
                    else:
                        report = {"class": "TPV", "mode": 1, "time": "2026-11-24T21:14:03.000Z"}
                    client.sendall((json.dumps(report) + "\\n").encode())
                    time.sleep(0.2)
            except OSError:
                pass
        while True:
            conn, _ = server.accept()
            threading.Thread(target=serve, args=(conn,), daemon=True).start()
        """

    @Test("read-location: one record from gpsd's current fix is cached, with gpsd's speed and track; no fix within the timeout is said clearly")
    func readLocation() throws {
        let home = try VaultHome()
        let gpsd = try ScriptedServer(script: Self.gpsdScript, arguments: ["fix"])
        let read = try home.run(["vault", "read-location", "--gpsd", "127.0.0.1:\(gpsd.port)", "--timeout", "20"])
        #expect(read.status == 0, "\(read.both)")
        #expect(read.stdout.contains("Cached a location record: 2026-11-24T21:14:03Z, 46.368310, 14.114620 (± 4 m), 1.4 m/s heading 87°. 1 record cached;"),
                "\(read.both)")
        #expect(try home.run(["vault", "status"]).stdout.contains("Cached records:  1"))
        let cached = try VaultCache(path: VaultCache.defaultLocation(environment: home.environment)).pending(limit: 10).map(\.record)
        #expect(cached == [VaultRecord(timestamp: Date(timeIntervalSince1970: 1_795_554_843), latitude: 46.36831, longitude: 14.11462,
                                       altitude: 482.5, accuracy: 4.2, speed: 1.39, heading: 87.4)])

        let silent = try ScriptedServer(script: Self.gpsdScript, arguments: ["nofix"])
        let none = try home.run(["vault", "read-location", "--gpsd", "127.0.0.1:\(silent.port)", "--timeout", "1.5"])
        #expect(none.status == 1, "\(none.both)")
        #expect(none.stderr.contains("gpsd at 127.0.0.1:\(silent.port) gave no position within"), "\(none.both)")
        #expect(none.stderr.contains("--timeout SECONDS"), "\(none.both)")
        #expect(try home.run(["vault", "status"]).stdout.contains("Cached records:  1"), "nothing was added")
    }

    @Test("read-location: no gpsd to ask is said clearly")
    func readLocationWithoutGPSD() async throws {
        let home = try VaultHome()
        let port = try await unusedLocalPort()
        let read = try home.run(["vault", "read-location", "--gpsd", "127.0.0.1:\(port)", "--timeout", "5"])
        #expect(read.status == 1, "\(read.both)")
        #expect(read.stderr.contains("Cannot reach gpsd at 127.0.0.1:\(port)"), "\(read.both)")
    }
}
