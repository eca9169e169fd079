import Foundation
import Testing
import WaymarkCore
@testable import WaymarkRecorder
import WaymarkTestSupport

@Suite("The recorder's SQLite store")
struct SQLiteRecordingStoreTests {
    let folder: TemporaryFolder
    let path: String
    let t0 = Date(timeIntervalSince1970: 1_717_236_000)

    init() throws {
        folder = try TemporaryFolder()
        path = folder.url.appendingPathComponent("recorder.sqlite").path
    }

    @Test("a route's fixes, tracks, figures and upload come back as saved")
    func roundTrip() async throws {
        let store = try SQLiteRecordingStore(path: path)
        let id = try await store.startRoute(nonce: "n-1", created: t0, qrPeriod: 5)
        let fixes = walk(25)
        try await store.append(Array(fixes[0..<10]), track: 0, route: id, distance: 10, duration: 9)
        try await store.append(Array(fixes[10..<15]), track: 0, route: id, distance: 15, duration: 14)
        try await store.append(Array(fixes[15..<25]), track: 1, route: id, distance: 22.5, duration: 23)

        var route = try #require(try await store.route(id))
        #expect(route.state == .recording && route.nonce == "n-1" && route.created == t0 && route.qrPeriod == 5)
        #expect(route.trackCount == 2 && route.fixCount == 25 && route.distance == 22.5 && route.duration == 23)
        let tracks = try await store.tracks(of: id)
        #expect(tracks.map(\.fixes) == [Array(fixes[0..<15]), Array(fixes[15..<25])])

        let upload = fakeUpload("a")
        try await store.queue(route: id, upload: upload, distance: 23, duration: 24)
        route = try #require(try await store.route(id))
        #expect(route.state == .queued && route.distance == 23 && route.duration == 24 && route.serverRouteID == nil)
        let due = try await store.dueUploads(now: t0)
        #expect(due.count == 1 && due.first?.route == route && due.first?.upload == upload)
        #expect(try await store.route(999) == nil)
        #expect(try await store.tracks(of: 999).isEmpty)
    }

    @Test("routes are listed newest first")
    func newestFirst() async throws {
        let store = try SQLiteRecordingStore(path: path)
        let middle = try await store.startRoute(nonce: "b", created: t0.addingTimeInterval(3600), qrPeriod: 5)
        let oldest = try await store.startRoute(nonce: "a", created: t0, qrPeriod: 5)
        let newest = try await store.startRoute(nonce: "c", created: t0.addingTimeInterval(7200), qrPeriod: 5)
        #expect(try await store.routes().map(\.id) == [newest, middle, oldest])
    }

    @Test("a deleted route's id is never given again, not even after reopening")
    func idsNeverReused() async throws {
        var store = try SQLiteRecordingStore(path: path)
        let first = try await store.startRoute(nonce: "1", created: t0, qrPeriod: 5)
        let second = try await store.startRoute(nonce: "2", created: t0, qrPeriod: 5)
        #expect(try await store.delete(route: second))
        let third = try await store.startRoute(nonce: "3", created: t0, qrPeriod: 5)
        #expect(third > second && second > first)
        #expect(try await store.delete(route: third))
        store = try SQLiteRecordingStore(path: path)
        let fourth = try await store.startRoute(nonce: "4", created: t0, qrPeriod: 5)
        #expect(fourth > third)
    }

    @Test("deleting: a recording route just goes; a queued one leaves a delete by lookup key; a stored one by server id")
    func deleteRules() async throws {
        let store = try SQLiteRecordingStore(path: path)
        let recording = try await store.startRoute(nonce: "rec", created: t0, qrPeriod: 5)
        try await store.append(walk(5), track: 0, route: recording, distance: 4, duration: 4)
        let queued = try await store.queuedRoute("q", created: t0)
        let stored = try await store.queuedRoute("s", created: t0)
        try await store.markStored(route: stored, serverRouteID: "srv-s")

        #expect(try await store.delete(route: recording))
        #expect(try await store.dueDeletes(now: .distantFuture).isEmpty)
        #expect(try await store.tracks(of: recording).isEmpty)

        #expect(try await store.delete(route: queued))
        #expect(try await store.delete(route: stored))
        let deletes = try await store.dueDeletes(now: t0)
        #expect(deletes.map(\.serverRouteID) == [nil, "srv-s"])
        #expect(deletes.map(\.lookupKey) == ["lookup-q", "lookup-s"])
        #expect(deletes.map(\.deleteToken) == ["token-q", "token-s"])
        #expect(try await store.routes().isEmpty)
        #expect(try await store.delete(route: queued) == false)

        // A delete that failed waits for its next attempt, counting attempts.
        let retry = try #require(deletes.first)
        try await store.markDeleteFailed(retry.id, nextAttempt: t0.addingTimeInterval(60))
        #expect(try await store.dueDeletes(now: t0).map(\.id) == [deletes[1].id])
        let later = try await store.dueDeletes(now: t0.addingTimeInterval(60))
        #expect(later.first?.attempts == 1 && later.first?.nextAttempt == t0.addingTimeInterval(60))
        try await store.markDeleted(retry.id)
        try await store.markDeleted(deletes[1].id)
        #expect(try await store.dueDeletes(now: .distantFuture).isEmpty)
    }

