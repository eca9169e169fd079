import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkClient

extension TaskStatus: ExpressibleByArgument {}

/// `waymark tasks`: field-inspection tasks, for officers (DESIGN §3.10).
struct Tasks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hand out, list and return field-inspection tasks (officers).",
        subcommands: [Create.self, List.self, Return.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Hand a task to a user: what to photograph, and by when.")

        @Option(name: .long, help: "The username of the account that is to do it.") var assignee: String
        @Option(name: .long, help: "The task's name, e.g. \"Field 17, north boundary\".") var name: String
        @Option(name: .long, help: "What to do, in words.") var instructions: String?
        @Option(name: .long, help: "The due date: 2026-07-01, or a date-time with its zone (2026-07-01T17:00:00+02:00).") var due: String
        @OptionGroup var account: AccountOptions

        func run() async throws {
            let client = try await account.signedInClient()
            let task = try await AccountOptions.reporting {
                try await client.createTask(NewTaskRequest(assignee: assignee, name: name, instructions: instructions, dueDate: due))
            }
            print("Created task \(task.id.uuidString.lowercased()) for \(task.assignee.username): \(task.name), due \(task.dueDate).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List tasks: an officer's list holds every task, a user's their own; newest first.")

        @Option(name: .long, help: "Only tasks in this status: new, open, data_provided or returned.") var status: TaskStatus?
        @Option(name: .long, help: "Only this username's tasks.") var assignee: String?
        @Flag(name: .long, help: "Print the tasks as the API's JSON.") var json = false
        @OptionGroup var account: AccountOptions

        func run() async throws {
            let client = try await account.signedInClient()
            let tasks = try await AccountOptions.reporting { try await client.tasks(status: status, assignee: assignee) }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(tasks), as: UTF8.self))
                return
            }
            guard !tasks.isEmpty else {
                Terminal.printError(status.map { "No tasks are \($0.rawValue)." } ?? "No tasks yet: waymark tasks create --assignee NAME --name TEXT --due DATE")
                return
            }
            printTable(header: ["ID", "STATUS", "PHOTOS", "DUE", "ASSIGNEE", "CREATED", "NAME"],
                       rows: tasks.map { task in
                           [task.id.uuidString.lowercased(), task.status.rawValue, "\(task.photoCount)", task.dueDate, task.assignee.username,
                            localTime(task.createdAt, seconds: false), task.name]
                       })
        }
    }

    struct Return: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a sent task back to its user with the reason.")

        @Argument(help: "The task's id (waymark tasks list --status data_provided shows them).") var id: String
        @Option(name: .long, help: "What is missing or wrong; its user sees it.") var reason: String
        @OptionGroup var account: AccountOptions

        func validate() throws {
            guard UUID(uuidString: id) != nil else { throw ValidationError("\(id) is not a task id (a UUID, as waymark tasks list shows it).") }
            guard !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ValidationError("Say why with --reason TEXT; it must not be empty.") }
        }

        func run() async throws {
            guard let uuid = UUID(uuidString: id) else { throw ExitCode.validationFailure }
            let client = try await account.signedInClient()
            let task = try await AccountOptions.reporting { try await client.returnTask(id: uuid, reason: reason) }
            print("Returned task \(task.id.uuidString.lowercased()) (\(task.name)) to \(task.assignee.username).")
        }
    }
}
