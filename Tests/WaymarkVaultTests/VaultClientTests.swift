import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkVault

/// The client of the seed's four endpoints against the stand-in vault.
@Suite struct VaultClientTests {
    @Test func signingInGivesTheTokenAndTheUsersName() async throws {
        let vault = try StandinVault()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try await vault.client.signIn(StandinVault.userA, now: now)
        #expect(token.username == "User A")
        #expect(token.accessToken.count == 64)
        #expect(token.expires == now.addingTimeInterval(7200))
        let b = try await vault.client.signIn(StandinVault.userB)
        #expect(b.username == "Very long User Name with many words")
        let app = try await vault.client.signIn(StandinVault.app)
        #expect(app.username == "User A")
    }

    @Test func aWrongPasswordIsInvalidCredentials() async throws {
        let vault = try StandinVault()
        await #expect(throws: VaultError.invalidCredentials) {
            try await vault.client.signIn(.password(email: "user_a@ownyourdata.eu", password: "user_b"))
        }
        await #expect(throws: VaultError.invalidCredentials) {
            try await vault.client.signIn(.app(key: "eu.ownyourdata.waymark", secret: "wrong"))
        }
        await #expect(throws: VaultError.invalidCredentials) {
            try await vault.client.signIn(.password(email: "nobody@ownyourdata.eu", password: "user_a"))
        }
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let port = try await unusedLocalPort()
        let client = VaultClient(vault: try #require(URL(string: "http://127.0.0.1:\(port)")), timeout: .seconds(5))
        await #expect {
            try await client.signIn(StandinVault.userA)
        } throws: { error in
            if case .unreachable = error as? VaultError { true } else { false }
        }
        await #expect {
            try await client.modules(token: VaultToken(accessToken: "x", expires: .distantFuture))
        } throws: { error in
            if case .unreachable = error as? VaultError { true } else { false }
        }
    }

    @Test func aVaultAddressThatIsNotHTTPIsInvalidURL() async throws {
        let client = VaultClient(vault: try #require(URL(string: "ftp://example.org")))
        await #expect {
            try await client.signIn(StandinVault.userA)
        } throws: { error in
            if case .invalidURL = error as? VaultError { true } else { false }
        }
    }

    @Test func userAHasTwoModulesAndUserBNone() async throws {
        let vault = try StandinVault()
        let a = try await vault.client.modules(token: vault.client.signIn(StandinVault.userA))
        #expect(a.count == 2)
        #expect(a.map(\.name) == ["Location", "Annotate — add notes to places you visit, with a deliberately very long title"])
        #expect(a[0].id == 1)
        #expect(a[0].description.count > 400)
        #expect(a[0].url == vault.url.absoluteString + "/modules/location")
        #expect(a[0].uid == "8ac6377e5697123aa18f8bca860f3bd2d8db6ec54002cc3becbdce9b1ac97943")
        #expect(a[0].picture?.hasPrefix("data:image/png;base64,") == true)
        let link = try #require(a[0].link(vault: vault.url))
        #expect(link.absoluteString == vault.url.absoluteString + "/modules/location?PIA_URL="
            + vault.url.absoluteString.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: "/", with: "%2F")
            + "&APP_KEY=8ac6377e5697123aa18f8bca860f3bd2d8db6ec54002cc3becbdce9b1ac97943"
            + "&APP_SECRET=95f1ea7336476d2d6c9b352c75d7bad1d2de0d3c456b973d3e9ffae4e00a1694")
        let b = try await vault.client.modules(token: vault.client.signIn(StandinVault.userB))
        #expect(b.isEmpty)
    }

    @Test func theModuleLinkIsTheSeedsExample() throws {
        let module = VaultModule(name: "Kontoentwicklung", description: "", url: "https://kontoentwicklung.oydapp.eu/",
                                 uid: "eu.ownyourdata.bank", secret: "fZTpuPtU6XEAVIJCcl5y")
        let link = module.link(vault: try #require(URL(string: "https://demo.datentresor.org")))
        #expect(link?.absoluteString
            == "https://kontoentwicklung.oydapp.eu/?PIA_URL=https%3A%2F%2Fdemo.datentresor.org&APP_KEY=eu.ownyourdata.bank&APP_SECRET=fZTpuPtU6XEAVIJCcl5y")
        // The seed's second example, with a trailing slash on the vault's address given.
        let location = VaultModule(name: "Location", description: "", url: "https://location.oydapp.eu/",
                                   uid: "8ac6377e5697123aa18f8bca860f3bd2d8db6ec54002cc3becbdce9b1ac97943",
                                   secret: "95f1ea7336476d2d6c9b352c75d7bad1d2de0d3c456b973d3e9ffae4e00a1694")
        #expect(location.link(vault: try #require(URL(string: "https://mobile.data-vault.eu/")))?.absoluteString
            == "https://location.oydapp.eu/?PIA_URL=https%3A%2F%2Fmobile.data-vault.eu&APP_KEY=8ac6377e5697123aa18f8bca860f3bd2d8db6ec54002cc3becbdce9b1ac97943&APP_SECRET=95f1ea7336476d2d6c9b352c75d7bad1d2de0d3c456b973d3e9ffae4e00a1694")
        // Everything but the unreserved characters is encoded; a module URL that is not http(s) gives no link.
        let odd = VaultModule(name: "x", description: "", url: "https://m.example/", uid: "a b&c=d/é~", secret: "+%")
        #expect(odd.link(vault: try #require(URL(string: "https://v.example")))?.absoluteString
            == "https://m.example/?PIA_URL=https%3A%2F%2Fv.example&APP_KEY=a%20b%26c%3Dd%2F%C3%A9~&APP_SECRET=%2B%25")
        for hostile in ["javascript:alert(1)", "data:text/html,hi", "not a url", "file:///etc/passwd", "https://"] {
            let module = VaultModule(name: "x", description: "", url: hostile, uid: "u", secret: "s")
            #expect(module.link(vault: try #require(URL(string: "https://v.example"))) == nil, "\(hostile)")
        }
    }

    @Test func theRepositoryKeyIsReadFromPubKeyOrPublicKey() async throws {
        let vault = try StandinVault()
        let token = try await vault.client.signIn(StandinVault.userA)
        let location = try #require(try await vault.client.repositoryKey("eu.ownyourdata.location", token: token))
        #expect(location == (try VaultSeal.publicKey(secretKey: vault.secretKey("eu.ownyourdata.location"))))
        let oyd = try #require(try await vault.client.repositoryKey("oyd.location", token: token))
        #expect(oyd == (try VaultSeal.publicKey(secretKey: vault.secretKey("oyd.location"))))
        #expect(try await vault.client.repositoryKey("plain.location", token: token) == nil)
        await #expect(throws: VaultError.forbidden) { try await vault.client.repositoryKey("forbidden.location", token: token) }
        await #expect(throws: VaultError.unauthorized) {
            try await vault.client.repositoryKey("eu.ownyourdata.location", token: VaultToken(accessToken: "bogus", expires: .distantFuture))
        }
        await #expect(throws: VaultError.unauthorized) {
            try await vault.client.modules(token: VaultToken(accessToken: "bogus", expires: .distantFuture))
        }
    }

    @Test func writingAnArrayGivesOneResultPerItemInOrder() async throws {
        let vault = try StandinVault()
        let token = try await vault.client.signIn(StandinVault.userA)
        let records = sampleRecords(3)
        try vault.refuse([records[1].timestamp])
        let results = try await vault.client.write(records.map { $0.json() }, repo: "plain.location", token: token)
        #expect(results.count == 3)
        #expect(results[0] == .written(id: 1))
        #expect(results[1] == .refused("refused by the stand-in vault"))
        #expect(results[2] == .written(id: 2))
        #expect(try await vault.client.write([records[0].json()], repo: "plain.location", token: token) == [.written(id: 3)])
        #expect(try await vault.client.write([], repo: "plain.location", token: token) == [])
        await #expect(throws: VaultError.forbidden) { try await vault.client.write([records[0].json()], repo: "forbidden.location", token: token) }
        // Plain items in a keyed repository are refused one by one.
        let plainInKeyed = try await vault.client.write([records[0].json()], repo: "eu.ownyourdata.location", token: token)
        guard case .refused = plainInKeyed.first else { Issue.record("a plain record was written into a keyed repo: \(plainInKeyed)"); return }
    }
}
