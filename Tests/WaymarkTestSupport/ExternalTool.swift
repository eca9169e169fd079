import Foundation

/// Runs tools nobody here wrote (exiftool, exiv2, ImageMagick, qrencode) to check Waymark's output.
public enum ExternalTool {
    public struct Failure: Error, CustomStringConvertible {
        var command: [String]
        var status: Int32
        var stderr: String
        public var description: String { "\(command.joined(separator: " ")) exited \(status): \(stderr)" }
    }

    /// Runs a command found on PATH and returns its standard output; throws when it fails.
    ///
    /// Waits without holding a thread: the cooperative pool has one thread per core, and a test
    /// blocked in `waitUntilExit` for a second of exiftool would stall every other test on it.
    @discardableResult
    public static func run(_ arguments: [String], allowFailure: Bool = false) async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        // Both outputs go to files, so that a child filling a pipe nobody drains cannot block.
        let files = try CapturedOutput()
        process.standardOutput = files.stdout
        process.standardError = files.stderr
        try await process.runToExit()
        let output = try Data(contentsOf: files.stdoutURL)
        if process.terminationStatus != 0 && !allowFailure {
            throw Failure(command: arguments, status: process.terminationStatus, stderr: try files.read(\.stderrURL))
        }
        return output
    }

    /// Every tag exiftool reports for a file, as "Group:Tag" → value (numeric values with -n).
    public static func exiftoolTags(_ url: URL) async throws -> [String: String] {
        let json = try await run(["exiftool", "-j", "-a", "-G1", "-n", "-u", url.path])
        let array = try JSONSerialization.jsonObject(with: json) as? [[String: Any]]
        var tags: [String: String] = [:]
        for (key, value) in array?.first ?? [:] { tags[key] = "\(value)" }
        return tags
    }
}

/// Two temporary files that receive a child's standard output and error, removed with this.
public final class CapturedOutput {
    public let stdoutURL: URL, stderrURL: URL
    public let stdout: FileHandle, stderr: FileHandle

    public init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-out-\(UUID().uuidString)")
        stdoutURL = base.appendingPathExtension("out")
        stderrURL = base.appendingPathExtension("err")
        FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        stdout = try FileHandle(forWritingTo: stdoutURL)
        stderr = try FileHandle(forWritingTo: stderrURL)
    }

    /// What the child wrote to one of them, as text.
    public func read(_ path: KeyPath<CapturedOutput, URL>) throws -> String {
        String(decoding: try Data(contentsOf: self[keyPath: path]), as: UTF8.self)
    }

    deinit {
        try? stdout.close()
        try? stderr.close()
        try? FileManager.default.removeItem(at: stdoutURL)
        try? FileManager.default.removeItem(at: stderrURL)
    }
}

/// A fresh temporary folder, removed when the value is dropped by the test.
public final class TemporaryFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Copies a fixture into the folder and returns the copy's URL.
    public func copy(fixture relativePath: String, as name: String? = nil) throws -> URL {
        let source = Fixtures.url(relativePath)
        let target = url.appendingPathComponent(name ?? source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: target)
        return target
    }
}

/// The bytes of a JPEG from its first SOS marker on: the entropy-coded image data.
public func jpegImageData(_ data: Data) -> Data? {
    let bytes = [UInt8](data)
    guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var index = 2
    while index + 4 <= bytes.count {
        guard bytes[index] == 0xFF else { return nil }
        let marker = bytes[index + 1]
        if marker == 0xDA { return Data(bytes[index...]) }
        if marker == 0xFF { index += 1; continue }
        let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
        index += 2 + length
    }
    return nil
}
