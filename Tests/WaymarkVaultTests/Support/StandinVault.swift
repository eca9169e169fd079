import Foundation
import WaymarkTestSupport
@testable import WaymarkVault

/// The seed's users, the contract's app credentials, and what the vault tests ask of the stand-in.
extension StandinVault {
    static let userA = VaultCredentials.password(email: "user_a@ownyourdata.eu", password: "user_a")
    static let userB = VaultCredentials.password(email: "user_b@ownyourdata.eu", password: "Q/wdfbv67")
    static let app = VaultCredentials.app(key: "eu.ownyourdata.waymark", secret: "waymark-app-secret-0123456789")

    var client: VaultClient { VaultClient(vault: url) }

    /// The private key of a keyed repository (`keys.json`).
    func secretKey(_ repo: String) throws -> [UInt8] {
        guard let hex = try secretKeyHex(repo), let bytes = Hex.decode(hex) else { throw Missing(description: "no key for \(repo)") }
        return bytes
    }
}

/// A token source for tests: signs in with fixed credentials; optionally hands out a bogus
/// token first, so the vault answers 401 and the pusher must renew.
actor TestTokens: VaultTokenSource {
    let client: VaultClient
    let credentials: VaultCredentials
    private var current: VaultToken?
    private(set) var signIns = 0
    private(set) var renewals = 0

    init(client: VaultClient, credentials: VaultCredentials = StandinVault.userA, bogusFirst: Bool = false) {
        self.client = client
        self.credentials = credentials
        if bogusFirst { current = VaultToken(accessToken: String(repeating: "0", count: 64), expires: .distantFuture) }
    }

    func token() async throws(VaultError) -> VaultToken {
        if let current { return current }
        return try await signIn()
    }

    func renew() async throws(VaultError) -> VaultToken {
        renewals += 1
        return try await signIn()
    }

    private func signIn() async throws(VaultError) -> VaultToken {
        signIns += 1
        let token = try await client.signIn(credentials)
        current = token
        return token
    }
}

/// A fixed token that never changes (for scripted servers that do not check it).
struct FixedTokens: VaultTokenSource {
    var fixed = VaultToken(accessToken: "scripted", expires: .distantFuture)
    func token() async throws(VaultError) -> VaultToken { fixed }
    func renew() async throws(VaultError) -> VaultToken { fixed }
}

/// A fresh cache file in a temporary folder.
func temporaryCache() throws -> (VaultCache, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vault-cache-\(UUID().uuidString)", isDirectory: true)
    let file = folder.appendingPathComponent("vault.sqlite")
    return (try VaultCache(path: file), folder)
}

/// Removes the folder of a cache made by ``temporaryCache()``.
func removeCacheFolder(_ cache: VaultCache) {
    try? FileManager.default.removeItem(at: URL(fileURLWithPath: cache.path).deletingLastPathComponent())
}

/// `count` records one second apart, moving north-east from Bled.
func sampleRecords(_ count: Int, start: Double = 1_700_000_000) -> [VaultRecord] {
    (0..<count).map { index in
        VaultRecord(timestamp: Date(timeIntervalSince1970: start + Double(index)), latitude: 46.3683 + Double(index) * 1e-5,
                    longitude: 14.1146 + Double(index) * 1e-5, altitude: 480 + Double(index) / 4, accuracy: 5,
                    speed: 1.5, heading: 45)
    }
}
