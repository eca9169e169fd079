import Foundation
import Testing
import WaymarkTestSupport

/// `waymark users` as an administrator runs it, then `waymark serve` on the same database: the
/// accounts it made sign in, with the passwords it set. Runs on SQLite, and on PostgreSQL when
/// DATABASE_URL is set.
@Suite("waymark users (UsersCommand)", .serialized)
struct UsersCommandTests {
    @Test("create, list, set-role and reset-password; the password never on the command line; the server signs in with what was set", arguments: CLIDatabase.all)
    func administer(database: CLIDatabase) async throws {
        try await database.run { try await administer() }
    }

    private func administer() async throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data").path
        let name = "root-\(UUID().uuidString.prefix(8).lowercased())"
        let passwordFile = folder.url.appendingPathComponent("password.txt")
        try "first password, long\n".write(to: passwordFile, atomically: true, encoding: .utf8)

        let created = try await WaymarkBinary.run(["users", "create", name, "--role", "admin", "--display-name", "Root Admin", "--password-file", passwordFile.path, "--data", data])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("Created admin \(name) (Root Admin)."))

        let again = try await WaymarkBinary.run(["users", "create", name.uppercased(), "--password-file", passwordFile.path, "--data", data])
        #expect(again.status != 0)
        #expect(again.stderr.contains("That username is taken"), "\(again.stderr)")

        // No terminal to ask at and no file: refused with what to do; there is no --password option.
        let noPassword = try await WaymarkBinary.run(["users", "create", "x\(name)", "--data", data])
        #expect(noPassword.status != 0)
        #expect(noPassword.stderr.contains("--password-file"), "\(noPassword.stderr)")
        let argv = try await WaymarkBinary.run(["users", "create", "y\(name)", "--password", "in the process list", "--data", data])
        #expect(argv.status != 0)

        let short = folder.url.appendingPathComponent("short.txt")
        try "short\n".write(to: short, atomically: true, encoding: .utf8)
        let weak = try await WaymarkBinary.run(["users", "create", "z\(name)", "--password-file", short.path, "--data", data])
        #expect(weak.status != 0)
        #expect(weak.stderr.contains("at least 10 characters"), "\(weak.stderr)")

        let listed = try await WaymarkBinary.run(["users", "list", "--json", "--data", data])
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: String]] ?? []
        let row = try #require(rows.first { $0["username"] == name })
        #expect(row["role"] == "admin")
        #expect(row["displayName"] == "Root Admin")
        #expect(!listed.stdout.contains("argon2"), "no password hash is shown")

        let role = try await WaymarkBinary.run(["users", "set-role", name, "officer", "--data", data])
        #expect(role.stdout.contains("\(name) is now officer."), "\(role.stderr)")
        let badRole = try await WaymarkBinary.run(["users", "set-role", name, "emperor", "--data", data])
        #expect(badRole.status != 0)
        let nobody = try await WaymarkBinary.run(["users", "set-role", "nobody-\(name)", "user", "--data", data])
        #expect(nobody.stderr.contains("no such account"), "\(nobody.stderr)")

        let port = try await ServeEndToEndTests.freePort()
        let server = try ServeEndToEndTests.Server(data: URL(fileURLWithPath: data), port: port)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(port)"
        try await Self.waitUntilUp(base)
        let first = try await Self.signIn(base, name, "first password, long")
        #expect(first.status == 200)
        #expect(first.body.contains(#""role":"officer""#))
        let token = try #require(first.token)
        #expect(try await Self.me(base, token) == 200)

        try "second password, longer\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        let reset = try await WaymarkBinary.run(["users", "reset-password", name, "--password-file", passwordFile.path, "--data", data])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try await Self.me(base, token) == 401, "the old session ended with the old password")
        #expect(try await Self.signIn(base, name, "first password, long").status == 401)
        #expect(try await Self.signIn(base, name, "second password, longer").status == 200)
    }

    static func waitUntilUp(_ base: String) async throws {
        for _ in 0..<100 {
            if (try? await ExternalTool.run(["curl", "-fsS", base + "/healthz"])) != nil { return }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        Issue.record("the server did not come up")
    }

    static func signIn(_ base: String, _ username: String, _ password: String) async throws -> (status: Int, body: String, token: String?) {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["username": username, "password": password]), as: UTF8.self)
        let output = String(decoding: try await ExternalTool.run(["curl", "-sS", "-w", "\n%{http_code}", "-H", "Content-Type: application/json", "-d", body, base + "/api/v1/sessions"]), as: UTF8.self)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        let text = lines.dropLast().joined(separator: "\n")
        let token = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["token"] as? String
        return (status, text, token)
    }

    static func me(_ base: String, _ token: String) async throws -> Int {
        let output = String(decoding: try await ExternalTool.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", base + "/api/v1/me"]), as: UTF8.self)
        return Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
