import Foundation
import WaymarkTestSupport

/// The built `waymark` executable, run as a user would run it.
enum WaymarkBinary {

    /// `WAYMARK_BINARY`, else the `waymark` beside the test bundle (swift build puts both in one folder).
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["WAYMARK_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("waymark")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/waymark")
    }()

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs waymark to completion with extra environment variables and no terminal.
    /// Output goes to files, not pipes: a child that fills one pipe while we drain the other cannot block.
    /// Waits without holding a thread of the cooperative pool (``Foundation/Process/runToExit()``).
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Output {
        let process = start(arguments, environment: environment)
        let files = try CapturedOutput()
        process.standardOutput = files.stdout
        process.standardError = files.stderr
        try await process.runToExit()
        return Output(status: process.terminationStatus, stdout: try files.read(\.stdoutURL), stderr: try files.read(\.stderrURL))
    }

    /// A configured but not yet started waymark process (for tests that kill it).
    static func start(_ arguments: [String], environment: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["WAYMARK_PASSPHRASE"] = nil
        // SQLite in the data folder, unless the test runs on PostgreSQL (CLIDatabase).
        env["DATABASE_URL"] = CLIDatabase.url
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// The JSON lines of `waymark tag --json`, by file name (last path component).
    static func reports(_ output: Output) throws -> [String: [String: Any]] {
        var reports: [String: [String: Any]] = [:]
        for line in output.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            let file = (object["file"] as? String ?? "") as NSString
            reports[file.lastPathComponent] = object
        }
        return reports
    }
}