    @Test("an upload answered after the route was deleted gives its remote delete the server's id")
    func storedAfterDelete() async throws {
        let store = try SQLiteRecordingStore(path: path)
        let id = try await store.queuedRoute("late", created: t0)
        #expect(try await store.delete(route: id))
        try await store.markStored(route: id, serverRouteID: "srv-late")
        #expect(try await store.dueDeletes(now: t0).map(\.serverRouteID) == ["srv-late"])
        await #expect(throws: RecordingStoreError.noSuchRoute(12345)) { try await store.markStored(route: 12345, serverRouteID: "x") }
    }

    @Test("the upload queue: failures wait for their next attempt and count, a stored route leaves the queue")
    func uploadQueue() async throws {
        let store = try SQLiteRecordingStore(path: path)
        let a = try await store.queuedRoute("a", created: t0)
        let b = try await store.queuedRoute("b", created: t0.addingTimeInterval(10))
        #expect(try await store.dueUploads(now: t0).map(\.route.id) == [a, b], "oldest first")

        try await store.markUploadFailed(route: a, error: "HTTP 503", nextAttempt: t0.addingTimeInterval(4))
        #expect(try await store.dueUploads(now: t0).map(\.route.id) == [b])
        let failed = try #require(try await store.route(a))
        #expect(failed.uploadAttempts == 1 && failed.lastError == "HTTP 503" && failed.nextAttempt == t0.addingTimeInterval(4))
        try await store.markUploadFailed(route: a, error: "connection refused", nextAttempt: t0.addingTimeInterval(9))
        #expect(try await store.route(a)?.uploadAttempts == 2)
        #expect(try await store.dueUploads(now: t0.addingTimeInterval(9)).map(\.route.id) == [a, b])

        try await store.markStored(route: a, serverRouteID: "srv-a")
        let stored = try #require(try await store.route(a))
        #expect(stored.state == .stored && stored.serverRouteID == "srv-a" && stored.lastError == nil && stored.nextAttempt == nil)
        #expect(try await store.dueUploads(now: .distantFuture).map(\.route.id) == [b])
        // A late failure report for a stored route changes nothing.
        try await store.markUploadFailed(route: a, error: "late", nextAttempt: t0)
        #expect(try await store.route(a) == stored)
    }

