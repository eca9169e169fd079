import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkServer

extension AccountRole: ExpressibleByArgument {}

/// `waymark users`: accounts of the platform, administered on the server's machine.
struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create and list accounts, change a role, set a new password (the first admin is made here).",
        subcommands: [Create.self, List.self, SetRole.self, ResetPassword.self]
    )

    struct Store: ParsableArguments {
        @Option(name: .long, help: "The server's data folder (ignored when DATABASE_URL is set).", completion: .directory) var data = "./data"

        /// Opens the database, runs `work`, and closes it whatever happens.
        func with<T>(_ work: (UserAccounts) async throws -> T) async throws -> T {
            let accounts = try await UserAccounts(configuration: ServerConfiguration(
                dataDirectory: URL(fileURLWithPath: data), databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"]
            ))
            do {
                let result = try await work(accounts)
                try await accounts.shutdown()
                return result
            } catch {
                try? await accounts.shutdown()
                throw Users.explained(error)
            }
        }
    }

    /// A password: never from argv — from a file, or asked twice at a prompt without echo.
    struct PasswordOptions: ParsableArguments {
        @Option(name: .long, help: "A file whose first line is the password (else it is asked, twice, without echo).", completion: .file())
        var passwordFile: String?

        func read(for username: String) throws -> String {
            if let passwordFile {
                guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                    throw ValidationError("Cannot read the password file \(passwordFile).")
                }
                return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
            }
            guard Terminal.stdinIsTerminal else {
                throw ValidationError("No terminal to ask the password at: give --password-file FILE.")
            }
            guard let first = Terminal.readSecret(prompt: "Password for \(username) (at least \(AccountRules.minimumPasswordLength) characters): "),
                  let second = Terminal.readSecret(prompt: "The same password again: ")
            else { throw ExitCode.failure }
            guard first == second else { throw ValidationError("The two passwords differ; nothing was changed.") }
            return first
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account (password from --password-file or a prompt, never the command line).")
        @Argument(help: "The username: 3–32 of a-z, 0-9, _, . and -.") var username: String
        @Option(name: .long, help: "user, officer or admin.") var role: AccountRole = .user
        @Option(name: .long, help: "The name others see (default: the username).") var displayName: String?
        @Option(name: .long, help: "An e-mail address (optional).") var email: String?
        @OptionGroup var password: PasswordOptions
        @OptionGroup var store: Store

        func run() async throws {
            let secret = try password.read(for: username)
            let created = try await store.with { try await $0.create(username: username, password: secret, role: role, displayName: displayName, email: email) }
            print("Created \(created.role.rawValue) \(created.username) (\(created.displayName)).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the accounts, oldest first.")
        @Flag(name: .long, help: "Print JSON, for scripts.") var json = false
        @OptionGroup var store: Store

        func run() async throws {
            let all = try await store.with { try await $0.list() }
            if json {
                let rows = all.map { ["username": $0.username, "displayName": $0.displayName, "email": $0.email ?? "", "role": $0.role.rawValue,
                                      "created": ISO8601DateFormatter().string(from: $0.created)] }
                print(String(decoding: try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self))
                return
            }
            guard !all.isEmpty else {
                Terminal.printError("No accounts yet: waymark users create NAME --role admin")
                return
            }
            printTable(header: ["USERNAME", "ROLE", "NAME", "E-MAIL", "CREATED"],
                       rows: all.map { [$0.username, $0.role.rawValue, $0.displayName, $0.email ?? "-", localTime($0.created, seconds: false)] })
        }
    }

    struct SetRole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-role", abstract: "Give an account another role.")
        @Argument(help: "The username.") var username: String
        @Argument(help: "user, officer or admin.") var role: AccountRole
        @OptionGroup var store: Store

        func run() async throws {
            let changed = try await store.with { try await $0.setRole(role, username: username) }
            print("\(changed.username) is now \(changed.role.rawValue).")
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset-password", abstract: "Set a new password; every session of the account ends at once.")
        @Argument(help: "The username.") var username: String
        @OptionGroup var password: PasswordOptions
        @OptionGroup var store: Store

        func run() async throws {
            let secret = try password.read(for: username)
            let changed = try await store.with { try await $0.resetPassword(username: username, to: secret) }
            print("New password set for \(changed.username); its sessions have ended.")
        }
    }

    /// The words for an administration problem.
    static func explained(_ error: any Error) -> any Error {
        guard let problem = error as? UserAccounts.Problem else { return error }
        let message = switch problem {
        case .invalidUsername: "A username is 3 to 32 characters of a-z, 0-9, _, . and -."
        case .passwordTooShort: "The password must have at least \(AccountRules.minimumPasswordLength) characters."
        case .passwordTooLong: "The password must be at most \(AccountRules.maximumPasswordBytes) bytes."
        case .invalidDisplayName: "The display name must be 1 to \(AccountRules.nameLengths.upperBound) characters."
        case .invalidEmail: "The e-mail address is not valid."
        case .usernameTaken: "That username is taken (waymark users list shows the accounts)."
        case .noSuchAccount: "There is no such account (waymark users list shows them)."
        }
        return ValidationError(message)
    }
}
