import Foundation
import WaymarkTestSupport

/// The stand-in vault process (WaymarkTestSupport), under the name these tests use.
typealias VaultStandIn = StandinVault

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
