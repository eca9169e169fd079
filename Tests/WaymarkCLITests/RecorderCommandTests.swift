import Foundation
import Testing
import WaymarkTestSupport

/// `waymark settings` and `waymark routes` on the recorder's store, as a user types them.
@Suite("waymark settings and routes on recorded routes")
struct RecorderCommandTests {
    @Test("settings: SSN-01's QR period of 5–30 s (or 1), saved for the next recording, and clear refusals")
    func settings() async throws {
        let folder = try TemporaryFolder()
        let env = ["WAYMARK_HOME": folder.url.path]
        let refused = try await WaymarkBinary.run(["settings", "--qr-period", "3"], environment: env)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("from 5 to 30 seconds, or 1"))
        let negative = try await WaymarkBinary.run(["settings", "--accuracy-threshold=-5"], environment: env)
        #expect(negative.status != 0 && negative.stderr.contains("positive number of metres"))

        let set = try await WaymarkBinary.run(["settings", "--qr-period", "1", "--accuracy-threshold", "50", "--units", "imperial", "--wifi-only", "true"], environment: env)
        #expect(set.status == 0, "\(set.stderr)")
        let shown = try await WaymarkBinary.run(["settings", "--json"], environment: env)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(json["qrPeriod"] as? Int == 1)
        #expect(json["accuracyThreshold"] as? Double == 50)
        #expect(json["units"] as? String == "imperial")
        #expect(json["wifiOnly"] as? Bool == true)
    }

    @Test("routes: an empty list says how to record; delete asks first and refuses without a terminal unless --yes")
    func routesAndDelete() async throws {
        let folder = try TemporaryFolder()
        let env = ["WAYMARK_HOME": folder.url.path, "WAYMARK_PASSPHRASE": "correct horse", "WAYMARK_SERVER": ""]
        #expect(try await WaymarkBinary.run(["routes", "list"], environment: env).stdout.contains("`waymark record` records one"))
        let track = Fixtures.url("tracks/around-visnjan-with-car.gpx").path
        let recorded = try await WaymarkBinary.run(["record", "--replay", track, "--speed", "100", "--stop-after", "2"], environment: env)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.contains("Route 1 recorded"))

        let unconfirmed = try await WaymarkBinary.run(["routes", "delete", "1"], environment: env)
        #expect(unconfirmed.status != 0 && unconfirmed.stderr.contains("--yes"))
        #expect(try await WaymarkBinary.run(["routes", "show", "1"], environment: env).status == 0, "nothing was deleted")

        let deleted = try await WaymarkBinary.run(["routes", "delete", "1", "--yes"], environment: env)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let missing = try await WaymarkBinary.run(["routes", "show", "1"], environment: env)
        #expect(missing.status != 0 && missing.stderr.contains("no recorded route 1"))

        let wrong = try await WaymarkBinary.run(["record", "--replay", track, "--stop-after", "1"], environment: env.merging(["WAYMARK_PASSPHRASE": "another one"]) { $1 })
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("does not match the one the recorder keeps"), "SCO-10: \(wrong.stderr)")
    }
}