    @Test("operations on a route in the wrong state are refused, saying why")
    func wrongState() async throws {
        let store = try SQLiteRecordingStore(path: path)
        let id = try await store.queuedRoute("w", created: t0)
        await #expect(throws: RecordingStoreError.wrongState(route: id, state: .queued, operation: "take new fixes")) {
            try await store.append(walk(1), track: 0, route: id, distance: 0, duration: 0)
        }
        await #expect(throws: RecordingStoreError.wrongState(route: id, state: .queued, operation: "be queued for upload")) {
            try await store.queue(route: id, upload: fakeUpload("again"), distance: 0, duration: 0)
        }
        await #expect(throws: RecordingStoreError.noSuchRoute(77)) {
            try await store.append(walk(1), track: 0, route: 77, distance: 0, duration: 0)
        }
        #expect(RecordingStoreError.noSuchRoute(77).description.contains("no route 77"))
        #expect(!RecordingStoreError.noSuchRoute(77).description.contains("waymark"), "the shells name their own commands")
    }

    @Test("settings and the passphrase verifier are saved, replaced and deleted")
    func settingsAndVerifier() async throws {
        let store = try SQLiteRecordingStore(path: path)
        #expect(try await store.settings() == RecorderSettings())
        let settings = RecorderSettings(accuracyThreshold: 25, alertDelay: 12.5, qrPeriod: 1, wifiOnly: true, units: .imperial)
        try await store.save(settings)
        #expect(try await store.settings() == settings)
        var changed = settings
        changed.units = .metric
        try await store.save(changed)
        #expect(try await store.settings() == changed)

        #expect(try await store.passphraseVerifier() == nil)
        let verifier = PassphraseVerifier(n: 131_072, r: 8, p: 1, salt: Data(repeating: 7, count: 16), hash: Data(repeating: 9, count: 32))
        try await store.save(verifier)
        #expect(try await store.passphraseVerifier() == verifier)
        try await store.save(nil as PassphraseVerifier?)
        #expect(try await store.passphraseVerifier() == nil)
    }

    @Test("reopening the file keeps routes, fixes, queues, settings and the verifier")
    func reopen() async throws {
        let verifier = PassphraseVerifier(n: 1024, r: 8, p: 1, salt: Data(repeating: 1, count: 16), hash: Data(repeating: 2, count: 32))
        let settings = RecorderSettings(accuracyThreshold: 50, wifiOnly: true)
        var before: [StoredRoute] = []
        var tracks: [[Track]] = []
        do {
            let store = try SQLiteRecordingStore(path: path)
            let recording = try await store.startRoute(nonce: "open", created: t0.addingTimeInterval(50), qrPeriod: 10)
            try await store.append(walk(7), track: 0, route: recording, distance: 6, duration: 6)
            let queued = try await store.queuedRoute("q", created: t0)
            try await store.markUploadFailed(route: queued, error: "HTTP 503", nextAttempt: t0.addingTimeInterval(3))
            let stored = try await store.queuedRoute("s", created: t0.addingTimeInterval(20))
            try await store.markStored(route: stored, serverRouteID: "srv")
            let gone = try await store.queuedRoute("gone", created: t0.addingTimeInterval(30))
            _ = try await store.delete(route: gone)
            try await store.save(settings)
            try await store.save(verifier)
            before = try await store.routes()
            for route in before { tracks.append(try await store.tracks(of: route.id)) }
        }
        let store = try SQLiteRecordingStore(path: path)
        #expect(try await store.routes() == before)
        #expect(before.count == 3)
        for (route, saved) in zip(before, tracks) { #expect(try await store.tracks(of: route.id) == saved) }
        #expect(try await store.settings() == settings)
        #expect(try await store.passphraseVerifier() == verifier)
        #expect(try await store.dueDeletes(now: t0).map(\.lookupKey) == ["lookup-gone"])
        #expect(try await store.dueUploads(now: t0.addingTimeInterval(3)).first?.upload == fakeUpload("q"))
    }

    @Test("the file is in WAL mode with a full sync at every commit")
    func durability() async throws {
        let store = try SQLiteRecordingStore(path: path)
        let (journal, synchronous) = try await store.writer.write { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(journal == "wal")
        #expect(synchronous == 2, "FULL is 2")
    }

    @Test("a path that cannot hold a store gives an error naming the path, the reason and what to do")
    func cannotOpen() throws {
        let missingFolder = folder.url.appendingPathComponent("no/such/folder/recorder.sqlite").path
        let aFolder = folder.url.path
        let garbage = folder.url.appendingPathComponent("garbage.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: garbage)
        let fileAsFolder = garbage.appendingPathComponent("recorder.sqlite").path
        for (target, reason) in [(missingFolder, "cannot open"), (aFolder, "cannot open"), (garbage.path, "not a SQLite database"),
                                 (fileAsFolder, "cannot open")] {
            do {
                _ = try SQLiteRecordingStore(path: target)
                Issue.record("opening \(target) should fail")
            } catch let error as RecordingStoreError {
                guard case let .cannotOpen(path, _) = error else { Issue.record("\(error)"); continue }
                #expect(path == target)
                #expect(error.description.contains(target))
                #expect(error.description.contains(reason), "\(error)")
                #expect(error.description.contains("WAYMARK_HOME"))
            }
        }
        // The garbage file is left as it was.
        #expect(try Data(contentsOf: garbage) == Data(repeating: 0x41, count: 8192))
    }

    @Test("two store instances on one file (the recorder and `waymark routes sync`) work side by side")
    func twoInstances() async throws {
        let recorder = try SQLiteRecordingStore(path: path)
        let sync = try SQLiteRecordingStore(path: path)
        let id = try await recorder.startRoute(nonce: "live", created: t0, qrPeriod: 5)
        let queued = try await recorder.queuedRoute("q", created: t0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 0..<200 { try await recorder.append(walk(1, from: i), track: 0, route: id, distance: Double(i), duration: Double(i)) }
            }
            group.addTask {
                for i in 0..<100 {
                    try await sync.markUploadFailed(route: queued, error: "try \(i)", nextAttempt: Date())
                    _ = try await sync.routes()
                }
            }
            try await group.waitForAll()
        }
        #expect(try await sync.route(id)?.fixCount == 200)
        #expect(try await recorder.route(queued)?.uploadAttempts == 100)
        #expect(try await sync.tracks(of: id).first?.fixes == walk(200))
    }

    @Test("an in-memory store works like the file")
    func inMemory() async throws {
        let store = try SQLiteRecordingStore.inMemory()
        let id = try await store.queuedRoute("m", created: t0)
        #expect(try await store.routes().map(\.id) == [id])
        #expect(try await store.route(id)?.fixCount == 3)
    }
}
