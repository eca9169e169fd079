import Foundation
import WaymarkCore

/// Runs one recording for a shell: forwards the photographer's commands to the session, ends it
/// on a stop, a confirmed quit, a time limit or the end of the source, keeps the fixes saved,
/// raises the poor-accuracy alert, and finally seals and queues the route.
///
/// The shell only draws the ``RecordingUpdate``s that ``run(_:)`` hands it and forwards keys or
/// buttons with ``send(_:)`` (from any thread: a key reader, a signal handler). It words every
/// outcome itself.
///
/// ```swift
/// let controller = RecordingController(session: session, timeLimit: .seconds(60))
/// let end = await controller.run { update in screen.draw(update) }
/// let outcome = try await controller.finish(after: end, seal: seal)
/// ```
public final class RecordingController<C: Clock<Duration>>: Sendable {
    /// The recording: route id, nonce and source for the shell's title.
    public let session: RecordingSession

    private let clock: C
    private let timeLimit: Duration?
    private let tick: Duration
    private let alertShown: Duration
    private let inbox = LockedValue<[RecorderCommand]>([])

    /// A controller for `session`.
    ///
    /// - Parameters:
    ///   - timeLimit: Ends the recording with ``RecordingEnd/timeUp`` this long after ``run(_:)`` starts.
    ///   - clock: Measures the time limit and the alert, and paces the ticks (tests pass one they move).
    ///   - tick: How often commands are taken, fixes saved and an update is handed to the shell.
    ///   - alertShown: How long the poor-accuracy notice stays after its alert sounds.
    public init(session: RecordingSession, timeLimit: Duration? = nil, clock: C,
                tick: Duration = .milliseconds(100), alertShown: Duration = .seconds(5)) {
        self.session = session
        self.clock = clock
        self.timeLimit = timeLimit
        self.tick = tick
        self.alertShown = alertShown
    }

    /// Queues a command; the next tick carries it out. Safe from any thread or task.
    public func send(_ command: RecorderCommand) {
        inbox.withLock { $0.append(command) }
    }

    /// Runs the recording until it ends, handing `show` an update every tick.
    ///
    /// A cancelled task ends it as ``RecordingEnd/stopped``: what was recorded is kept.
    public func run(_ show: (RecordingUpdate) async -> Void) async -> RecordingEnd {
        let started = clock.now
        var confirmingQuit = false
        var alertUntil = started
        while true {
            for command in inbox.withLock({ commands in defer { commands = [] }; return commands }) {
                // While quit waits for its answer, yes quits and stop still stops (a signal sends
                // it); any other key declines and is dropped.
                if confirmingQuit {
                    if command == .yes { return .quit }
                    if command == .stop { return .stopped }
                    confirmingQuit = false
                    continue
                }
                switch command {
                case .pause: await session.pause()
                case .resume: await session.resume()
                case .stop: return .stopped
                case .units: await session.toggleUnits()
                case .quit: confirmingQuit = true
                case .yes, .no: break
                }
            }
            if let timeLimit, started.duration(to: clock.now) >= timeLimit { return .timeUp }
            switch await session.sourceEnd {
            case .finished?: return .sourceOver
            case let .failed(error)?: return .sourceFailed(error)
            case nil: break
            }
            await session.flushIfDue()
            let soundsAlert = await session.alertDue()
            if soundsAlert { alertUntil = clock.now.advanced(by: alertShown) }
            let notice: RecordingNotice?
            if confirmingQuit {
                notice = .confirmingQuit
            } else if clock.now < alertUntil {
                notice = .poorAccuracy
            } else if let problem = await session.saveProblem {
                notice = .cannotSave(problem)
            } else {
                notice = nil
            }
            await show(RecordingUpdate(snapshot: await session.snapshot(), notice: notice, soundsAlert: soundsAlert))
            do {
                try await clock.sleep(for: tick)
            } catch {
                return .stopped
            }
        }
    }

    /// Stops the session and keeps the route: sealed and queued when it has fixes, removed when
    /// it has none (SRR-17, SRR-18).
    ///
    /// - Parameters:
    ///   - end: What ``run(_:)`` returned, handed back in the outcome.
    ///   - seal: Seals the route with the photographer's passphrase.
    /// - Throws: ``RecordingSessionError/cannotSave(_:)`` when the fixes cannot be saved, a
    ///   sealing error, or the store's error.
    public func finish(after end: RecordingEnd, seal: (Route) throws -> RouteUpload) async throws -> RecordingOutcome {
        let route = await session.stop()
        guard !route.tracks.isEmpty else {
            try await session.discard()
            return .nothingRecorded(end: end, routeID: session.routeID)
        }
        try await session.queue(seal(route))
        return .queued(RecordedRoute(end: end, routeID: session.routeID, route: route, snapshot: await session.snapshot()))
    }
}

extension RecordingController where C == ContinuousClock {
    /// A controller on the computer's monotonic clock.
    public convenience init(session: RecordingSession, timeLimit: Duration? = nil) {
        self.init(session: session, timeLimit: timeLimit, clock: ContinuousClock())
    }
}
