import Foundation
import Testing
import WaymarkCore
import WaymarkRecorder

/// A source the test scripts: fixes, its end, or its failure.
final class ScriptedSource: LocationSource, @unchecked Sendable {
    let description = "a scripted source"
    let isLive = false
    private let lock = NSLock()
    private var continuation: AsyncThrowingStream<LocationEvent, Error>.Continuation?

    func events() -> AsyncThrowingStream<LocationEvent, Error> {
        AsyncThrowingStream { continuation in lock.withLock { self.continuation = continuation } }
    }

    func send(_ event: LocationEvent) { _ = lock.withLock { continuation }?.yield(event) }
    func finish() { lock.withLock { continuation }?.finish() }
    func fail(_ error: any Error) { lock.withLock { continuation }?.finish(throwing: error) }
}

/// The receiver's failure the scripted source reports.
struct ReceiverUnplugged: Error, Equatable {}

/// The recorder's clock read from the test's manual clock, so the session and the controller
/// see the same time and neither moves unless the test moves it.
struct ManualRecorderClock: RecorderClock {
    let clock: ManualClock
    func now() -> RecorderInstant {
        let seconds = clock.now.offset.inSeconds
        return RecorderInstant(wall: Date(timeIntervalSince1970: 1_790_000_000 + seconds), uptime: 1000 + seconds)
    }
}

/// Every update the controller handed the shell.
final class UpdateLog: @unchecked Sendable {
    private let lock = NSLock()
    private var updates: [RecordingUpdate] = []
    func append(_ update: RecordingUpdate) { lock.withLock { updates.append(update) } }
    var all: [RecordingUpdate] { lock.withLock { updates } }
    var last: RecordingUpdate? { all.last }
}

/// A controller on a manual clock, running in a task of its own, stepped one tick at a time.
struct ControllerRig {
    let clock = ManualClock()
    let source = ScriptedSource()
    let store: SQLiteRecordingStore
    let session: RecordingSession
    let controller: RecordingController<ManualClock>
    let log = UpdateLog()
    let running: Task<RecordingEnd, Never>

    init(settings: RecorderSettings = RecorderSettings(), timeLimit: Duration? = nil, alertShown: Duration = .seconds(5)) async throws {
        store = try SQLiteRecordingStore.inMemory()
        session = try await RecordingSession(source: source, store: store, settings: settings, clock: ManualRecorderClock(clock: clock))
        controller = RecordingController(session: session, timeLimit: timeLimit, clock: clock, alertShown: alertShown)
        let (controller, log) = (controller, log)
        running = Task { await controller.run { log.append($0) } }
        try await clock.waitForSleepers()
    }

    /// Moves time on by `count` ticks of 100 ms, each one run to its end.
    func tick(_ count: Int = 1) async throws {
        for _ in 0..<count {
            clock.advance(by: .milliseconds(100))
            try await clock.waitForSleepers()
        }
    }

    /// Moves time on by one tick and waits for the recording to end.
    func end() async throws -> RecordingEnd {
        clock.advance(by: .milliseconds(100))
        return try await ended()
    }

    /// The end of the recording; after 10 s (real time) the run is cancelled and the test fails.
    func ended() async throws -> RecordingEnd {
        let running = running
        let watchdog = Task {
            try await Task.sleep(for: .seconds(10))
            running.cancel()
        }
        let end = await running.value
        watchdog.cancel()
        if (try? await watchdog.value) != nil { throw TimeoutError(what: "the recording to end") }
        return end
    }

    /// Sends a fix stamped now and waits until the session has it.
    func fix(_ latitude: Double, accuracy: Double = 5) async throws {
        let before = await session.snapshot().fixCount
        source.send(.fix(Fix(latitude: latitude, longitude: 13.7, altitude: 200, accuracy: accuracy, time: ManualRecorderClock(clock: clock).now().wall)))
        for _ in 0..<1000 where await session.snapshot().fixCount == before { try await Task.sleep(for: .milliseconds(2)) }
        #expect(await session.snapshot().fixCount == before + 1, "the session took the fix")
    }

    func savedFixes() async throws -> Int {
        try await store.tracks(of: session.routeID).flatMap(\.fixes).count
    }

    static func seal(_ route: Route) throws -> RouteUpload {
        try RouteUpload.seal(route: route, passphrase: "correct horse", kdf: .scrypt(n: 1024))
    }
}

private extension RecordingNotice {
    var name: String {
        switch self {
        case .confirmingQuit: "confirmingQuit"
        case .poorAccuracy: "poorAccuracy"
        case .cannotSave: "cannotSave"
        }
    }
}

