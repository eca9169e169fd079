import ArgumentParser
import Foundation
import WaymarkClient
import WaymarkMedia

/// `--server`, `--api-key`, `--api-secret`, falling back to WAYMARK_SERVER, WAYMARK_API_KEY, WAYMARK_API_SECRET.
struct ServerOptions: ParsableArguments {
    @Option(name: .long, help: "The route service, e.g. http://127.0.0.1:8080 (else WAYMARK_SERVER).")
    var server: String?

    @Option(name: .long, help: "The consumer key (else WAYMARK_API_KEY).")
    var apiKey: String?

    @Option(name: .long, help: "The consumer secret (else WAYMARK_API_SECRET; prefer the variable, argv is visible to other users).")
    var apiSecret: String?

    /// Whether a server was named at all (flag or environment).
    var isGiven: Bool { server != nil || !(ProcessInfo.processInfo.environment["WAYMARK_SERVER"] ?? "").isEmpty }

    func credentials() throws -> ServerCredentials {
        let env = ProcessInfo.processInfo.environment
        guard let text = server ?? env["WAYMARK_SERVER"], let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("Name the route service with --server URL or WAYMARK_SERVER (e.g. http://127.0.0.1:8080).")
        }
        guard let key = apiKey ?? env["WAYMARK_API_KEY"], let secret = apiSecret ?? env["WAYMARK_API_SECRET"] else {
            throw ValidationError("The route service needs a consumer key and secret: set WAYMARK_API_KEY and WAYMARK_API_SECRET (`waymark keys create NAME` makes them).")
        }
        return ServerCredentials(serverURL: url, key: key, secret: secret)
    }

    func client() throws -> WaymarkClient { WaymarkClient(credentials: try credentials()) }
}

/// The route passphrase: never from argv — WAYMARK_PASSPHRASE, --passphrase-file, or a prompt without echo.
struct PassphraseOptions: ParsableArguments {
    @Option(name: .long, help: "A file whose first line is the route passphrase (else WAYMARK_PASSPHRASE, else a prompt).", completion: .file())
    var passphraseFile: String?

    /// Whether the passphrase will be asked at a prompt (no file, no WAYMARK_PASSPHRASE, a terminal).
    var isInteractive: Bool {
        passphraseFile == nil && (ProcessInfo.processInfo.environment["WAYMARK_PASSPHRASE"] ?? "").isEmpty && Terminal.stdinIsTerminal
    }

    /// Reads the passphrase when called (so it is asked only when a route must be opened).
    func provider() -> @Sendable () throws -> String {
        let file = passphraseFile
        return {
            if let file {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw GeotagError("Cannot read the passphrase file \(file).")
                }
                return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
            }
            if let value = ProcessInfo.processInfo.environment["WAYMARK_PASSPHRASE"], !value.isEmpty { return value }
            guard Terminal.stdinIsTerminal, let typed = Terminal.readSecret(prompt: "Route passphrase: "), !typed.isEmpty else {
                throw GeotagError("The route needs its passphrase: set WAYMARK_PASSPHRASE, give --passphrase-file FILE, or run in a terminal to be asked.")
            }
            return typed
        }
    }
}
