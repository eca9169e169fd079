import ArgumentParser
import Foundation
import WaymarkServer

/// `waymark serve`: the route service.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the route service: stores encrypted routes it can never read (SQLite in --data, or PostgreSQL with DATABASE_URL)."
    )

    @Option(name: .long, help: "The address to listen on.") var host = "127.0.0.1"
    @Option(name: .long, help: "The port to listen on.") var port = 8080
    @Option(name: .long, help: "The data folder (SQLite database and, later, blobs).", completion: .directory) var data = "./data"
    /// For make bench only: an unsigned endpoint that stores each request body with one INSERT.
    @Flag(name: .long, help: .hidden) var benchFloor = false

    func run() async throws {
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: data), databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"])
        configuration.host = host
        configuration.port = port
        configuration.benchFloor = benchFloor
        try await WaymarkServerApp.run(configuration)
    }
}
