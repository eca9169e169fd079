import Foundation
import Logging
import NIOPosix
import WaymarkCore

/// The timeline of a replay, shared by the NMEA log replay and the track replay.
///
/// The timeline starts at the first ``events(loading:)`` call: the first fix is stamped with the
/// wall time of that moment, and each later fix is emitted `(fix.time − first.time) / speed`
/// after it and stamped with that wall time, so a QR code shown during a demo and the replayed
/// route agree. The timeline runs on while nobody listens (a paused recording): a later call
/// skips the fixes whose moment has passed, as a real walk would have gone on during the pause,
/// and no fix is ever emitted twice.
final class ReplaySchedule: Sendable {
    private struct State: Sendable {
        /// The clock reading (since `origin`) and wall time of the first `events` call.
        var start: (elapsed: Duration, date: Date)?
        /// The fixes in time order, once loaded.
        var fixes: [Fix]?
        /// The index of the first fix not yet emitted.
        var next = 0
    }

    let speed: Double
    private let elapsed: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Duration) async throws -> Void
    private let state = LockedValue(State())
    private let logger: Logger

    /// A schedule replaying at `speed` times real time, paced by `clock`.
    init<C: Clock<Duration>>(speed: Double, clock: C, logger: Logger) {
        self.speed = speed
        self.logger = logger
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleepUntil = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    /// The replayed fixes from now on; `load` runs once, at the first call, and may throw.
    func events(loading load: @escaping @Sendable () async throws -> [Fix]) -> AsyncThrowingStream<LocationEvent, Error> {
        let now = elapsed()
        let start = state.withLock { state in
            if state.start == nil { state.start = (now, Date()) }
            return state.start ?? (now, Date())
        }
        let speed = speed
        return AsyncThrowingStream { continuation in
            guard speed.isFinite, speed > 0 else {
                continuation.finish(throwing: ReplayError.invalidSpeed(speed))
                return
            }
            let task = Task {
                do {
                    try await self.run(from: now, start: start, load: load, into: continuation)
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// How far into the replay a fix lies, on the replay's (sped-up) timeline.
    func offset(of fix: Fix, first: Fix) -> Duration {
        .seconds(fix.time.timeIntervalSince(first.time) / speed)
    }

    private func run(
        from now: Duration, start: (elapsed: Duration, date: Date), load: @Sendable () async throws -> [Fix],
        into continuation: AsyncThrowingStream<LocationEvent, Error>.Continuation
    ) async throws {
        let fixes = try await loadOnce(load)
        guard let first = fixes.first else { return }
        let passed = now - start.elapsed
        var index = state.withLock { $0.next }
        // Skip what was due while nobody listened.
        while index < fixes.count && offset(of: fixes[index], first: first) < passed { index += 1 }
        if index > 0 { logger.debug("Replay resumes", metadata: ["skipped": "\(index)", "of": "\(fixes.count)"]) }
        while index < fixes.count {
            let offset = offset(of: fixes[index], first: first)
            try await sleepUntil(start.elapsed + offset)
            try Task.checkCancellation()
            // Claim the fix, so that a stream cancelled a moment ago cannot emit it too.
            let claimed = state.withLock { state in
                guard state.next <= index else { return false }
                state.next = index + 1
                return true
            }
            if claimed {
                var fix = fixes[index]
                fix.time = start.date.addingTimeInterval(offset.inSeconds)
                continuation.yield(.fix(fix))
            }
            index += 1
        }
    }

    private func loadOnce(_ load: @Sendable () async throws -> [Fix]) async throws -> [Fix] {
        if let fixes = state.withLock({ $0.fixes }) { return fixes }
        let loaded = try await load()
        let sorted = loaded.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        state.withLock { $0.fixes = sorted }
        logger.debug("Replay loaded", metadata: ["fixes": "\(sorted.count)"])
        return sorted
    }

    /// Runs blocking file work off the cooperative pool, on NIO's shared thread pool.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }
}