@Suite("The recording controller: commands, time limit, source end, alert, flushing")
struct RecordingControllerTests {
    @Test("stop ends the recording as stopped, and finishing seals and queues the route with every fix (SRR-17, SRR-18)")
    func stopQueues() async throws {
        let rig = try await ControllerRig()
        try await rig.fix(45.0)
        try await rig.tick(10)
        try await rig.fix(45.001)
        rig.controller.send(.stop)
        guard case .stopped = try await rig.end() else { Issue.record("a stop ends the recording as stopped"); return }

        let outcome = try await rig.controller.finish(after: .stopped, seal: ControllerRig.seal)
        guard case let .queued(recorded) = outcome else { Issue.record("a route with fixes is queued, not \(outcome)"); return }
        #expect(recorded.routeID == rig.session.routeID)
        #expect(recorded.fixCount == 2)
        let stored = try #require(try await rig.store.route(rig.session.routeID))
        #expect(stored.state == .queued)
        #expect(try await rig.savedFixes() == 2, "every fix is saved with the queued route")
        #expect(try await rig.store.dueUploads(now: .distantFuture).map(\.route.id) == [rig.session.routeID])
    }

    @Test("a recording without a single accepted fix is removed, not queued")
    func nothingRecorded() async throws {
        let rig = try await ControllerRig()
        try await rig.tick(3)
        rig.controller.send(.stop)
        let end = try await rig.end()
        let outcome = try await rig.controller.finish(after: end, seal: ControllerRig.seal)
        guard case let .nothingRecorded(.stopped, routeID) = outcome else { Issue.record("nothing to keep: \(outcome)"); return }
        #expect(routeID == rig.session.routeID)
        #expect(try await rig.store.route(routeID) == nil, "the empty route is gone")
    }

    @Test("the time limit ends the recording as timeUp once it has passed, not before")
    func timeLimit() async throws {
        let rig = try await ControllerRig(timeLimit: .seconds(1))
        try await rig.tick(9)
        #expect(rig.clock.sleeperCount == 1, "still recording after 0.9 s of a 1 s limit")
        guard case .timeUp = try await rig.end() else { Issue.record("the limit ends it as timeUp"); return }
        #expect(rig.log.all.count == 10, "one update per tick until the limit")
    }

    @Test("the end of the source ends the recording as sourceOver")
    func sourceOver() async throws {
        let rig = try await ControllerRig()
        try await rig.fix(45.0)
        rig.source.finish()
        for _ in 0..<500 where await rig.session.sourceEnd == nil { try await Task.sleep(for: .milliseconds(2)) }
        guard case .sourceOver = try await rig.end() else { Issue.record("the replay's end ends it as sourceOver"); return }
    }

    @Test("a failing source ends the recording with its error, and what was recorded is kept")
    func sourceFailed() async throws {
        let rig = try await ControllerRig()
        try await rig.fix(45.0)
        try await rig.tick()
        try await rig.fix(45.00001)
        rig.source.fail(ReceiverUnplugged())
        for _ in 0..<500 where await rig.session.sourceEnd == nil { try await Task.sleep(for: .milliseconds(2)) }
        let end = try await rig.end()
        guard case let .sourceFailed(error) = end else { Issue.record("a failure ends it as sourceFailed, not \(end)"); return }
        #expect(error as? ReceiverUnplugged == ReceiverUnplugged(), "the source's own error, for the shell to word")

        guard case let .queued(recorded) = try await rig.controller.finish(after: end, seal: ControllerRig.seal) else {
            Issue.record("what was recorded before the failure is queued")
            return
        }
        guard case .sourceFailed = recorded.end else { Issue.record("the outcome still says the source failed"); return }
        #expect(recorded.fixCount == 2)
        #expect(try await rig.store.route(rig.session.routeID)?.state == .queued)
    }

    @Test("the poor-accuracy alert sounds once per alert delay and its notice shows for a while after (SRR-09)")
    func alertOncePerPeriod() async throws {
        // No acceptable fix at all: the alert is due 2 s after the start, then every 2 s.
        let rig = try await ControllerRig(settings: RecorderSettings(alertDelay: 2), alertShown: .milliseconds(500))
        try await rig.tick(44)
        let updates = rig.log.all
        #expect(updates.count == 45)
        let sounded = updates.indices.filter { updates[$0].soundsAlert }
        #expect(sounded == [20, 40], "once at 2.0 s and once at 4.0 s, never in between")
        let shown = updates.indices.filter { updates[$0].notice?.name == "poorAccuracy" }
        #expect(shown == Array(20...24) + Array(40...44), "the notice stays 0.5 s after each alert, then goes")
        #expect(updates[30].notice == nil)
        rig.controller.send(.stop)
        _ = try await rig.end()
    }

    @Test("quit asks first: no (or any other key) goes on recording, yes quits")
    func quitNeedsConfirmation() async throws {
        let rig = try await ControllerRig()
        rig.controller.send(.quit)
        try await rig.tick()
        #expect(rig.log.last?.notice?.name == "confirmingQuit")
        #expect(rig.clock.sleeperCount == 1, "asking is not quitting")
        rig.controller.send(.no)
        try await rig.tick()
        #expect(rig.log.last?.notice == nil, "declined: the question is gone")
        #expect(rig.clock.sleeperCount == 1, "and it goes on recording")

        rig.controller.send(.quit)
        rig.controller.send(.units)
        try await rig.tick()
        #expect(rig.log.last?.notice == nil, "another key declines too")
        #expect(rig.log.last?.snapshot.distanceText == "0 m", "and is not carried out")
        rig.controller.send(.yes)
        try await rig.tick()
        #expect(rig.clock.sleeperCount == 1, "yes without a question does nothing")

        rig.controller.send(.quit)
        try await rig.tick()
        rig.controller.send(.yes)
        guard case .quit = try await rig.end() else { Issue.record("a confirmed quit ends it as quit"); return }
    }

