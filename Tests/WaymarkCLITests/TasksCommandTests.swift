import Foundation
import Testing
import WaymarkTestSupport

/// `waymark tasks create|list|return` against a real `waymark serve`: an officer hands a task to a
/// user, lists it, returns it once the user has sent it; a user cannot hand out tasks, and a
/// return the rules refuse fails with the server's reason. Runs on SQLite, and on PostgreSQL
/// when DATABASE_URL is set.
@Suite("waymark tasks (TasksCommand)", .serialized)
struct TasksCommandTests {
    @Test("an officer creates, lists (table and JSON) and returns a task; a user is refused; a refused return says why", arguments: CLIDatabase.all)
    func officerFlow(database: CLIDatabase) async throws {
        try await database.run { try await officerFlow() }
    }

    private func officerFlow() async throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data").path
        let officer = "olga-\(UUID().uuidString.prefix(8).lowercased())"
        let user = "ursa-\(UUID().uuidString.prefix(8).lowercased())"
        let passwordFile = folder.url.appendingPathComponent("password.txt")
        let password = "a long enough password"
        try "\(password)\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        #expect(try await WaymarkBinary.run(["users", "create", officer, "--role", "officer", "--password-file", passwordFile.path, "--data", data]).status == 0)
        #expect(try await WaymarkBinary.run(["users", "create", user, "--password-file", passwordFile.path, "--data", data]).status == 0)

        let port = try await ServeEndToEndTests.freePort()
        let server = try ServeEndToEndTests.Server(data: URL(fileURLWithPath: data), port: port)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(port)"
        try await UsersCommandTests.waitUntilUp(url)
        let asOfficer = ["--server", url, "--user", officer, "--password-file", passwordFile.path]

        let created = try await WaymarkBinary.run(["tasks", "create", "--assignee", user, "--name", "Field 17, north boundary",
                                             "--instructions", "Photograph the boundary stones.", "--due", "2026-07-01"] + asOfficer)
        #expect(created.status == 0, "\(created.stdout)\n\(created.stderr)")
        let id = try #require(created.stdout.firstMatch(of: #/Created task ([0-9a-f-]{36}) for /#).map { String($0.1) }, "\(created.stdout)")
        #expect(created.stdout.contains("for \(user): Field 17, north boundary, due 2026-07-01."))

        // The user signs in (as the web page would) and sends it.
        let session = try await ExternalTool.run(["curl", "-fsS", "-X", "POST", "-H", "Content-Type: application/json",
                                            "-d", #"{"username":"\#(user)","password":"\#(password)"}"#, "\(url)/api/v1/sessions"])
        let token = try #require((try JSONSerialization.jsonObject(with: session) as? [String: Any])?["token"] as? String)
        _ = try await ExternalTool.run(["curl", "-fsS", "-X", "POST", "-H", "Authorization: Bearer \(token)", "\(url)/api/v1/tasks/\(id)/send"])

        let table = try await WaymarkBinary.run(["tasks", "list", "--status", "data_provided"] + asOfficer)
        #expect(table.status == 0, "\(table.stderr)")
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix(id) }, "\(table.stdout)")
        #expect(row.contains("data_provided") && row.contains(user) && row.contains("2026-07-01") && row.hasSuffix("Field 17, north boundary"))
        #expect(try await WaymarkBinary.run(["tasks", "list", "--status", "returned"] + asOfficer).stdout.contains(id) == false)

        let returned = try await WaymarkBinary.run(["tasks", "return", id, "--reason", "Stone 4 is not in the photo."] + asOfficer)
        #expect(returned.status == 0, "\(returned.stdout)\n\(returned.stderr)")
        #expect(returned.stdout.contains("Returned task \(id) (Field 17, north boundary) to \(user)."))
        let json = try await WaymarkBinary.run(["tasks", "list", "--json"] + asOfficer)
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json.stdout)")
        let task = try #require(tasks.first { $0["id"] as? String == id })
        #expect(task["status"] as? String == "returned" && task["returnReason"] as? String == "Stone 4 is not in the photo.")

        // Refused: a return the rules do not allow, a user handing out a task, a bad date.
        let twice = try await WaymarkBinary.run(["tasks", "return", id, "--reason", "again"] + asOfficer)
        #expect(twice.status != 0)
        #expect(twice.stderr.contains("already returned"), "\(twice.stderr)")
        let byUser = try await WaymarkBinary.run(["tasks", "create", "--assignee", officer, "--name", "x", "--due", "2026-07-01"],
                                           environment: ["WAYMARK_SERVER": url, "WAYMARK_TOKEN": token])
        #expect(byUser.status != 0)
        #expect(byUser.stderr.contains("Only officers and admins hand out tasks"), "\(byUser.stderr)")
        let badDate = try await WaymarkBinary.run(["tasks", "create", "--assignee", user, "--name", "x", "--due", "1 July"] + asOfficer)
        #expect(badDate.status != 0 && badDate.stderr.contains("dueDate must be an ISO 8601 date"), "\(badDate.stderr)")
        let mine = try await WaymarkBinary.run(["tasks", "list", "--json"], environment: ["WAYMARK_SERVER": url, "WAYMARK_TOKEN": token])
        #expect((try JSONSerialization.jsonObject(with: Data(mine.stdout.utf8)) as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id],
                "a user lists their own: \(mine.stdout)")
    }
}
