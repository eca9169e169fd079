#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WaymarkTestSupport

/// The stand-in vault (`Tests/Vault/standin-vault.py`, contract A) as a process: it decrypts what
/// it is sent with the private keys it keeps and writes down every item and request.
///
/// Stopped (SIGTERM, then reaped) when the value is released.
final class VaultStandIn: @unchecked Sendable {
    struct Missing: Error, CustomStringConvertible { var description: String }

    let process = Process()
    let state: URL
    let url: URL

    init(arguments: [String] = []) throws {
        let python = packageRoot.appendingPathComponent(".build-venv/tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Missing(description: "\(python) is missing — run scripts/bootstrap to install PyNaCl")
        }
        state = FileManager.default.temporaryDirectory.appendingPathComponent("standin-vault-\(UUID().uuidString)", isDirectory: true)
        process.executableURL = URL(fileURLWithPath: python)
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
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: state)
    }

    /// The timestamps the stand-in refuses from now on (its `refuse.json`).
    func refuse(_ timestamps: [String]) throws {
        try JSONSerialization.data(withJSONObject: timestamps).write(to: state.appendingPathComponent("refuse.json"), options: .atomic)
    }

    /// Every item it wrote (`items.jsonl`): repo, received, plaintext (nil when sent plain), record.
    func items() throws -> [[String: Any]] { try lines("items.jsonl") }

    /// Every request it answered (`requests.jsonl`).
    func requests() throws -> [[String: Any]] { try lines("requests.jsonl") }

    private func lines(_ name: String) throws -> [[String: Any]] {
        guard let data = try? Data(contentsOf: state.appendingPathComponent(name)) else { return [] }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }
}

/// A home for `waymark vault` (WAYMARK_HOME: the cache, the sign-in file, the recorder's store),
/// English, the sign-in kept in the file, on Wi-Fi unless a test says otherwise.
final class VaultHome {
    let folder: TemporaryFolder
    var environment: [String: String]

    init() throws {
        folder = try TemporaryFolder()
        environment = ["WAYMARK_HOME": folder.url.path, "WAYMARK_VAULT_STORE": "file", "WAYMARK_NETWORK": "wifi",
                       "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8", "WAYMARK_SERVER": ""]
    }

    var url: URL { folder.url }
    var sessionFile: URL { url.appendingPathComponent("vault-session.json") }

    /// A file holding `text` and a newline (a password file).
    func file(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data((text + "\n").utf8).write(to: file)
        return file.path
    }

    /// Runs `waymark ARGUMENTS` here with `extra` variables and `input` on its standard input.
    func run(_ arguments: [String], _ extra: [String: String] = [:], input: String? = nil) throws -> WaymarkBinary.Output {
        let process = WaymarkBinary.start(arguments, environment: environment.merging(extra) { $1 })
        let files = try CapturedOutput()
        process.standardOutput = files.stdout
        process.standardError = files.stderr
        if let input {
            let pipe = Pipe()
            process.standardInput = pipe
            try pipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try pipe.fileHandleForWriting.close()
        }
        try process.run()
        process.waitUntilExit()
        return WaymarkBinary.Output(status: process.terminationStatus, stdout: try files.read(\.stdoutURL), stderr: try files.read(\.stderrURL))
    }

    /// `waymark vault login` as user_a of the seed, with a password file.
    @discardableResult
    func login(_ vault: VaultStandIn, email: String = "user_a@ownyourdata.eu", password: String = "user_a",
               _ extra: [String: String] = [:]) throws -> WaymarkBinary.Output {
        try run(["vault", "login", "--url", vault.url.absoluteString, "--user", email, "--password-file", try file("password", password)], extra)
    }
}

extension WaymarkBinary.Output {
    /// The lines of standard error.
    var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
    /// Both outputs, for failure messages.
    var both: String { "status \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}
