#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import WaymarkAPI
import WaymarkTestSupport

/// `waymark serve --tle FILE`: the orbit data of the `/sky` page, read at start.
@Suite("waymark serve --tle")
struct ServeTLETests {
    /// Runs `waymark serve` with `arguments` until it exits or `seconds` pass (then stops it and says so).
    static func serve(_ arguments: [String], data: URL, port: Int, seconds: Double = 30) throws -> (status: Int32?, stdout: String, stderr: String) {
        let output = try CapturedOutput()
        let process = WaymarkBinary.start(["serve", "--data", data.path, "--port", String(port), "--web", "none"] + arguments)
        process.standardOutput = output.stdout
        process.standardError = output.stderr
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        var status: Int32? = process.terminationStatus
        if process.isRunning {
            status = nil
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        return (status, try output.read(\.stdoutURL), try output.read(\.stderrURL))
    }

    @Test("A --tle file that is missing, a folder, empty or without one usable element set stops the server at once with a message naming it", arguments: [
        "missing", "folder", "empty", "broken",
    ])
    func unusableFile(kind: String) async throws {
        let folder = try TemporaryFolder()
        let file: URL
        switch kind {
        case "missing": file = folder.url.appendingPathComponent("gps-ops.txt")
        case "folder": file = folder.url
        case "empty":
            file = folder.url.appendingPathComponent("galileo.txt")
            try Data().write(to: file)
        default:
            file = folder.url.appendingPathComponent("beidou.txt")
            try Data("BEIDOU-3 M1 (C19)\n1 43001U 17069A   22034.0\n2 43001  55.0\n".utf8).write(to: file)
        }
        let run = try await Self.serve(["--tle", Fixtures.url("tle/gps-ops.txt").path, "--tle", file.path],
                                 data: folder.url.appendingPathComponent("data"), port: try ServeEndToEndTests.freePort(), seconds: 20)
        #expect(run.status != nil && run.status != 0, "\(kind): the server must not start; stdout: \(run.stdout)")
        #expect(run.stderr.contains("--tle \(file.path)"), "\(kind): \(run.stderr)")
        #expect(run.stderr.contains("did not start"), "\(kind): \(run.stderr)")
        #expect(!run.stdout.contains("Waymark's API is at"), "\(kind)")
    }

    @Test("Good files, one with a broken entry: the server starts, logs the skipped entry once, and /api/v1/sky answers from the files")
    func startsWithBrokenEntries() async throws {
        let folder = try TemporaryFolder()
        var lines = try String(contentsOf: Fixtures.url("tle/galileo.txt"), encoding: .utf8).components(separatedBy: "\n")
        lines[2] = String(lines[2].prefix(30))
        let galileo = folder.url.appendingPathComponent("galileo.txt")
        try lines.joined(separator: "\n").write(to: galileo, atomically: true, encoding: .utf8)
        let port = try await ServeEndToEndTests.freePort()
        let output = try CapturedOutput()
        let process = WaymarkBinary.start(["serve", "--data", folder.url.appendingPathComponent("data").path, "--port", String(port), "--web", "none",
                                           "--tle", Fixtures.url("tle/gps-ops.txt").path, "--tle", galileo.path])
        process.standardOutput = output.stdout
        process.standardError = output.stderr
        try process.run()
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)"
        var up = false
        for _ in 0..<200 where !up {
            up = (try? await ExternalTool.run(["curl", "-fsS", "\(base)/healthz"])) != nil
            if !up { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        let startLog = (try? output.read(\.stderrURL)) ?? ""
        try #require(up, "the server did not start: \(startLog)")
        let body = try await ExternalTool.run(["curl", "-fsS", "\(base)/api/v1/sky?latitude=46.05&longitude=14.5&time=2022-02-03T12:00:00Z"])
        let view = try JSONDecoder().decode(SkyView.self, from: body)
        #expect(Set(view.satellites.map(\.constellation)) == ["gps", "galileo"])
        let expected = try [Fixtures.url("tle/gps-ops.txt"), galileo].map { try String(contentsOf: $0, encoding: .utf8) }
            .joined(separator: "\n").components(separatedBy: "\n").filter { $0.hasPrefix("1 ") }.count - 1
        #expect(view.elements.satellites == expected, "every set but the broken one")
        let config = try JSONSerialization.jsonObject(with: try await ExternalTool.run(["curl", "-fsS", "\(base)/api/v1/config"])) as? [String: Any]
        #expect(config?["sky"] as? Bool == true)
        let log = try output.read(\.stdoutURL) + output.read(\.stderrURL)
        let loaded = log.components(separatedBy: "\n").filter { $0.contains("orbit data loaded") }
        #expect(loaded.count == 1, "\(log)")
        #expect(loaded.first?.contains("brokenEntriesSkipped: 1") == true, "\(loaded)")
        #expect(loaded.first?.contains("\(galileo.path) (1)") == true, "\(loaded)")
        #expect(loaded.first?.contains("WARNING") == true, "\(loaded)")
    }
}
