#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB
import Testing
import WaymarkCore
@testable import WaymarkRecorder
import WaymarkTestSupport

/// A recorder killed while it appends fixes (SIGKILL: no clean-up at all) loses nothing it had
/// committed. The recorder is this test bundle itself, started again as a child that runs only
/// ``appendingChild()``.
@Suite("The store when the recorder is killed", .serialized)
struct StoreCrashTests {
    static let childVariable = "WAYMARK_STORE_CRASH_CHILD"
    static let marker = "WAYMARK-COMMITTED "

    @Test("(child) appends one fix at a time and reports each commit; runs only inside the crash test",
          .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func appendingChild() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.childVariable])
        let store = try SQLiteRecordingStore(path: path)
        let id: Int64
        if let existing = try await store.routes().first(where: { $0.nonce == "crash" }) {
            id = existing.id
        } else {
            id = try await store.startRoute(nonce: "crash", created: Date(timeIntervalSince1970: 1_717_236_000), qrPeriod: 5)
        }
        var count = try await store.route(id)?.fixCount ?? 0
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            try await store.append(walk(1, from: count), track: 0, route: id, distance: Double(count), duration: Double(count))
            count += 1
            // write(2) straight to the file: what the parent reads was committed before it was written.
            FileHandle.standardOutput.write(Data("\(Self.marker)\(count)\n".utf8))
        }
    }

    #if os(Linux)
    @Test("fixes committed before a SIGKILL are all there after reopening, kill after kill")
    func killedWhileAppending() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("recorder.sqlite").path
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var acknowledged = 0
        for round in 1...3 {
            let output = folder.url.appendingPathComponent("child-\(round).out")
            FileManager.default.createFile(atPath: output.path, contents: nil)
            let child = Process()
            child.executableURL = bundle
            child.arguments = ["--testing-library", "swift-testing", "--filter", "appendingChild"]
            child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: path]) { $1 }
            child.standardOutput = try FileHandle(forWritingTo: output)
            child.standardError = FileHandle.nullDevice
            try child.run()

            // Kill it at a random moment after it has committed some fixes.
            let target = acknowledged + Int.random(in: 20...150)
            let giveUp = Date().addingTimeInterval(60)
            while Self.lastCommit(in: output) < target, Date() < giveUp, child.isRunning {
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            kill(child.processIdentifier, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(child.processIdentifier, &status, 0)
            let committed = Self.lastCommit(in: output)
            try #require(committed >= target, "the child did not append as expected: \(String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self).suffix(2000))")
            acknowledged = committed

            let store = try SQLiteRecordingStore(path: path)
            let route = try #require(try await store.routes().first { $0.nonce == "crash" })
            // Everything acknowledged is there; at most the one append under way when killed is too.
            #expect(route.fixCount >= committed && route.fixCount <= committed + 1, "round \(round): \(route.fixCount) fixes, \(committed) committed")
            #expect(try await store.tracks(of: route.id) == [Track(fixes: walk(route.fixCount))])
            #expect(route.state == .recording)
            let check = try await store.writer.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
            #expect(check == "ok")
            acknowledged = route.fixCount
        }
    }

    /// The highest commit count the child reported.
    static func lastCommit(in file: URL) -> Int {
        guard let data = try? Data(contentsOf: file) else { return 0 }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .compactMap { $0.hasPrefix(marker) ? Int($0.dropFirst(marker.count)) : nil }.max() ?? 0
    }
    #endif
}
