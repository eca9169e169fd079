#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import WaymarkCore
import WaymarkMedia
import WaymarkTestSupport

/// `waymark record` on a real terminal: tmux runs it, `capture-pane` reads the screen back.
@Suite("waymark record in a terminal", .serialized)
struct RecordTerminalTests {
    /// A tmux server of its own, so the test never touches the user's sessions.
    final class Tmux {
        let socket = "waymark-test-\(UUID().uuidString.prefix(8))"

        /// Runs a tmux command with posix_spawn and waitpid. Foundation's Process learns that a child
        /// ended when a socket it shares with the child closes, and the tmux server that `new-session`
        /// forks inherits that socket, so Process would wait for the server to end.
        func run(_ arguments: [String]) throws -> String {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: output) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            let argv = (["tmux", "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, environ)
            guard spawned == 0 else { throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "cannot start tmux (\(spawned)): run scripts/bootstrap"]) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            guard status == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "tmux \(arguments.first ?? "") failed: \(text)"]) }
            return text
        }

        func screen() throws -> String { try run(["capture-pane", "-p", "-t", "rec"]) }

        /// Polls the screen until `condition` holds, for up to `seconds`.
        func waitForScreen(seconds: Double = 20, _ condition: (String) -> Bool) async throws -> String {
            let deadline = Date().addingTimeInterval(seconds)
            var last = ""
            while Date() < deadline {
                last = (try? screen()) ?? last
                if condition(last) { return last }
                try await Task.sleep(for: .milliseconds(200))
            }
            Issue.record("the screen never showed what was expected; it was:\n\(last)")
            return last
        }

        deinit { _ = try? run(["kill-server"]) }
    }

    /// The QR code on a captured screen: half blocks turned back into a bitmap, read with zxing-cpp.
    static func decodeQR(in screen: String) throws -> String? {
        let blocks: Set<Character> = ["▀", "▄", "█"]
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let rows = lines.indices.filter { lines[$0].contains { blocks.contains($0) } }
        guard let top = rows.first, let bottom = rows.last else { return nil }
        let columns = rows.flatMap { row in lines[row].indices.filter { blocks.contains(lines[row][$0]) } }
        guard let left = columns.min(), let right = columns.max() else { return nil }
        // One cell is one unit wide and two units tall; pad with a quiet zone and enlarge 4× for the decoder.
        let quiet = 6, zoom = 4
        let unitsWide = right - left + 1 + 2 * quiet, unitsTall = (bottom - top + 1) * 2 + 2 * quiet
        var pixels = [UInt8](repeating: 255, count: unitsWide * zoom * unitsTall * zoom)
        for row in top...bottom {
            for column in left...right where column < lines[row].count {
                let (upper, lower): (Bool, Bool)
                switch lines[row][column] {
                case "█": (upper, lower) = (true, true)
                case "▀": (upper, lower) = (true, false)
                case "▄": (upper, lower) = (false, true)
                default: (upper, lower) = (false, false)
                }
                for (half, dark) in [(0, upper), (1, lower)] where dark {
                    let unitX = column - left + quiet, unitY = (row - top) * 2 + half + quiet
                    for y in 0..<zoom {
                        for x in 0..<zoom { pixels[(unitY * zoom + y) * unitsWide * zoom + unitX * zoom + x] = 0 }
                    }
                }
            }
        }
        return try QRScanner().scan(gray: pixels, width: unitsWide * zoom, height: unitsTall * zoom).texts.first
    }

    @Test("the QR code on screen carries the session's nonce and the time, and changes after the QR period")
    func qrOnScreen() async throws {
        let folder = try TemporaryFolder()
        let home = folder.url.appendingPathComponent("home").path
        let track = Fixtures.url("tracks/around-visnjan-with-car.gpx").path
        let tmux = Tmux()
        let command = [WaymarkBinary.url.path, "record", "--replay", track, "--speed", "2"].joined(separator: " ")
        _ = try tmux.run(["new-session", "-d", "-x", "100", "-y", "40", "-s", "rec",
                          "-e", "WAYMARK_HOME=\(home)", "-e", "WAYMARK_PASSPHRASE=correct horse battery staple",
                          "-e", "WAYMARK_SERVER=", command + "; sleep 30"])

        let first = try await tmux.waitForScreen { (try? Self.decodeQR(in: $0)) != nil }
        let payload = try #require(try Self.decodeQR(in: first).flatMap(QRPayload.init))
        #expect(first.contains(payload.text), "the payload is also printed under the code")
        #expect(abs(Double(payload.time) - Date().timeIntervalSince1970) < 15, "the code shows the present time")
        #expect(payload.time % 5 == 0, "codes follow the 5 s period of the default settings")
        #expect(payload.nonce.count == 12)

        let later = try await tmux.waitForScreen { screen in
            (try? Self.decodeQR(in: screen)).flatMap { $0.flatMap(QRPayload.init) }.map { $0.time > payload.time } ?? false
        }
        let next = try #require(try Self.decodeQR(in: later).flatMap(QRPayload.init))
        #expect(next.nonce == payload.nonce, "one nonce for the whole session (SRR-11)")
        #expect(next.time - payload.time == 5, "a new code every QR period (SRR-13)")

        // Quit asks first; "n" goes on recording; "s" stops and queues the route.
        _ = try tmux.run(["send-keys", "-t", "rec", "q"])
        _ = try await tmux.waitForScreen { $0.contains("Stop recording and quit?") }
        _ = try tmux.run(["send-keys", "-t", "rec", "n"])
        _ = try await tmux.waitForScreen { !$0.contains("Stop recording and quit?") && $0.contains("[s] stop") }
        _ = try tmux.run(["send-keys", "-t", "rec", "s"])
        let done = try await tmux.waitForScreen { $0.contains("queued for upload") }
        #expect(done.contains("Route 1 recorded"))

        let list = try await WaymarkBinary.run(["routes", "list", "--json"], environment: ["WAYMARK_HOME": home])
        let routes = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(routes.count == 1)
        #expect(routes.first?["nonce"] as? String == payload.nonce, "the stored route is the one whose code was on screen")
        #expect(routes.first?["state"] as? String == "queued")
        #expect((routes.first?["fix_count"] as? Int ?? 0) > 0)
    }
}
