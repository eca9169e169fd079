#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport
import WaymarkVault

/// WaymarkVault's session part: the login QR code's text, the network rule, where the sign-in is
/// kept, and the connection that renews its token.
@Suite("Vault session: login payload, network kind, secret stores, token renewal")
struct VaultSessionTests {
    static let vault = URL(string: "https://mobile.data-vault.eu")!

    // MARK: The login QR code

    @Test("both payload forms of the seed are read")
    func bothForms() throws {
        // The seed's own payload (Test Environment), as the QR code holds it.
        let seed = """
            {
              "PIA_URL": "https://mobile.data-vault.eu",
              "email": "user_a@ownyourdata.eu",
              "password": "user_a"
            }
            """
        #expect(try VaultLoginPayload.parse(seed).get() == .password(vault: Self.vault, email: "user_a@ownyourdata.eu", password: "user_a"))
        let app = #"{"PIA_URL":"https://mobile.data-vault.eu","APP_KEY":"eu.ownyourdata.bank","APP_SECRET":"fZTpuPtU6XEAVIJCcl5y"}"#
        let parsed = try VaultLoginPayload.parse(app).get()
        #expect(parsed == .app(vault: Self.vault, key: "eu.ownyourdata.bank", secret: "fZTpuPtU6XEAVIJCcl5y"))
        #expect(parsed.credentials == .app(key: "eu.ownyourdata.bank", secret: "fZTpuPtU6XEAVIJCcl5y"))
        #expect(parsed.vault == Self.vault)
        // Both complete: the e-mail and password are used.
        let both = #"{"PIA_URL":"http://127.0.0.1:9","email":"a@b.c","password":"p","APP_KEY":"k","APP_SECRET":"s"}"#
        #expect(try VaultLoginPayload.parse(both).get().credentials == .password(email: "a@b.c", password: "p"))
        // A password is taken as it is, spaces and all.
        #expect(try VaultLoginPayload.parse(#"{"PIA_URL":" https://x.example ","email":"e","password":" p w "}"#).get()
                == .password(vault: URL(string: "https://x.example")!, email: "e", password: " p w "))
    }

    @Test("an incomplete code gives the fields read so far and what its form lacks")
    func incomplete() {
        #expect(VaultLoginPayload.parse(#"{"PIA_URL":"https://mobile.data-vault.eu","email":"user_a@ownyourdata.eu"}"#)
                == .failure(.incomplete(VaultLoginFields(vault: Self.vault, email: "user_a@ownyourdata.eu"))))
        let app = VaultLoginFields(key: "k")
        #expect(VaultLoginPayload.parse(#"{"APP_KEY":"k"}"#) == .failure(.incomplete(app)))
        #expect(app.isAppForm && app.missing == [.vault, .secret])
        #expect(VaultLoginFields(vault: Self.vault, email: "e").missing == [.password])
        #expect(VaultLoginFields().missing == [.vault, .email, .password])
        #expect(VaultLoginPayload.parse("{}") == .failure(.incomplete(VaultLoginFields())))
        // An e-mail with an app secret is neither form complete: the password form is asked for.
        #expect(VaultLoginFields(vault: Self.vault, email: "e", secret: "s").missing == [.password])
    }

    @Test("hostile text: not JSON, not an object, huge, deeply nested, wrong types, a URL that is no http(s) address")
    func hostile() {
        #expect(VaultLoginPayload.parse("") == .failure(.notJSON))
        #expect(VaultLoginPayload.parse("1564650590-2OANEZK7Q1XD") == .failure(.notJSON))
        #expect(VaultLoginPayload.parse(#"{"PIA_URL": "https://x.example", "email": "#) == .failure(.notJSON))
        #expect(VaultLoginPayload.parse("\u{0}\u{1}{}") == .failure(.notJSON))
        #expect(VaultLoginPayload.parse("[1, 2]") == .failure(.notAnObject))
        #expect(VaultLoginPayload.parse("\"PIA_URL\"") == .failure(.notAnObject))
        #expect(VaultLoginPayload.parse("42") == .failure(.notAnObject))
        #expect(VaultLoginPayload.parse("null") == .failure(.notAnObject))

        // Larger than any QR code: refused before it is parsed.
        let huge = #"{"PIA_URL":"https://x.example","email":"e","password":""# + String(repeating: "p", count: 5000) + #""}"#
        #expect(VaultLoginPayload.parse(huge) == .failure(.notJSON))
        let hugeGarbage = String(repeating: "[", count: 1_000_000)
        #expect(VaultLoginPayload.parse(hugeGarbage) == .failure(.notJSON))
        // Nested as deep as the length allows: an answer, no crash.
        let nested = String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000)
        #expect([.failure(.notJSON), .failure(.notAnObject)].contains(VaultLoginPayload.parse(nested)))
        let nestedObject = String(repeating: #"{"a":"#, count: 800) + "1" + String(repeating: "}", count: 800)
        #expect([.failure(.notJSON), .failure(.incomplete(VaultLoginFields()))].contains(VaultLoginPayload.parse(nestedObject)))

        // Wrong types count as absent and are named as unusable.
        let wrongTypes = #"{"PIA_URL":["https://x.example"],"email":42,"password":true,"APP_KEY":{"k":1},"APP_SECRET":null}"#
        #expect(VaultLoginPayload.parse(wrongTypes) == .failure(.incomplete(VaultLoginFields(invalid: [.vault, .email, .password, .key, .secret]))))
        #expect(VaultLoginPayload.parse(#"{"PIA_URL":"https://x.example","email":"","password":"p"}"#)
                == .failure(.incomplete(VaultLoginFields(vault: URL(string: "https://x.example")!, password: "p", invalid: [.email]))))

        // Only an http(s) address with a host is a vault.
        for address in ["javascript:alert(1)", "file:///etc/passwd", "ftp://x.example", "https://", "x.example", "//x.example",
                        "https://user:pw@x.example", "https://x.example/\u{1B}[2J", "https://x.exa mple"] {
            let text = String(decoding: try! JSONSerialization.data(withJSONObject: ["PIA_URL": address, "email": "e", "password": "p"]), as: UTF8.self)
            #expect(VaultLoginPayload.parse(text) == .failure(.incomplete(VaultLoginFields(email: "e", password: "p", invalid: [.vault]))), "\(address)")
        }
        #expect(VaultLoginPayload.vaultAddress("HTTP://127.0.0.1:8080/") != nil)
    }

    // MARK: The network rule

    @Test("only Wi-Fi allows an upload; WAYMARK_NETWORK overrides the probe")
    func networkKind() {
        #expect(NetworkKind(.wireless) == .wifi && NetworkKind(.wired) == .other && NetworkKind(.none) == .offline && NetworkKind(.unknown) == .unknown)
        #expect(NetworkKind.allCases.filter(\.allowsUpload) == [.wifi])
        #expect(NetworkKind.current(environment: [:]) { .wireless } == .wifi)
        #expect(NetworkKind.current(environment: [:]) { .wired } == .other)
        #expect(NetworkKind.current(environment: ["WAYMARK_NETWORK": "other"]) { .wireless } == .other)
        #expect(NetworkKind.current(environment: ["WAYMARK_NETWORK": "wifi"]) { .none } == .wifi)
        #expect(NetworkKind.current(environment: ["WAYMARK_NETWORK": "satellite"]) { .wired } == .other, "an unknown value is ignored")
    }

    // MARK: Where the sign-in is kept

    static func session(password: String = "pw-\(UUID().uuidString)") -> VaultSession {
        VaultSession(vault: vault, credentials: .password(email: "user_a@ownyourdata.eu", password: password),
                     token: VaultToken(accessToken: String(repeating: "ab", count: 32), expires: Date(timeIntervalSince1970: 1_800_000_000), username: "User A"))
    }

    @Test("the file store: 0600 in a 0700 folder it makes, written atomically, read back, deleted; damage is a typed error")
    func fileStore() throws {
        let folder = try TemporaryFolder()
        let home = folder.url.appendingPathComponent("home")
        let store = FileSecretStore(environment: ["WAYMARK_HOME": home.path])
        #expect(store.url == home.appendingPathComponent("vault-session.json"))
        #expect(store.kind == .file(store.url))
        #expect(try store.load() == nil)
        try store.delete()  // nothing kept: nothing happens

        let old = umask(0)  // the file must be 0600 whatever the umask
        defer { umask(old) }
        let session = Self.session()
        try store.save(session)
        #expect(try store.load() == session)
        let manager = FileManager.default
        #expect(try manager.attributesOfItem(atPath: store.url.path)[.posixPermissions] as? Int == 0o600)
        #expect(try manager.attributesOfItem(atPath: home.path)[.posixPermissions] as? Int == 0o700)
        let replacement = Self.session(password: "another")
        try store.save(replacement)
        #expect(try store.load() == replacement)
        #expect(try manager.contentsOfDirectory(atPath: home.path) == ["vault-session.json"], "no temporary file is left behind")
        #expect(try manager.attributesOfItem(atPath: store.url.path)[.posixPermissions] as? Int == 0o600)

        try Data("{\"vault\": 1".utf8).write(to: store.url)
        #expect(throws: VaultSecretStoreError.self) { try store.load() }
        try store.delete()
        #expect(try store.load() == nil)
        #expect(!manager.fileExists(atPath: store.url.path))

        let blocked = FileSecretStore(url: URL(fileURLWithPath: "/proc/waymark-cannot-write/vault-session.json"))
        #expect(throws: VaultSecretStoreError.self) { try blocked.save(session) }
    }

    @Test("without a session bus the Secret Service is not used and the file is preferred; WAYMARK_VAULT_STORE forces a store")
    func preferredStore() throws {
        let folder = try TemporaryFolder()
        let noBus = ["WAYMARK_HOME": folder.url.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
                     "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.url.path)/no-bus", "HOME": folder.url.path]
        let secretService = SecretServiceStore(environment: noBus)
        #expect(!secretService.isUsable())
        #expect(throws: VaultSecretStoreError.self) { try secretService.load() }
        #expect(VaultSecretStores.preferred(environment: noBus).kind == .file(folder.url.appendingPathComponent("vault-session.json")))
        #expect(VaultSecretStores.preferred(environment: noBus.merging(["WAYMARK_VAULT_STORE": "secret-service"]) { $1 }).kind == .secretService)
        #expect(VaultSecretStores.all(environment: noBus).count == 1)
        if case .failure(let unknown) = VaultSecretStores.forced(environment: ["WAYMARK_VAULT_STORE": "pigeon"]) {
            #expect(unknown.value == "pigeon")
        } else {
            Issue.record("an unknown store must be refused")
        }

        let missingTool = SecretServiceStore(executable: "/nonexistent/secret-tool", environment: noBus)
        #expect(!missingTool.isUsable())
        #expect(throws: VaultSecretStoreError.toolMissing) { try missingTool.save(Self.session()) }

        // A sign-in kept in the file is found.
        let session = Self.session()
        try FileSecretStore(environment: noBus).save(session)
        let found = try #require(try VaultSecretStores.find(environment: noBus))
        #expect(found.session == session && found.store.name == "file")
    }

    // MARK: Token renewal

    @Test("the connection signs in again 60 s before the token expires, keeps the new token, and retries a refused call once")
    func connectionRenews() async throws {
        let vault = try VaultStandIn()
        let folder = try TemporaryFolder()
        let store = FileSecretStore(url: folder.url.appendingPathComponent("vault-session.json"))
        let clock = Clock(Date())
        let connection = try await VaultConnection.signIn(vault: vault.url, credentials: .password(email: "user_a@ownyourdata.eu", password: "user_a"),
                                                          store: store, now: { clock.now })
        #expect(try store.load() == nil, "nothing is kept before save()")
        try await connection.save()
        let first = try #require(await connection.session.token)
        #expect(await connection.session.username == "User A")
        #expect(try store.load()?.token == first)
        #expect(try await connection.token() == first, "a fresh token is used as it is")

        clock.now = first.expires.addingTimeInterval(-61)
        #expect(try await connection.token() == first, "61 s before expiry it is still used")
        clock.now = first.expires.addingTimeInterval(-59)
        let second = try await connection.token()
        #expect(second.accessToken != first.accessToken, "59 s before expiry a new one is fetched")
        #expect(try store.load()?.token == second, "and kept")
        #expect(try await connection.renew().accessToken != second.accessToken, "renew() always signs in")

        // A token the vault no longer knows: the call is refused once, the connection signs in again and repeats it.
        var stale = try #require(try store.load())
        stale.token = VaultToken(accessToken: String(repeating: "0", count: 64), expires: .distantFuture, username: "User A")
        let reloaded = VaultConnection(session: stale, store: store)
        let client = reloaded.client
        let modules = try await reloaded.authorized { token throws(VaultError) in try await client.modules(token: token) }
        #expect(modules.map(\.name).first == "Location")
        #expect(await reloaded.session.token?.accessToken != stale.token?.accessToken)

        let wrong = VaultConnection(session: VaultSession(vault: vault.url, credentials: .password(email: "user_a@ownyourdata.eu", password: "no")), store: store)
        await #expect(throws: VaultError.invalidCredentials) { try await wrong.token() }
    }

    /// A clock the test sets.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Date
        init(_ start: Date) { value = start }
        var now: Date {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }
}

