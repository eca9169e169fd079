import Foundation
import Logging
import WaymarkAPI
import WaymarkClient
import WaymarkCore

/// The upload queue ("Background Task"): sends queued routes to the route service and does
/// the remote deletes of routes deleted locally, retrying failures with ``UploadSchedule``'s
/// backoff, forever — a route is never dropped.
///
/// Each route is sent with the envelope, lookup key, delete-token hash and idempotency key
/// fixed when it was queued, on every attempt: a retry after an answer that never arrived
/// gets the route the server already stored, never a second copy.
public struct RouteUploader: Sendable {
    public var store: any RecordingStore
    public var client: WaymarkClient
    /// The connection now (``NetworkProbe`` by default).
    public var connection: @Sendable () async -> ConnectionKind
    /// Upload only over a wireless network; nil reads the store's settings at every run.
    public var wifiOnly: Bool?
    /// The clock; failures are scheduled from it.
    public var clock: WallClock
    /// Waits a number of seconds (``sync(until:ignoreSchedule:)`` between runs).
    public var sleep: @Sendable (Double) async throws -> Void
    /// A random number in 0..<1, the jitter of the backoff.
    public var random: @Sendable () -> Double
    public var logger: Logger

    public init(store: any RecordingStore, client: WaymarkClient,
                connection: @escaping @Sendable () async -> ConnectionKind = { NetworkProbe().connection() },
                wifiOnly: Bool? = nil,
                clock: WallClock = .system,
                sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64(max(0, $0) * 1e9)) },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                logger: Logger = Logger(label: "waymark.recorder.upload")) {
        self.store = store
        self.client = client
        self.connection = connection
        self.wifiOnly = wifiOnly
        self.clock = clock
        self.sleep = sleep
        self.random = random
        self.logger = logger
    }

    /// The client the queue should be given: one attempt per request, because the queue's own
    /// backoff (``UploadSchedule``) decides when to try again. A client that retried by itself
    /// would hold a pass for minutes on an unreachable server, route after route.
    public static func client(for credentials: ServerCredentials, requestTimeout: Double = 10) -> WaymarkClient {
        WaymarkClient(credentials: credentials, retry: RetryPolicy(maxAttempts: 1), requestTimeout: requestTimeout)
    }

    /// One pass over the queue: every queued route due at `now`, then every remote delete due.
    ///
    /// Nothing is sent when the connection does not suit the settings; a refused consumer key
    /// (401/403) stops the pass with every route left queued.
    public func runOnce(now: Date) async -> UploadReport {
        var report = UploadReport()
        do {
            try await pass(due: now, into: &report)
        } catch let error as RecordingStoreError {
            report.stopped = .storeFailed(error.description)
        } catch {
            report.stopped = Task.isCancelled ? .cancelled : .storeFailed("\(error)")
        }
        do {
            try await describeQueue(into: &report)
        } catch {
            if report.stopped == nil { report.stopped = .storeFailed("\(error)") }
        }
        logger.debug("upload pass done", metadata: [
            "stored": "\(report.stored.count)", "deletes": "\(report.deletesDone)", "queued": "\(report.stillQueued)",
            "stopped": "\(report.stopped.map { "\($0)" } ?? "no")",
        ])
        return report
    }

    /// `waymark routes sync`: runs passes, waiting between them as the backoff says, until
    /// nothing is queued or the next attempt would come after `deadline`.
    ///
    /// - Parameter ignoreSchedule: try every queued route and delete at once in the first pass,
    ///   however far off its next attempt is; later passes follow the backoff.
    public func sync(until deadline: Date, ignoreSchedule: Bool = false) async -> UploadReport {
        var total = UploadReport()
        var first = true
        while true {
            let pass = await runOnce(now: first && ignoreSchedule ? .distantFuture : clock.now())
            first = false
            total.add(pass)
            guard pass.stopped == nil, pass.stillQueued > 0 || pass.pendingDeletes > 0 else { return total }
            let start = clock.now()
            let next = max(pass.nextAttempt ?? start, start)
            guard next <= deadline else { return total }
            do {
                // A short floor: never a busy loop, whatever the clock says.
                try await sleep(max(0.05, next.timeIntervalSince(start)))
            } catch {
                total.stopped = .cancelled
                return total
            }
        }
    }

    // MARK: The pass

    private enum Outcome {
        case done
        case failed(String)
        case refused(String)
    }

    private func pass(due: Date, into report: inout UploadReport) async throws {
        let wifiOnly: Bool
        if let fixed = self.wifiOnly { wifiOnly = fixed } else { wifiOnly = try await store.settings().wifiOnly }
        let kind = await connection()
        if let reason = NetworkPolicy.reasonToWait(wifiOnly: wifiOnly, connection: kind) {
            report.stopped = .waitingForNetwork(reason)
            return
        }
        for (route, upload) in try await store.dueUploads(now: due) {
            guard !Task.isCancelled else { report.stopped = .cancelled; return }
            switch try await send(route, upload, into: &report) {
            case .done:
                break
            case let .failed(error):
                report.lastError = error
            case let .refused(reason):
                report.stopped = .refused(reason)
                return
            }
        }
        for delete in try await store.dueDeletes(now: due) {
            guard !Task.isCancelled else { report.stopped = .cancelled; return }
            switch try await remove(delete) {
            case .done:
                report.deletesDone += 1
            case let .failed(error):
                report.lastError = error
            case let .refused(reason):
                report.stopped = .refused(reason)
                return
            }
        }
    }

    /// Uploads one route. Store errors propagate (the route stays queued as it was).
    private func send(_ route: StoredRoute, _ upload: RouteUpload, into report: inout UploadReport) async throws -> Outcome {
        let request: CreateRouteRequest
        do {
            request = CreateRouteRequest(envelope: try RouteEnvelope.decode(json: upload.envelope), lookup: upload.lookupKey,
                                         deleteTokenHash: upload.deleteTokenHash)
        } catch {
            // Kept, not dropped: the route's fixes are still here to seal it again.
            return try await failed(route, "the stored envelope cannot be read (\(error))")
        }
        let created: RouteCreated
        do {
            created = try await client.createRoute(request, idempotencyKey: upload.idempotencyKey)
        } catch let WaymarkClientError.api(status, body) where status == 401 || status == 403 {
            let reason = WaymarkClientError.api(status: status, body: body).description
            logger.debug("upload refused", metadata: ["route": "\(route.id)", "status": "\(status)"])
            return .refused(reason)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            return try await failed(route, "\(error)")
        }
        // If this write fails, the route stays queued and its next attempt, with the same
        // idempotency key, gets the same server id.
        try await store.markStored(route: route.id, serverRouteID: created.routeID)
        report.stored.append(.init(route: route.id, serverRouteID: created.routeID))
        logger.debug("route uploaded", metadata: ["route": "\(route.id)", "server_route_id": "\(created.routeID)"])
        return .done
    }

    private func failed(_ route: StoredRoute, _ error: String) async throws -> Outcome {
        let next = UploadSchedule.nextAttempt(afterFailures: route.uploadAttempts + 1, now: clock.now(), unit: random())
        try await store.markUploadFailed(route: route.id, error: error, nextAttempt: next)
        logger.debug("upload failed", metadata: ["route": "\(route.id)", "error": "\(error)", "next_attempt": "\(next)"])
        return .failed(error)
    }

    /// Deletes one route from the service. A route the service does not have (404, or no
    /// route under its lookup key) counts as deleted.
    private func remove(_ delete: PendingDelete) async throws -> Outcome {
        do {
            var serverID = delete.serverRouteID
            if serverID == nil {
                serverID = try await client.route(lookup: delete.lookupKey)?.routeID
            }
            if let serverID {
                do {
                    try await client.deleteRoute(id: serverID, deleteToken: delete.deleteToken)
                } catch WaymarkClientError.api(404, _) {
                    // Already gone.
                }
            }
        } catch let WaymarkClientError.api(401, body) {
            return .refused(WaymarkClientError.api(status: 401, body: body).description)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            let next = UploadSchedule.nextAttempt(afterFailures: delete.attempts + 1, now: clock.now(), unit: random())
            try await store.markDeleteFailed(delete.id, nextAttempt: next)
            logger.debug("remote delete failed", metadata: ["delete": "\(delete.id)", "error": "\(error)"])
            return .failed("deleting a route from the service failed: \(error)")
        }
        try await store.markDeleted(delete.id)
        logger.debug("remote delete done", metadata: ["delete": "\(delete.id)"])
        return .done
    }

    /// Fills in what is left: queued routes, pending deletes, the earliest retry, the last error.
    private func describeQueue(into report: inout UploadReport) async throws {
        let queued = try await store.routes().filter { $0.state == .queued }
        let deletes = try await store.dueDeletes(now: .distantFuture)
        report.stillQueued = queued.count
        report.pendingDeletes = deletes.count
        let reference = clock.now()
        report.nextAttempt = (queued.map { $0.nextAttempt ?? reference } + deletes.map { $0.nextAttempt ?? reference }).min()
        if report.lastError == nil {
            report.lastError = queued.filter { $0.lastError != nil }.max { ($0.nextAttempt ?? reference) < ($1.nextAttempt ?? reference) }?.lastError
        }
    }
}
