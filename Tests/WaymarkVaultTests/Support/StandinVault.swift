#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WaymarkTestSupport
@testable import WaymarkVault

/// The stand-in vault (`Tests/Vault/standin-vault.py`) as a process, one per test: it decrypts
/// what it is sent with the private keys it keeps, and writes down what it received.
///
/// The process is stopped (SIGTERM, then reaped) when the value is released.
final class StandinVault: @unchecked Sendable {
    struct Missing: Error, CustomStringConvertible { var description: String }

    let process = Process()
    let state: URL
    let url: URL

    /// The seed's users and the contract's app credentials.
    static let userA = VaultCredentials.password(email: "user_a@ownyourdata.eu", password: "user_a")
    static let userB = VaultCredentials.password(email: "user_b@ownyourdata.eu", password: "Q/wdfbv67")
    static let app = VaultCredentials.app(key: "eu.ownyourdata.waymark", secret: "waymark-app-secret-0123456789")

    /// The venv's Python, which has PyNaCl (scripts/python-tools.txt).
    static func python() throws -> String {
        let path = packageRoot.appendingPathComponent(".build-venv/tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Missing(description: "\(path) is missing — run scripts/bootstrap to install PyNaCl")
        }
        return path
    }

    init(arguments: [String] = []) throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("standin-vault-\(UUID().uuidString)", isDirectory: true)
        process.executableURL = URL(fileURLWithPath: try Self.python())
        process.arguments = [packageRoot.appendingPathComponent("Tests/Vault/standin-vault.py").path, "--state", state.path] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening "), let url = URL(string: String(text.dropFirst("listening ".count))) else {
            throw Missing(description: "the stand-in vault did not start: \(text)")
        }
        self.url = url
    }

    deinit {
        // SIGTERM (the stand-in stops on it), SIGKILL if it is still there after 2 s; always reaped.
        // Process.waitUntilExit spins a run loop, which an async test's thread does not serve.
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        var status: Int32 = 0
        var reaped = false
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true; break }
            usleep(10_000)
        }
        if !reaped {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
        }
        try? FileManager.default.removeItem(at: state)
    }

    var client: VaultClient { VaultClient(vault: url) }

    /// The timestamps the stand-in refuses from now on (its `refuse.json`).
    func refuse(_ timestamps: [String]) throws {
        try JSONSerialization.data(withJSONObject: timestamps).write(to: state.appendingPathComponent("refuse.json"), options: .atomic)
    }

    /// Every item the stand-in wrote (`items.jsonl`).
    func items() throws -> [[String: Any]] { try lines("items.jsonl") }

    /// Every request it answered (`requests.jsonl`).
    func requests() throws -> [[String: Any]] { try lines("requests.jsonl") }

    /// The private key of a keyed repository (`keys.json`).
    func secretKey(_ repo: String) throws -> [UInt8] {
        let keys = try JSONSerialization.jsonObject(with: Data(contentsOf: state.appendingPathComponent("keys.json"))) as? [String: [String: String]]
        guard let hex = keys?[repo]?["secret"], let bytes = Hex.decode(hex) else { throw Missing(description: "no key for \(repo)") }
        return bytes
    }

    private func lines(_ name: String) throws -> [[String: Any]] {
        guard let data = try? Data(contentsOf: state.appendingPathComponent(name)) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
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
