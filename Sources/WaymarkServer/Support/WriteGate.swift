import Vapor

/// Lets one write transaction at a time into an SQLite database within this process; the
/// others wait here, suspended, in arrival order.
///
/// SQLite has one writer at a time. Without this, a second connection that wants to write
/// busy-waits inside SQLite on one of the few threads of the blocking pool (as many as there
/// are cores), sleeping in growing steps; two such waiters can hold every thread while the
/// connection that holds the lock needs one to commit, and everything stalls until the busy
/// timeout. Waiting here costs no thread, and the next writer starts as soon as the previous
/// one has committed. Another process writing to the same file (`waymark keys` next to
/// `waymark serve`) is still waited for by SQLite's busy timeout. PostgreSQL needs no gate.
actor WriteGate {
    private var writing = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `work` once every writer that came before has finished.
    func serialized<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if writing {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            writing = true
        }
        defer { handOver() }
        return try await work()
    }

    private func handOver() {
        if waiting.isEmpty {
            writing = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

extension Application {
    private struct WriteGateKey: StorageKey {
        typealias Value = WriteGate
    }

    /// The gate of the SQLite database (see ``WriteGate``); `nil` on PostgreSQL.
    var writeGate: WriteGate? {
        get { storage[WriteGateKey.self] }
        set { storage[WriteGateKey.self] = newValue }
    }
}
