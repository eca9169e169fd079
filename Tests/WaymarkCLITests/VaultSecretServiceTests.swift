import Foundation
import Testing
import WaymarkTestSupport

/// The sign-in kept in a real Secret Service: GNOME Keyring on a private session bus
/// (dbus-run-session), driven by `waymark vault` and checked with libsecret's own `secret-tool`.
@Suite("waymark vault: the sign-in in the Secret Service")
struct VaultSecretServiceTests {
    @Test("login keeps the sign-in in the keyring (not in a file), modules reads it, logout deletes it")
    func keyringRoundTrip() async throws {
        for tool in ["dbus-run-session", "gnome-keyring-daemon", "secret-tool"] {
            #expect(!(try await ExternalTool.run(["sh", "-c", "command -v \(tool) || true"]).isEmpty), "\(tool) is not installed: run scripts/bootstrap")
        }
        let vault = try VaultStandIn()
        let home = try VaultHome()
        let userHome = try TemporaryFolder()  // the keyring's files go to $HOME/.local/share/keyrings
        try FileManager.default.createDirectory(at: userHome.url.appendingPathComponent(".cache"), withIntermediateDirectories: true)
        let secrets = try TemporaryFolder()
        let password = secrets.url.appendingPathComponent("password")
        try Data("user_a\n".utf8).write(to: password)

        // No WAYMARK_VAULT_STORE: the Secret Service is chosen because it answers.
        let script = """
            printf keyring-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
            "$WAYMARK" vault login --url "$VAULT" --user user_a@ownyourdata.eu --password-file "$PASSWORD"; echo "== login $?"
            secret-tool lookup service waymark-vault; echo; echo "== lookup $?"
            "$WAYMARK" vault modules; echo "== modules $?"
            "$WAYMARK" vault status; echo "== status $?"
            "$WAYMARK" vault logout; echo "== logout $?"
            secret-tool lookup service waymark-vault; echo "== after $?"
            "$WAYMARK" vault modules 2>&1; echo "== signed out $?"
            # The bus and the keyring inherit the test's blocked SIGTERM and would outlive the session
            # (holding its output open): end them by their ids, which the bus itself tells.
            pid() { dbus-send --session --dest=org.freedesktop.DBus --print-reply=literal /org/freedesktop/DBus \
                org.freedesktop.DBus.GetConnectionUnixProcessID "string:$1" | awk '{ print $2 }'; }
            kill -9 $(pid org.freedesktop.secrets) $(pid org.freedesktop.DBus)
            """
        var environment = home.environment
        environment["WAYMARK_VAULT_STORE"] = nil
        environment.merge(["HOME": userHome.url.path, "XDG_DATA_HOME": "", "XDG_RUNTIME_DIR": "", "DBUS_SESSION_BUS_ADDRESS": "",
                           "WAYMARK": WaymarkBinary.url.path, "VAULT": vault.url.absoluteString, "PASSWORD": password.path]) { $1 }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["dbus-run-session", "--", "sh", "-c", script]
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value.isEmpty ? nil : value }
        env["WAYMARK_VAULT_STORE"] = nil
        process.environment = env
        let files = try CapturedOutput()
        process.standardOutput = files.stdout
        process.standardError = files.stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let output = try files.read(\.stdoutURL)
        let context = "stdout:\n\(output)\nstderr:\n\(try files.read(\.stderrURL))"

        #expect(output.contains("Signed in to \(vault.url.absoluteString) as User A.\nThe sign-in is kept in the Secret Service (your desktop keyring).\n== login 0"), "\(context)")
        // libsecret's own tool finds it: the vault, the credentials and the token, as JSON.
        let kept = try #require(output.components(separatedBy: "== login 0\n").last?.components(separatedBy: "\n== lookup").first, "\(context)")
        let session = try #require(try JSONSerialization.jsonObject(with: Data(kept.utf8)) as? [String: Any], "\(context)")
        #expect(session["vault"] as? String == vault.url.absoluteString)
        #expect((session["credentials"] as? [String: Any])?["password"] != nil, "\(kept)")
        #expect(output.contains("== lookup 0"), "\(context)")
        #expect(output.contains("Location\n") && output.contains("== modules 0"), "the kept sign-in is read back: \(context)")
        #expect(output.contains("Sign-in kept in: the Secret Service (your desktop keyring)"), "\(context)")
        #expect(output.contains("Signed out: the sign-in kept in the Secret Service (your desktop keyring) is deleted.\n== logout 0"), "\(context)")
        #expect(output.contains("== after 1"), "secret-tool finds nothing after logout: \(context)")
        #expect(output.contains("Not signed in to a data vault") && output.contains("== signed out 1"), "\(context)")

        // Nothing of the sign-in is in a file: not in WAYMARK_HOME, and the keyring's own file is encrypted.
        for folder in [home.url, userHome.url] {
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            var files = 0
            while let file = enumerator?.nextObject() as? URL {
                guard let data = try? Data(contentsOf: file) else { continue }
                files += 1
                #expect(data.range(of: Data("user_a\"".utf8)) == nil && data.range(of: Data("\"password\"".utf8)) == nil, "\(file.path) holds the password")
                #expect(data.range(of: Data("user_a".utf8)) == nil || folder == userHome.url, "\(file.path) mentions the account")
            }
            #expect(files > 0, "\(folder.path) holds the cache or the keyring")
        }
        #expect(!FileManager.default.fileExists(atPath: home.sessionFile.path))
    }
}