    @Test("stop (a key or a signal) stops even while quit waits for its answer")
    func stopWhileAsking() async throws {
        let rig = try await ControllerRig()
        rig.controller.send(.quit)
        try await rig.tick()
        rig.controller.send(.stop)
        guard case .stopped = try await rig.end() else { Issue.record("stop is never swallowed by the quit question"); return }
    }

    @Test("pause, resume and units reach the session")
    func commandsReachTheSession() async throws {
        let rig = try await ControllerRig()
        try await rig.fix(45.0)
        rig.controller.send(.pause)
        try await rig.tick()
        #expect(rig.log.last?.snapshot.phase == .paused)
        rig.controller.send(.resume)
        rig.controller.send(.units)
        try await rig.tick()
        #expect(rig.log.last?.snapshot.phase != .paused)
        #expect(rig.log.last?.snapshot.distanceText == "0 yd", "imperial after the units command")
        rig.controller.send(.stop)
        _ = try await rig.end()
    }

    @Test("fixes are saved on the tick within the flush interval even when the source goes quiet")
    func flushesOnTheTick() async throws {
        let rig = try await ControllerRig()
        try await rig.fix(45.0)
        try await rig.tick()
        try await rig.fix(45.00001)
        try await rig.tick(4)
        #expect(try await rig.savedFixes() == 0, "not saved before the flush interval (1 s)")
        try await rig.tick(6)
        #expect(try await rig.savedFixes() == 2, "saved by the tick once a second has passed, without a further fix")
        rig.controller.send(.stop)
        _ = try await rig.end()
    }

    @Test("a cancelled run ends as stopped, keeping what was recorded")
    func cancelled() async throws {
        let rig = try await ControllerRig()
        try await rig.fix(45.0)
        rig.running.cancel()
        guard case .stopped = try await rig.ended() else { Issue.record("a cancelled run ends as stopped"); return }
    }
}

@Suite("Before recording: crash recovery and the kept passphrase")
struct RecorderStartupTests {
    @Test("recovery queues an unfinished route with fixes and removes an empty one, saying which")
    func recoverUnfinished() async throws {
        let store = try SQLiteRecordingStore.inMemory()
        let kept = try await store.startRoute(nonce: "AAAAAAAAAAAA", created: Date(), qrPeriod: 5)
        try await store.append(walk(4), track: 0, route: kept, distance: 3, duration: 3)
        let empty = try await store.startRoute(nonce: "BBBBBBBBBBBB", created: Date(), qrPeriod: 5)
        let done = try await store.queuedRoute("done", created: Date())

        let recovered = try await store.recoverUnfinished(seal: ControllerRig.seal)
        #expect(recovered.map(\.route.id) == [kept, empty])
        guard recovered.count == 2, case .queued = recovered[0], case .removed = recovered[1] else {
            Issue.record("the route with fixes is queued, the empty one removed: \(recovered)")
            return
        }
        #expect(recovered[0].route.fixCount == 4)
        #expect(try await store.route(kept)?.state == .queued)
        #expect(try await store.tracks(of: kept).flatMap(\.fixes).count == 4, "no saved fix is lost")
        #expect(try await store.route(empty) == nil)
        #expect(try await store.route(done)?.state == .queued, "a route already queued is left alone")
        #expect(try await store.recoverUnfinished(seal: ControllerRig.seal).isEmpty, "nothing is left to recover")
    }

    @Test("adoption: saved, matched, mismatch, empty, and a confirmation that differs (SCO-07…10)")
    func adoptionOutcomes() async throws {
        let store = try SQLiteRecordingStore.inMemory()
        #expect(try await store.adopt(passphrase: "   ", cost: 1024) == .empty)
        #expect(try await store.adopt(passphrase: "correct horse", confirmation: "correct hose", cost: 1024) == .confirmationDiffers)
        #expect(try await store.keepsPassphrase() == false, "nothing is kept when the two differ")
        #expect(try await store.adopt(passphrase: "correct horse", confirmation: "correct horse", cost: 1024) == .saved)
        #expect(try await store.keepsPassphrase())
        #expect(try await store.adopt(passphrase: "correct horse", cost: 1024) == .matched)
        #expect(try await store.adopt(passphrase: "correct horse ", confirmation: "correct horse ", cost: 1024) == .mismatch,
                "a confirmation does not replace the kept passphrase")
        #expect(try await store.adopt(passphrase: "correct horse", cost: 1024) == .matched, "a mismatch changes nothing")
        #expect(!PassphraseAdoption.mismatch.isAccepted && PassphraseAdoption.saved.isAccepted)
    }
}
