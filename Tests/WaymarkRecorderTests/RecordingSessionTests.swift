import Foundation
import Testing
import WaymarkCore
import WaymarkRecorder

/// A source the test feeds by hand; each `events()` call (a start or a resume) opens a new stream.
final class HandFedSource: LocationSource, @unchecked Sendable {
    let description = "a hand-fed source"
    let isLive = false
    private let lock = NSLock()
    private var continuation: AsyncThrowingStream<LocationEvent, Error>.Continuation?
    private(set) var opened = 0
    private(set) var released = 0

    func events() -> AsyncThrowingStream<LocationEvent, Error> {
        AsyncThrowingStream { continuation in
            lock.withLock {
                self.continuation = continuation
                opened += 1
            }
            continuation.onTermination = { [weak self] _ in self?.lock.withLock { self?.released += 1 } }
        }
    }

    func send(_ event: LocationEvent) { _ = lock.withLock { continuation }?.yield(event) }
    func finish() { lock.withLock { continuation }?.finish() }
}

/// A recorder clock the test moves.
final class HandClock: RecorderClock, @unchecked Sendable {
    private let lock = NSLock()
    private var instant = RecorderInstant(wall: Date(timeIntervalSince1970: 1_790_000_000), uptime: 1000)
    func now() -> RecorderInstant { lock.withLock { instant } }
    func advance(_ seconds: Double) {
        lock.withLock { instant = RecorderInstant(wall: instant.wall.addingTimeInterval(seconds), uptime: instant.uptime + seconds) }
    }
}

@Suite("The recording session: engine, source and store together")
struct RecordingSessionTests {
    private func fix(_ clock: HandClock, _ latitude: Double) -> LocationEvent {
        .fix(Fix(latitude: latitude, longitude: 13.7, altitude: 200, accuracy: 5, time: clock.now().wall))
    }

    private func waitFor(_ session: RecordingSession, fixes: Int) async throws {
        for _ in 0..<500 where await session.snapshot().fixCount < fixes { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await session.snapshot().fixCount == fixes)
    }

    @Test("pausing releases the source and is not its end; resuming opens it again and starts a new track (SRR-05, SRR-15, SRR-16)")
    func pauseIsNotTheEnd() async throws {
        let (source, clock, store) = (HandFedSource(), HandClock(), try SQLiteRecordingStore.inMemory())
        let session = try await RecordingSession(source: source, store: store, settings: RecorderSettings(), clock: clock)
        try await Task.sleep(for: .milliseconds(50))
        source.send(fix(clock, 45.0))
        clock.advance(1)
        source.send(fix(clock, 45.001))
        try await waitFor(session, fixes: 2)

        await session.pause()
        try await Task.sleep(for: .milliseconds(50))
        #expect(source.released == 1, "the receiver is released while paused")
        #expect(await session.sourceEnd == nil, "a pause is not the end of the source")
        #expect(try await store.tracks(of: session.routeID).flatMap(\.fixes).count == 2, "pausing saves what was recorded")

        clock.advance(60)
        await session.resume()
        try await Task.sleep(for: .milliseconds(50))
        #expect(source.opened == 2)
        source.send(fix(clock, 45.01))
        try await waitFor(session, fixes: 3)

        source.finish()
        for _ in 0..<500 where await session.sourceEnd == nil { try await Task.sleep(for: .milliseconds(5)) }
        guard case .finished? = await session.sourceEnd else {
            Issue.record("the end of the source is reported")
            return
        }
        let route = await session.stop()
        #expect(route.tracks.map(\.fixes.count) == [2, 1])
        #expect(try await store.tracks(of: session.routeID).map(\.fixes.count) == [2, 1], "every fix is saved by the time it stops")
        #expect(abs(await session.snapshot().elapsed - 1) < 0.001, "the 60 s of the pause are not recorded time")
    }
}

@Suite("The kept passphrase (SCO-09…12)")
struct PassphraseAdoptionTests {
    @Test("SCO-09: the first passphrase is kept; SCO-10: later ones must match; SCO-12: reset forgets it")
    func adoptMatchReset() async throws {
        let store = try SQLiteRecordingStore.inMemory()
        #expect(try await store.adopt(passphrase: "correct horse", cost: 1024) == .saved)
        #expect(try await store.adopt(passphrase: "correct horse", cost: 1024) == .matched)
        #expect(try await store.adopt(passphrase: "correct horse ", cost: 1024) == .mismatch)
        #expect(try await store.adopt(passphrase: "   ", cost: 1024) == .empty)
        try await store.save(nil as PassphraseVerifier?)
        #expect(try await store.adopt(passphrase: "battery staple", cost: 1024) == .saved, "after a reset the next passphrase is kept")
    }

    @Test("a route a recorder left unfinished is sealed and queued; one without a fix is removed")
    func finishUnfinished() async throws {
        let store = try SQLiteRecordingStore.inMemory()
        let kept = try await store.startRoute(nonce: "AAAAAAAAAAAA", created: Date(), qrPeriod: 5)
        try await store.append([Fix(latitude: 45, longitude: 13, accuracy: 5, time: Date())], track: 0, route: kept, distance: 0, duration: 1)
        let empty = try await store.startRoute(nonce: "BBBBBBBBBBBB", created: Date(), qrPeriod: 5)
        let unfinished = try await store.unfinishedRoutes()
        #expect(Set(unfinished.map(\.id)) == [kept, empty])
        for route in unfinished {
            _ = try await store.finish(route) { try RouteUpload.seal(route: $0, passphrase: "p", kdf: .scrypt(n: 1024)) }
        }
        #expect(try await store.route(kept)?.state == .queued)
        #expect(try await store.route(empty) == nil)
        #expect(try await store.unfinishedRoutes().isEmpty)
    }
}
