import Foundation
import Testing
import WaymarkCore
import WaymarkRecorder
import WaymarkTestSupport

/// `waymark tag FOLDER` on the computer that recorded the route: the route comes from the
/// recorder's own store, found by the QR photo's nonce, with no --track and no server.
@Suite("waymark tag: the route from this computer's recorder", .serialized)
struct TagLocalRecorderTests {
    typealias Day = TagEndToEndTests

    /// A recorder store in `home` (as WAYMARK_HOME names it) holding a route recorded with `nonce`:
    /// the walk, in two tracks (a pause in between), stopped and queued for upload.
    static func recordRoute(nonce: String, in home: URL) async throws -> Int64 {
        let store = try SQLiteRecordingStore(path: home.appendingPathComponent("recorder.sqlite").path)
        // Another route first, so that finding the route by its number alone would pick the wrong one.
        let other = try await store.startRoute(nonce: QRPayload.makeNonce(), created: Date(timeIntervalSince1970: Day.start - 86_400), qrPeriod: 5)
        try await store.append([Fix(latitude: 10, longitude: 10, time: Date(timeIntervalSince1970: Day.start - 86_400))],
                               track: 0, route: other, distance: 0, duration: 0)
        let id = try await store.startRoute(nonce: nonce, created: Date(timeIntervalSince1970: Day.start - 60), qrPeriod: 1)
        let fixes = Day.track().fixes
        let pause = fixes.count / 2
        try await store.append(Array(fixes[..<pause]), track: 0, route: id, distance: 400, duration: 300)
        try await store.append(Array(fixes[pause...]), track: 1, route: id, distance: 800, duration: 660)
        let stored = try #require(try await store.route(id))
        #expect(try await store.finish(stored) { try RouteUpload.seal(route: $0, passphrase: "correct horse", kdf: .pbkdf2(iterations: 1000)) })
        return id
    }

    @Test("photos are tagged where they were taken, and the summary names the recorded route")
    func tagsFromTheLocalStore() async throws {
        let trip = try await TagTrip(photoCount: 5, qrPhoto: true)
        let home = trip.folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let id = try await Self.recordRoute(nonce: trip.nonce, in: home)

        // No passphrase anywhere and no terminal: the local fixes need none.
        let output = try await WaymarkBinary.run(["tag", trip.photos.path], environment: ["WAYMARK_HOME": home.path, "WAYMARK_SERVER": ""])
        #expect(output.status == 0, "stdout: \(output.stdout)\nstderr: \(output.stderr)")
        #expect(output.stdout.contains("Route: 2 tracks, 661 fixes"), "\(output.stdout)")
        #expect(output.stdout.contains("(local recorder: route \(id), recorded 2024-06-01T09:59:00"), "\(output.stdout)")
        #expect(output.stdout.contains("Clock: camera clock is 2 h 03 min 17."), "the QR photo sets the clock: \(output.stdout)")
        #expect(output.stdout.contains("Tagged: 6 of 6"), "\(output.stdout)")
        await try trip.expectTaggedWhereTaken()
    }

    @Test("no route for the nonce here and no server: a clear message that says where it looked and what to do")
    func noLocalRoute() async throws {
        let trip = try await TagTrip(photoCount: 1, qrPhoto: true)
        let home = trip.folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        _ = try await Self.recordRoute(nonce: QRPayload.makeNonce(), in: home)
        let before = try Data(contentsOf: trip.photos.appendingPathComponent("IMG_0002.JPG"))

        let output = try await WaymarkBinary.run(["tag", trip.photos.path], environment: ["WAYMARK_HOME": home.path, "WAYMARK_SERVER": ""])
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderr.contains("No route for the QR nonce \(trip.nonce)"), "\(output.stderr)")
        #expect(output.stderr.contains(home.appendingPathComponent("recorder.sqlite").path), "names the store it looked in: \(output.stderr)")
        for hint in ["--track", "--route", "--server"] { #expect(output.stderr.contains(hint), "\(output.stderr)") }
        #expect(try Data(contentsOf: trip.photos.appendingPathComponent("IMG_0002.JPG")) == before, "nothing is written")

        // A computer that never recorded: no store is created, and the message says so.
        let empty = trip.folder.url.appendingPathComponent("empty-home")
        let none = try await WaymarkBinary.run(["tag", trip.photos.path], environment: ["WAYMARK_HOME": empty.path, "WAYMARK_SERVER": ""])
        #expect(none.status == 2, "\(none.stderr)")
        #expect(none.stderr.contains(empty.appendingPathComponent("recorder.sqlite").path), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: empty.path), "tag must not create a recorder store")
    }
}
