#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The stand-in vault (`Tests/Vault/standin-vault.py`) as a process, one per test: it implements
/// the seed's four endpoints, decrypts what it is sent with the private keys it keeps, and writes
/// down every item and request in its state folder.
///
/// Stopped (SIGTERM, SIGKILL if it is still there after 2 s; always reaped) when released.
public final class StandinVault: @unchecked Sendable {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public let process = Process()
    /// Its state folder: keys.json, refuse.json, items.jsonl, requests.jsonl.
    public let state: URL
    /// Where it listens, `http://127.0.0.1:PORT`.
    public let url: URL

    /// The venv's Python, which has PyNaCl (scripts/python-tools.txt).
    public static func python() throws -> String {
        let path = packageRoot.appendingPathComponent(".build-venv/tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Missing(description: "\(path) is missing — run scripts/bootstrap to install PyNaCl")
        }
        return path
    }

    /// Starts it with more `arguments` (e.g. `--token-lifetime 1`) and waits for its `listening` line.
    public init(arguments: [String] = []) throws {
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
        process.stop(SIGTERM, grace: 2)
        try? FileManager.default.removeItem(at: state)
    }

    /// The timestamps the stand-in refuses from now on (its `refuse.json`).
    public func refuse(_ timestamps: [String]) throws {
        try JSONSerialization.data(withJSONObject: timestamps).write(to: state.appendingPathComponent("refuse.json"), options: .atomic)
    }

    /// Every item it wrote (`items.jsonl`): repo, id, received, plaintext (nil when sent plain), record.
    public func items() throws -> [[String: Any]] { try lines("items.jsonl") }

    /// Every request it answered (`requests.jsonl`).
    public func requests() throws -> [[String: Any]] { try lines("requests.jsonl") }

    /// The hex private key of a keyed repository (`keys.json`), or nil.
    public func secretKeyHex(_ repo: String) throws -> String? {
        let keys = try JSONSerialization.jsonObject(with: Data(contentsOf: state.appendingPathComponent("keys.json"))) as? [String: [String: String]]
        return keys?[repo]?["secret"]
    }

    private func lines(_ name: String) throws -> [[String: Any]] {
        guard let data = try? Data(contentsOf: state.appendingPathComponent(name)) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }
}
