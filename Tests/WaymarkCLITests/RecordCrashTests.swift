import Foundation
import Testing
import WaymarkCore
import WaymarkRecorder
import WaymarkTestSupport

/// A recorder killed with SIGKILL loses at most the last seconds, and its route is finished later.
@Suite("waymark record killed while recording")
struct RecordCrashTests {
    @Test("after SIGKILL the saved fixes are the replay's first ones, at most a second or two short, and sync queues them")
    func killWhileRecording() async throws {
        let folder = try TemporaryFolder()
        let home = folder.url.appendingPathComponent("home").path
        let trackURL = Fixtures.url("tracks/around-visnjan-with-car.gpx")
        let original = try TrackFile.read(contentsOf: trackURL).flatMap(\.fixes)
        let environment = ["WAYMARK_HOME": home, "WAYMARK_PASSPHRASE": "correct horse battery staple", "WAYMARK_SERVER": ""]

        // At 10× the replay emits each fix a tenth of its original delay after the first (the whole track takes 51 s).
        let process = WaymarkBinary.start(["record", "--replay", trackURL.path, "--speed", "10"], environment: environment)
        let output = try CapturedOutput()
        process.standardOutput = output.stdout
        process.standardError = output.stderr
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while try output.read(\.stdoutURL).contains(" qr ") == false && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .seconds(5))
        kill(process.processIdentifier, SIGKILL)
        let killed = Date()
        process.waitUntilExit()

        let list = try await WaymarkBinary.run(["routes", "show", "1", "--json"], environment: environment)
        let route = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any], "\(list.stderr)")
        #expect(route["state"] as? String == "recording", "the route was never stopped")
        let saved = route["fix_count"] as? Int ?? 0
        // What was saved is the start of the replay, in order (re-timed, so compare positions).
        let store = try SQLiteRecordingStore(path: home + "/recorder.sqlite")
        let fixes = try await store.tracks(of: 1).flatMap(\.fixes)
        // The replay stamps its first fix with the moment it started: fix k came out (t_k - t_0) / 10 later.
        let (started, first) = (try #require(fixes.first).time, try #require(original.first).time)
        func emitted(by moment: Date) -> Int {
            original.filter { started.addingTimeInterval($0.time.timeIntervalSince(first) / 10) <= moment }.count
        }
        // Fixes are saved every second: all but those of the last 1.5 s before the kill must be there.
        let (mustHave, emittedAtKill) = (emitted(by: killed.addingTimeInterval(-1.5)), emitted(by: killed))
        #expect(fixes.count == saved)
        #expect(saved >= mustHave, "only the last second or so may be lost: \(saved) of about \(emittedAtKill) fixes were saved")
        #expect(saved <= emittedAtKill + 2)
        #expect(zip(fixes, original).allSatisfy { $0.latitude == $1.latitude && $0.longitude == $1.longitude })
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.time < $1.time })

        // `routes sync` finishes it with the passphrase (and then says no service is configured).
        let sync = try await WaymarkBinary.run(["routes", "sync"], environment: environment)
        #expect(sync.stdout.contains("Route 1 was left unfinished"), "\(sync.stdout)\(sync.stderr)")
        let after = try await WaymarkBinary.run(["routes", "show", "1", "--json"], environment: environment)
        let queued = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        #expect(queued["state"] as? String == "queued")
        #expect(queued["fix_count"] as? Int == saved, "nothing saved is lost when the route is finished")
    }
}
