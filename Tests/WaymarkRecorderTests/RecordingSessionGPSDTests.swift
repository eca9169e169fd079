import Foundation
import Testing
import WaymarkCore
import WaymarkRecorder
import WaymarkTestSupport

/// The whole recorder on a real receiver: gpsd fed by gpsfake, the engine, the SQLite store.
@Suite("Recording from a real gpsd fed by gpsfake")
struct RecordingSessionGPSDTests {
    /// Waits (polling the session, at most `seconds`) until `condition` holds for its snapshot.
    private func waitFor(_ what: String, seconds: Double = 30, in session: RecordingSession,
                         _ condition: @escaping @Sendable (RecorderSnapshot) -> Bool) async throws {
        try await withTimeout(seconds, waitingFor: what) {
            while !(condition(await session.snapshot())) { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    @Test("record, pause, resume, stop: two tracks of the log's own fixes, none from the pause, all saved")
    func recordPauseResumeStop() async throws {
        let log = Fixtures.url("nmea/ublox-neo-m9n-nmea.log")
        let expected = try fixes(of: log)
        let gpsd = try GPSFake(log: log, cycle: 0.01)
        defer { gpsd.stop() }
        let folder = try TemporaryFolder()
        let store = try SQLiteRecordingStore(path: folder.url.appendingPathComponent("recorder.sqlite").path)
        let session = try await RecordingSession(source: GPSDSource(port: gpsd.port), store: store, settings: RecorderSettings())

        try await waitFor("fixes before the pause", in: session) { $0.fixCount >= 5 }
        await session.pause()
        let paused = await session.snapshot()
        #expect(paused.phase == .paused)
        try await Task.sleep(for: .milliseconds(700))  // gpsfake plays on while nobody listens
        #expect(await session.snapshot().fixCount == paused.fixCount, "nothing is recorded while paused (SRR-15)")
        #expect(await session.snapshot().elapsed == paused.elapsed, "the clock stands still while paused (SRR-15)")

        #expect(await session.sourceEnd == nil, "a pause is not the end of the source")
        await session.resume()
        try await waitFor("fixes after resuming", in: session) { $0.fixCount >= paused.fixCount + 5 }
        let route = await session.stop()
        try await session.queue(RouteUpload.seal(route: route, passphrase: "correct horse", kdf: .scrypt(n: 1024)))

        #expect(route.tracks.count == 2, "pause and resume split the route into two tracks (SRR-05): \(gpsd.output)")
        let all = route.tracks.flatMap(\.fixes)
        for fix in all {
            #expect(expected.contains { $0.matches(fix) }, "\(fix) is not one of the log's fixes")
        }
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.time < $1.time }, "fixes in order, none twice")
        let (first, second) = (try #require(route.tracks.first), try #require(route.tracks.last))
        let skipped = expected.filter { $0.time > (first.end ?? .distantFuture) && $0.time < (second.start ?? .distantPast) }
        #expect(!skipped.isEmpty, "the log's fixes from the pause are not in the route")

        // What the store keeps is exactly what was recorded, queued for upload.
        let saved = try await store.tracks(of: session.routeID)
        #expect(saved.map(\.fixes) == route.tracks.map(\.fixes))
        let stored = try #require(try await store.route(session.routeID))
        #expect(stored.state == .queued)
        #expect(stored.trackCount == 2 && stored.fixCount == all.count)
        #expect(abs(stored.distance - route.tracks.reduce(0) { total, track in
            total + zip(track.fixes, track.fixes.dropFirst()).reduce(0) { $0 + Geodesy.distance(($1.0.latitude, $1.0.longitude), ($1.1.latitude, $1.1.longitude)) }
        }) < 0.01, "the distance is summed within tracks, never across the pause")
    }
}
