import Foundation

/// One recording, running: the engine fed by a location source, its fixes saved as they come.
///
/// Shells (the terminal recorder, later the web and iOS ones) create a session and hand it to
/// WaymarkRecorder's `RecordingController`, which forwards the photographer's commands to it,
/// ends it and queues its route; the shell draws the controller's updates. The session
/// saves accepted fixes to the store at most `flushInterval` seconds after they arrive, so a
/// crash or power cut loses no more than that.
public actor RecordingSession {
    /// How the source's stream ended, when it did.
    public enum SourceEnd: Sendable {
        /// The source is over (a replay or a file reached its end).
        case finished
        /// The source failed for good; the error says what to check (shells word it).
        case failed(any Error)
    }

    /// The local id of the route being recorded.
    public nonisolated let routeID: Int64
    public nonisolated let nonce: String
    public nonisolated let sourceDescription: String

    private let source: any LocationSource
    private let store: any RecordingStore
    private let clock: any RecorderClock
    private let flushInterval: Double
    private var engine: RecorderEngine
    private var feed: Task<Void, Never>?
    private var pending: [(track: Int, fix: Fix)] = []
    private var lastFlush: Double
    private var flushError: (any Error)?
    private var end: SourceEnd?

    /// Starts a new route in the store and starts listening to the source (SRR-02).
    public init(source: any LocationSource, store: any RecordingStore, settings: RecorderSettings,
                clock: any RecorderClock = SystemRecorderClock(), nonce: String = QRPayload.makeNonce(),
                flushInterval: Double = 1) async throws {
        let start = clock.now()
        self.source = source
        self.store = store
        self.clock = clock
        self.flushInterval = flushInterval
        self.nonce = nonce
        self.sourceDescription = source.description
        self.engine = RecorderEngine(settings: settings, nonce: nonce, sourceIsLive: source.isLive, start: start)
        self.lastFlush = start.uptime
        self.routeID = try await store.startRoute(nonce: nonce, created: start.wall, qrPeriod: settings.qrPeriod)
        listen()
    }

    /// What the screen shows now.
    public func snapshot() -> RecorderSnapshot { engine.snapshot(at: clock.now()) }

    /// Whether the poor-accuracy alert should sound now (SRR-09); true once per alert.
    public func alertDue() -> Bool { engine.alertDue(at: clock.now()) }

    /// How the source ended, if it did (a replay that is over stops the recording).
    public var sourceEnd: SourceEnd? { end }

    /// Why the last save of fixes failed, if it did; the fixes stay in memory and are retried.
    public var saveProblem: (any Error)? { flushError }

    /// Pauses (SRR-15): the receiver is released and the elapsed time stops.
    public func pause() async {
        guard engine.phase == .recording || engine.phase == .waitingForFix else { return }
        feed?.cancel()
        feed = nil
        engine.pause(at: clock.now())
        await flush()
    }

    /// Resumes (SRR-16): the receiver is asked again; the next acceptable fix starts a new track (SRR-05).
    public func resume() {
        guard engine.phase == .paused else { return }
        engine.resume(at: clock.now())
        listen()
    }

    /// Switches between metric and imperial units (SRR-10).
    public func toggleUnits() { engine.toggleUnits() }

    /// Stops (SRR-17): releases the receiver, saves the last fixes and returns the route,
    /// still in state ``RouteState/recording`` until the caller seals and queues it with ``queue(_:)``.
    public func stop() async -> Route {
        feed?.cancel()
        feed = nil
        let route = engine.stop(at: clock.now())
        await flush()
        return route
    }

    /// Removes the stopped route from the store: nothing worth keeping was recorded.
    public func discard() async throws {
        feed?.cancel()
        feed = nil
        pending = []
        flushError = nil
        _ = try await store.delete(route: routeID)
    }

    /// Queues the stopped route for upload with what its upload sends (SRR-17, SRR-18).
    public func queue(_ upload: RouteUpload) async throws {
        await flush()
        if let flushError { throw RecordingSessionError.cannotSave(String(describing: flushError)) }
        try await store.queue(route: routeID, upload: upload, distance: engine.distance, duration: engine.elapsed(at: clock.now()))
    }

    /// Saves fixes that arrived more than `flushInterval` ago; shells call this on their tick too,
    /// so fixes are saved even when the source goes quiet.
    public func flushIfDue() async {
        if clock.now().uptime - lastFlush >= flushInterval { await flush() }
    }

    private func listen() {
        let events = source.events()
        feed = Task { [weak self] in
            do {
                for try await event in events {
                    guard let self else { return }
                    await self.handle(event)
                }
                // A stream ends quietly when its iteration is cancelled: that is a pause, not the source's end.
                if !Task.isCancelled { await self?.sourceEnded(.finished) }
            } catch is CancellationError {
                return
            } catch {
                await self?.sourceEnded(Task.isCancelled ? nil : .failed(error))
            }
        }
    }

    private func handle(_ event: LocationEvent) async {
        guard !Task.isCancelled else { return }
        let now = clock.now()
        if case let .accepted(track, _) = engine.handle(event, at: now), case let .fix(fix) = event {
            pending.append((track, fix))
        }
        if now.uptime - lastFlush >= flushInterval { await flush() }
    }

    private func sourceEnded(_ how: SourceEnd?) {
        guard let how, end == nil else { return }
        end = how
    }

    /// Appends the pending fixes, one transaction per track they belong to.
    private func flush() async {
        lastFlush = clock.now().uptime
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        let duration = engine.elapsed(at: clock.now())
        var saved = 0
        do {
            while saved < batch.count {
                let track = batch[saved].track
                let run = batch[saved...].prefix { $0.track == track }
                try await store.append(run.map(\.fix), track: track, route: routeID, distance: engine.distance, duration: duration)
                saved = run.endIndex
            }
            flushError = nil
        } catch {
            // Keep what was not saved, in order; the next flush tries again.
            pending = Array(batch[saved...]) + pending
            flushError = error
        }
    }
}

/// Why a recording could not be kept.
public enum RecordingSessionError: Error, CustomStringConvertible, Sendable {
    case cannotSave(String)

    public var description: String {
        switch self {
        case let .cannotSave(reason):
            return "The recorded fixes could not be saved: \(reason). Free some disk space or check the store's folder, then stop again."
        }
    }
}
