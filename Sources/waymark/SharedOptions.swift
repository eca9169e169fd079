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

/// `--server`, `--user`, `--password-file` and WAYMARK_SERVER, WAYMARK_USER, WAYMARK_TOKEN: signing in
/// to the account side of the server (`waymark photos upload`, `waymark tasks`).
struct AccountOptions: ParsableArguments {
    @Option(name: .long, help: "The server, e.g. http://127.0.0.1:8080 (else WAYMARK_SERVER).") var server: String?
    @Option(name: .long, help: "Your username (else WAYMARK_USER, else asked); the session token WAYMARK_TOKEN skips signing in.") var user: String?
    @Option(name: .long, help: "A file whose first line is your password (else it is asked without echo).", completion: .file())
    var passwordFile: String?

    /// A client signed in with WAYMARK_TOKEN, or with the username and password.
    func signedInClient() async throws -> PlatformClient {
        let env = ProcessInfo.processInfo.environment
        guard let text = server ?? env["WAYMARK_SERVER"], let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("Name the server with --server URL or WAYMARK_SERVER (e.g. http://127.0.0.1:8080).")
        }
        var client = PlatformClient(serverURL: url, token: env["WAYMARK_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
        if client.token == nil {
            let name = try user ?? env["WAYMARK_USER"] ?? ask("Username: ")
            let password = try readPassword()
            _ = try await Self.reporting { try await client.signIn(username: name, password: password) }
        }
        return client
    }

    /// Runs a request; the server's refusal is printed as its reason and the command fails.
    static func reporting<T>(_ request: () async throws -> T) async throws -> T {
        do {
            return try await request()
        } catch let WaymarkClientError.api(_, body) {
            Terminal.printError("error: \(body.reason)")
            throw ExitCode.failure
        }
    }

    private func ask(_ prompt: String) throws -> String {
        guard Terminal.stdinIsTerminal else { throw ValidationError("Give --user NAME (or WAYMARK_USER), or WAYMARK_TOKEN.") }
        FileHandle.standardError.write(Data(prompt.utf8))
        guard let line = readLine(), !line.isEmpty else { throw ExitCode.failure }
        return line
    }

    private func readPassword() throws -> String {
        if let passwordFile {
            guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                throw ValidationError("Cannot read the password file \(passwordFile).")
            }
            return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        guard Terminal.stdinIsTerminal, let typed = Terminal.readSecret(prompt: "Password: ") else {
            throw ValidationError("No terminal to ask the password at: give --password-file FILE, or WAYMARK_TOKEN.")
        }
        return typed
    }
}
