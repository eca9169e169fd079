#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A real HTTP server from a Python script (python3 must be installed) that prints its port on
/// its first line of output, and may log to the file given as its first argument.
///
/// The server is killed when the value is released.
public final class ScriptedServer {
    public let process = Process()
    public let port: Int
    /// The file the script writes its log to (the script's first argument).
    public let log = FileManager.default.temporaryDirectory.appendingPathComponent("scripted-\(UUID().uuidString)")

    public init(script: String, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, log.path] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw CocoaError(.fileReadCorruptFile) }
        self.port = port
    }

    /// `http://127.0.0.1:PORT`.
    public var url: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// The JSON the script last wrote to its log, when it writes one.
    public func logged() throws -> Any? {
        guard let data = try? Data(contentsOf: log), !data.isEmpty else { return nil }
        return try JSONSerialization.jsonObject(with: data)
    }

    /// The requests the script logged, when its log is a JSON array of them.
    public func requests() throws -> [[String: Any]] {
        try logged() as? [[String: Any]] ?? []
    }

    deinit {
        process.stop(SIGKILL)
        try? FileManager.default.removeItem(at: log)
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on right now (the kernel's choice).
public func unusedLocalPort() async throws -> Int {
    let text = String(decoding: try await ExternalTool.run(["python3", "-c",
        "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])"]), as: UTF8.self)
    guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw CocoaError(.fileReadCorruptFile) }
    return port
}
