import ArgumentParser
import Foundation
import WaymarkServer

/// `waymark keys`: consumer keys of the route service.
struct Keys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create, list and revoke the consumer keys clients sign requests with.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Store: ParsableArguments {
        @Option(name: .long, help: "The server's data folder (ignored when DATABASE_URL is set).", completion: .directory) var data = "./data"

        func open() async throws -> ConsumerKeys {
            try await ConsumerKeys(configuration: ServerConfiguration(dataDirectory: URL(fileURLWithPath: data),
                                                                      databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"]))
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a key; its secret is shown this once.")
        @Argument(help: "A name to recognise the key by (the phone, the laptop…).") var name: String
        @Flag(name: .long, help: "Print {\"name\", \"key\", \"secret\"} as JSON, for scripts.") var json = false
        @OptionGroup var store: Store

        func run() async throws {
            let keys = try await store.open()
            let created: (name: String, key: String, secret: String)
            do { created = try await keys.create(name: name) } catch { try? await keys.shutdown(); throw error }
            try await keys.shutdown()
            if json {
                let object = ["name": created.name, "key": created.key, "secret": created.secret]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                print("Created key \"\(created.name)\".")
                print("  WAYMARK_API_KEY=\(created.key)")
                print("  WAYMARK_API_SECRET=\(created.secret)")
                print("The secret is shown only now: store it where the client can read it.")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the keys (never their secrets).")
        @OptionGroup var store: Store

        func run() async throws {
            let keys = try await store.open()
            let all: [(name: String, key: String, created: Date, revoked: Bool)]
            do { all = try await keys.list() } catch { try? await keys.shutdown(); throw error }
            try await keys.shutdown()
            for key in all {
                print("\(key.key)\t\(key.name)\t\(ISO8601DateFormatter().string(from: key.created))\(key.revoked ? "\trevoked" : "")")
            }
            if all.isEmpty { Terminal.printError("No keys yet: waymark keys create NAME") }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: requests signed with it are refused from now on.")
        @Argument(help: "The key to revoke.") var key: String
        @OptionGroup var store: Store

        func run() async throws {
            let keys = try await store.open()
            let revoked: Bool
            do { revoked = try await keys.revoke(key: key) } catch { try? await keys.shutdown(); throw error }
            try await keys.shutdown()
            guard revoked else {
                Terminal.printError("error: there is no key \(key) (waymark keys list shows them).")
                throw ExitCode.failure
            }
            print("Revoked \(key).")
        }
    }
}
