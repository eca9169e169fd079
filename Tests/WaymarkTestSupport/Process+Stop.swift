#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Stopping a child that Foundation started, without ever calling `waitpid` on it ourselves.
///
/// On Linux, Foundation's own manager thread reaps every `Process` with `waitpid`. If a test
/// reaps it first, Foundation's `waitpid` fails, and the child's number is free again: with
/// `pid_max` at 32768 and a test run starting thousands of processes, it soon belongs to another
/// child. A later `kill` or `waitpid` on the old number then hits that child — in CI a
/// `waymark routes export` was killed that way and Foundation, its status taken from it,
/// reported exit 0. So: only signal a process Foundation still reports as running, and wait by
/// polling `isRunning`, which works on any thread, an async test's included.
extension Process {
    /// Starts the process and waits until it has exited, without holding a thread while it runs
    /// (Foundation calls the termination handler once it has reaped the child).
    ///
    /// At most one such process per core runs at a time (``ProcessSlots``): the tests run in
    /// parallel, and a run in which each started its tools at once had sixteen processes wanting
    /// two cores, and timed out where nothing was wrong.
    public func runToExit() async throws {
        try await ProcessSlots.shared.holding { try await self.startAndAwaitExit() }
    }

    private func startAndAwaitExit() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            terminationHandler = { _ in continuation.resume() }
            do {
                try run()
            } catch {
                terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }

    /// Sends `signal` if it is still running, waits up to `grace` seconds, then SIGKILL and waits again.
    public func stop(_ signal: Int32 = SIGTERM, grace: TimeInterval = 5) {
        guard isRunning else { return }
        kill(processIdentifier, signal)
        if waitForExit(within: grace) { return }
        if isRunning { kill(processIdentifier, SIGKILL) }
        _ = waitForExit(within: 60)
    }

    /// Polls until Foundation has reaped it; false if it still runs after `seconds`.
    @discardableResult
    public func waitForExit(within seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}

/// Turns for the tools the tests run to completion: as many at once as there are cores; the
/// others wait, suspended, in arrival order.
public actor ProcessSlots {
    public static let shared = ProcessSlots(ProcessInfo.processInfo.activeProcessorCount)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) {
        free = max(1, count)
    }

    /// Runs `work` holding a slot.
    public func holding<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer { release() }
        return try await work()
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
