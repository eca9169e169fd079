import Foundation
import Testing
import WaymarkClient
import WaymarkCore
import WaymarkRecorder
import WaymarkTestSupport

/// A clock that only moves when told (or when the uploader "sleeps").
final class UploadTestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var waits: [Double] = []

    init(_ start: Date) { current = start }

    var now: Date { lock.withLock { current } }
    var sleeps: [Double] { lock.withLock { waits } }

    func advance(_ seconds: Double) {
        lock.withLock {
            waits.append(seconds)
            current = current.addingTimeInterval(seconds)
        }
    }
}

@Suite("The upload queue against a scripted route API", .serialized)
struct RouteUploaderTests {
    let t0 = Date(timeIntervalSince1970: 1_717_236_000)
    let clock: UploadTestClock
    let store: SQLiteRecordingStore
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteRecordingStore(path: folder.url.appendingPathComponent("recorder.sqlite").path)
        clock = UploadTestClock(t0)
    }

    /// A recorded, sealed and queued route (scrypt n = 1024 to keep the test fast).
    func queuedRoute(created offset: Double = 0) async throws -> (id: Int64, upload: RouteUpload) {
        let nonce = QRPayload.makeNonce()
        let id = try await store.startRoute(nonce: nonce, created: t0.addingTimeInterval(offset), qrPeriod: 5)
        let fixes = walk(20)
        try await store.append(fixes, track: 0, route: id, distance: 19, duration: 19)
        let upload = try RouteUpload.seal(route: Route(nonce: nonce, qrPeriod: 5, tracks: try await store.tracks(of: id)),
                                          passphrase: "a long passphrase", kdf: .scrypt(n: 1024))
        try await store.queue(route: id, upload: upload, distance: 19, duration: 19)
        return (id, upload)
    }

    func uploader(_ client: WaymarkClient, connection: ConnectionKind = .wired, wifiOnly: Bool? = false,
                  random: Double = 0.5) -> RouteUploader {
        let clock = clock
        return RouteUploader(store: store, client: client, connection: { connection }, wifiOnly: wifiOnly,
                             clock: WallClock { clock.now }, sleep: { clock.advance($0) }, random: { random })
    }

    @Test("a 503 keeps the route queued with its next attempt within 5 s; the retry stores it under the same key")
    func retryAfter503() async throws {
        let api = try FakeRouteAPI(faults: [503])
        let (id, upload) = try await queuedRoute()
        let queue = uploader(api.client)

        var report = await queue.runOnce(now: t0)
        #expect(report.stored.isEmpty && report.stillQueued == 1 && report.stopped == nil)
        #expect(report.lastError?.contains("503") == true, "\(report.lastError ?? "")")
        var route = try #require(try await store.route(id))
        #expect(route.state == .queued && route.uploadAttempts == 1 && route.lastError?.contains("503") == true)
        #expect(route.nextAttempt == t0.addingTimeInterval(2.5), "half (the jitter) of the first ceiling, 5 s")
        #expect(report.nextAttempt == t0.addingTimeInterval(2.5))

        report = await queue.runOnce(now: t0.addingTimeInterval(2))
        #expect(api.requests.count == 1, "not due yet: nothing sent")

        report = await queue.runOnce(now: t0.addingTimeInterval(2.5))
        #expect(report.stored == [.init(route: id, serverRouteID: "r-1")] && report.stillQueued == 0)
        route = try #require(try await store.route(id))
        #expect(route.state == .stored && route.serverRouteID == "r-1")
        #expect(api.idempotencyKeys == [upload.idempotencyKey, upload.idempotencyKey])
    }

    @Test("an answer lost after the server stored the route: the retry gets the same route, the server holds one")
    func lostAnswer() async throws {
        let api = try FakeRouteAPI(faults: ["commit-drop", "drop"])
        let (id, upload) = try await queuedRoute()
        let queue = uploader(api.client)
        _ = await queue.runOnce(now: t0)
        #expect(api.routes.count == 1, "the server stored it")
        #expect(try await store.route(id)?.state == .queued, "but no answer came back")
        _ = await queue.runOnce(now: .distantFuture)
        #expect(try await store.route(id)?.uploadAttempts == 2)
        let report = await queue.runOnce(now: .distantFuture)
        #expect(report.stored.map(\.serverRouteID) == ["r-1"])
        #expect(api.routes == ["r-1": upload.lookupKey], "exactly one route on the server")
        #expect(api.idempotencyKeys == Array(repeating: upload.idempotencyKey, count: 3))
        // The same content every time (JSON key order may vary), so the server's content check agrees too.
        let bodies = api.requests.compactMap { ($0["body"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary } }
        #expect(bodies.count == 3 && Set(bodies).count == 1)
    }

    @Test("connection refused keeps the route queued with a next attempt and the error")
    func connectionRefused() async throws {
        let port = try await unusedLocalPort()
        let client = RouteUploader.client(for: ServerCredentials(serverURL: try #require(URL(string: "http://127.0.0.1:\(port)")),
                                                                 key: "k", secret: "s"), requestTimeout: 1)
        let (id, _) = try await queuedRoute()
        let report = await uploader(client, random: 0.99).runOnce(now: t0)
        #expect(report.stored.isEmpty && report.stillQueued == 1 && report.stopped == nil)
        let route = try #require(try await store.route(id))
        #expect(route.state == .queued && route.uploadAttempts == 1)
        #expect(route.nextAttempt == t0.addingTimeInterval(4.95))
        #expect(route.lastError?.contains("cannot reach") == true, "\(route.lastError ?? "")")
    }

    @Test("Wi-Fi only on a wired connection sends nothing; on Wi-Fi it uploads")
    func wifiOnly() async throws {
        let api = try FakeRouteAPI()
        let (id, _) = try await queuedRoute()
        try await store.save(RecorderSettings(wifiOnly: true))

        for kind in [ConnectionKind.wired, .unknown, .none] {
            let report = await uploader(api.client, connection: kind, wifiOnly: nil).runOnce(now: t0)
            guard case let .waitingForNetwork(reason)? = report.stopped else {
                Issue.record("\(kind): \(String(describing: report.stopped))")
                continue
            }
            #expect(reason.contains(kind == .none ? "no network" : "Wi-Fi only"))
            #expect(report.stillQueued == 1)
        }
        #expect(api.requests.isEmpty)
        #expect(try await store.route(id)?.uploadAttempts == 0, "waiting for Wi-Fi is not a failure")

        let report = await uploader(api.client, connection: .wireless, wifiOnly: nil).runOnce(now: t0)
        #expect(report.stored.map(\.route) == [id])
    }

    @Test("a refused consumer key stops the run, keeps every route queued, and says what to do")
    func refusedKey() async throws {
        let api = try FakeRouteAPI(faults: [401])
        let a = try await queuedRoute(created: 0), b = try await queuedRoute(created: 1)
        let report = await uploader(api.client).runOnce(now: t0)
        guard case .refused? = report.stopped else { Issue.record("\(String(describing: report.stopped))"); return }
        #expect(report.summary.contains("WAYMARK_API_KEY"), "\(report.summary)")
        #expect(report.stillQueued == 2)
        #expect(api.requests.count == 1, "the second route was not tried with a key the server refuses")
        for id in [a.id, b.id] {
            let route = try #require(try await store.route(id))
            #expect(route.state == .queued && route.uploadAttempts == 0 && route.nextAttempt == nil)
        }
    }

    @Test("successes are grouped: three routes in one run announce \"3 routes stored\"")
    func grouping() async throws {
        let api = try FakeRouteAPI()
        var ids: [Int64] = []
        for offset in [20.0, 0, 10] { ids.append(try await queuedRoute(created: offset).id) }
        let report = await uploader(api.client).runOnce(now: t0)
        #expect(report.announcement == "3 routes stored")
        #expect(report.summary.hasPrefix("3 routes stored"))
        #expect(report.stored.map(\.route) == [ids[1], ids[2], ids[0]], "oldest first")
        #expect(Set(report.stored.map(\.serverRouteID)).count == 3)
        var shown = UploadAnnouncement()
        shown.record(stored: report.stored.map(\.route))
        #expect(shown.text == "3 routes stored" && shown.target == ids[0])
        #expect(await uploader(api.client).runOnce(now: t0).announcement == nil)
    }

    @Test("remote deletes: by server id, by lookup key after a lost answer, and a never-stored route is simply done")
    func deletes() async throws {
        let api = try FakeRouteAPI(faults: [NSNull(), "commit-drop"])
        let stored = try await queuedRoute(created: 0)
        let lost = try await queuedRoute(created: 1)
        let queue = uploader(api.client)
        _ = await queue.runOnce(now: t0)
        #expect(try await store.route(stored.id)?.state == .stored)
        #expect(try await store.route(lost.id)?.state == .queued)
        #expect(api.routes.count == 2)
        let never = try await queuedRoute(created: 2)

        for id in [stored.id, lost.id, never.id] { #expect(try await store.delete(route: id)) }
        let report = await queue.runOnce(now: t0)
        #expect(report.deletesDone == 3 && report.pendingDeletes == 0 && report.stopped == nil)
        #expect(api.routes.isEmpty, "both routes the server had are gone")
        #expect(try await store.dueDeletes(now: .distantFuture).isEmpty)
        let sent = api.requests.dropFirst(2).map { "\($0["method"] ?? "") \($0["path"] ?? "")" }
        #expect(sent == ["DELETE /api/v1/routes/r-1", "GET /api/v1/routes?lookup=\(lost.upload.lookupKey)", "DELETE /api/v1/routes/r-2",
                         "GET /api/v1/routes?lookup=\(never.upload.lookupKey)"])
    }

    @Test("a remote delete that fails stays pending with its next attempt")
    func deleteRetry() async throws {
        let api = try FakeRouteAPI(faults: [NSNull(), 503])
        let route = try await queuedRoute()
        let queue = uploader(api.client)
        _ = await queue.runOnce(now: t0)
        #expect(try await store.delete(route: route.id))
        let report = await queue.runOnce(now: t0)
        #expect(report.deletesDone == 0 && report.pendingDeletes == 1 && report.lastError?.contains("503") == true)
        let pending = try #require(try await store.dueDeletes(now: .distantFuture).first)
        #expect(pending.attempts == 1 && pending.nextAttempt == t0.addingTimeInterval(2.5) && pending.serverRouteID == "r-1")
        #expect(await queue.runOnce(now: pending.nextAttempt ?? t0).deletesDone == 1)
        #expect(api.routes.isEmpty)
    }

    @Test("sync waits as the backoff says between passes, until everything is stored")
    func syncWithBackoff() async throws {
        let api = try FakeRouteAPI(faults: [503, "drop", 502])
        let (id, upload) = try await queuedRoute()
        let report = await uploader(api.client, random: 1).sync(until: t0.addingTimeInterval(3600))
        #expect(report.stored.map(\.route) == [id] && report.stillQueued == 0 && report.stopped == nil)
        #expect(clock.sleeps == [5, 10, 20], "full ceilings with a jitter of 1: 5 s, 10 s, 20 s")
        #expect(api.idempotencyKeys == Array(repeating: upload.idempotencyKey, count: 4))
        #expect(api.routes.count == 1)
    }

    @Test("sync stops when the next attempt would come after the deadline, and reports the last error")
    func syncDeadline() async throws {
        let api = try FakeRouteAPI(faults: [503])
        _ = try await queuedRoute()
        let report = await uploader(api.client, random: 0.9).sync(until: t0.addingTimeInterval(4))
        #expect(report.stored.isEmpty && report.stillQueued == 1)
        #expect(report.nextAttempt == t0.addingTimeInterval(4.5))
        #expect(report.summary.contains("1 route still queued") && report.summary.contains("503"), "\(report.summary)")
        #expect(clock.sleeps.isEmpty)
    }

    @Test("sync --now tries a route whose next attempt is far off at once")
    func syncIgnoringSchedule() async throws {
        let api = try FakeRouteAPI()
        let (id, _) = try await queuedRoute()
        try await store.markUploadFailed(route: id, error: "HTTP 503", nextAttempt: t0.addingTimeInterval(900))
        let waiting = await uploader(api.client).sync(until: t0.addingTimeInterval(60))
        #expect(waiting.stored.isEmpty && api.requests.isEmpty)
        let report = await uploader(api.client).sync(until: t0.addingTimeInterval(60), ignoreSchedule: true)
        #expect(report.stored.map(\.route) == [id])
    }
}