/// The Secret Service store's use of `secret-tool`, seen from a stand-in `secret-tool` that writes
/// down its arguments and standard input.
@Suite("Vault session: what secret-tool is given")
struct VaultSecretToolTests {
    /// A `secret-tool` that logs its arguments and input to FOLDER and answers as `behaviour` says.
    static func fakeTool(in folder: URL, _ behaviour: String) throws -> String {
        let tool = folder.appendingPathComponent("secret-tool")
        try Data("""
            #!/bin/sh
            printf '%s\\n' "$@" > "\(folder.path)/argv-$1"
            cat > "\(folder.path)/stdin-$1"
            \(behaviour)
            """.utf8).write(to: tool)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: tool.path)
        return tool.path
    }

    @Test("the secret goes to secret-tool's standard input, never its arguments; the attributes are service waymark-vault")
    func secretOnStandardInput() throws {
        let folder = try TemporaryFolder()
        let password = "pw-\(UUID().uuidString)"
        let session = VaultSessionTests.session(password: password)
        let store = SecretServiceStore(executable: try Self.fakeTool(in: folder.url, "exit 0"), environment: [:])
        try store.save(session)
        let argv = try String(contentsOf: folder.url.appendingPathComponent("argv-store"), encoding: .utf8)
        #expect(argv == "store\n--label=Waymark: data vault sign-in\nservice\nwaymark-vault\n")
        #expect(!argv.contains(password))
        let input = try Data(contentsOf: folder.url.appendingPathComponent("stdin-store"))
        #expect(String(decoding: input, as: UTF8.self).contains(password), "the secret is on standard input")
        try store.delete()
        #expect(try String(contentsOf: folder.url.appendingPathComponent("argv-clear"), encoding: .utf8) == "clear\nservice\nwaymark-vault\n")
    }

    @Test("lookup: found, not found (exit 1, silent), a failure (secret-tool's own message), garbage, no answer in time")
    func lookupOutcomes() throws {
        let folder = try TemporaryFolder()
        let session = VaultSessionTests.session()
        let kept = folder.url.appendingPathComponent("kept.json")
        try FileSecretStore(url: kept).save(session)
        func store(_ behaviour: String, timeout: DispatchTimeInterval = .seconds(10)) throws -> SecretServiceStore {
            SecretServiceStore(executable: try Self.fakeTool(in: folder.url, behaviour), environment: [:], timeout: timeout)
        }
        #expect(try store("cat '\(kept.path)'").load() == session)
        #expect(try store("exit 1").load() == nil)
        #expect(try store("exit 1").isUsable(), "a lookup that finds nothing is an answer")
        #expect(throws: VaultSecretStoreError.unavailable("secret-tool: Cannot autolaunch D-Bus without X11 $DISPLAY")) {
            try store("echo 'secret-tool: Cannot autolaunch D-Bus without X11 $DISPLAY' >&2; exit 1").load()
        }
        #expect(try !store("echo 'secret-tool: no bus' >&2; exit 1").isUsable())
        #expect(throws: VaultSecretStoreError.self) { try store("echo not-a-session").load() }
        let started = Date()
        #expect(throws: VaultSecretStoreError.noAnswer) { try store("sleep 30", timeout: .milliseconds(500)).load() }
        #expect(Date().timeIntervalSince(started) < 10, "a keyring that never answers does not hang the command")
    }
}
