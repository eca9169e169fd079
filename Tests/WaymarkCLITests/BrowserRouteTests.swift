import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// The browser recorder's data layer (Web/recorder/) against the real `waymark serve`: a node
/// script (Tests/Web/tools/browser-route-roundtrip.mjs) signs up, lets the keeper make the
/// device key, records, seals (PBKDF2, 600 000 iterations) and uploads a route with signature v2
/// and its Idempotency-Key, reads it back, and deletes a second one through the queued remote
/// delete; then the command line opens the browser's route: `waymark routes export` and
/// `waymark tag --server` with a QR photo of its nonce. Needs node (scripts/bootstrap).
@Suite("Browser recorder against waymark serve", .serialized)
struct BrowserRouteTests {
    @Test("a route sealed and uploaded by the browser's code opens in `waymark routes export` and tags photos with `waymark tag --server`")
    func browserRouteOpensInCommandLine() async throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data")
        let port = try await ServeEndToEndTests.freePort()
        let url = "http://127.0.0.1:\(port)"
        let server = try ServeEndToEndTests.Server(data: data, port: port)
        defer { server.stop() }

        let passphrase = "Cafe\u{301} passphrase from the browser"
        let script = packageRoot.appendingPathComponent("Tests/Web/tools/browser-route-roundtrip.mjs")
        let printed: Data
        do {
            printed = try await ExternalTool.run(["WAYMARK_SERVER=\(url)", "WAYMARK_TEST_PASSPHRASE=\(passphrase)", "node", script.path])
        } catch {
            Issue.record("the browser's data layer failed against waymark serve: \(error)")
            return
        }
        let result = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any], "\(String(decoding: printed, as: UTF8.self))")
        let routeID = try #require(result["routeId"] as? String)
        let nonce = try #require(result["nonce"] as? String)
        let key = try #require(result["key"] as? String), secret = try #require(result["secret"] as? String)
        let start = try #require(result["start"] as? Double)
        #expect(result["fixes"] as? Int == 331)
        // The passphrase in its other Unicode form: both sides hash the NFC form.
        let env = ["WAYMARK_API_KEY": key, "WAYMARK_API_SECRET": secret, "WAYMARK_PASSPHRASE": "Caf\u{E9} passphrase from the browser"]

        let gpx = folder.url.appendingPathComponent("browser.gpx")
        let export = try await WaymarkBinary.run(["routes", "export", routeID, "--nonce", nonce, "--gpx", gpx.path, "--server", url], environment: env)
        #expect(export.status == 0, "\(export.stderr)")
        let track = try #require(try TrackFile.read(contentsOf: gpx).first)
        #expect(track.fixes.count == 331)
        #expect(abs(track.fixes[230].latitude - (46.0 + 200.0 / 100_000)) < 1e-9)
        #expect(track.fixes[230].time.timeIntervalSince1970 == start + 200)

        let wrong = try await WaymarkBinary.run(["routes", "export", routeID, "--nonce", nonce, "--gpx", gpx.path, "--server", url],
                                          environment: env.merging(["WAYMARK_PASSPHRASE": "another passphrase"]) { $1 })
        #expect(wrong.status != 0, "a wrong passphrase must not open the browser's route")

        // A QR photo of the route's nonce and another photo; the camera 7 min 03 s slow.
        let trip = await try TwoPhotoTrip(in: folder.url, start: start, nonce: nonce)
        let (photos, other) = (trip.photos, trip.other)

        let tag = try await WaymarkBinary.run(["tag", photos.path, "--server", url, "--json"], environment: env)
        #expect(tag.status == 0, "\(tag.stderr)")
        let reports = try WaymarkBinary.reports(tag)
        #expect(reports["IMG_0002.JPG"]?["status"] as? String == "tagged", "\(tag.stdout)\n\(tag.stderr)")
        let position = try #require(try await ExternalTool.position(other))
        #expect(abs(position.latitude - (46.0 + 200.0 / 100_000)) < 1e-5 && abs(position.longitude - (14.0 + 200.0 / 50_000)) < 1e-5)
    }
}
