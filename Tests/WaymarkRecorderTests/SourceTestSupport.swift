import Foundation
import WaymarkCore

/// Runs `body`, failing with a `TimeoutError` if it takes longer than `seconds`.
func withTimeout<T: Sendable>(_ seconds: Double, waitingFor what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimeoutError(what: what) }
        return value
    }
}

/// The events of a stream until `stop` says enough (the event that stopped it included) or the stream ends.
func collect(_ stream: AsyncThrowingStream<LocationEvent, Error>, until stop: @escaping @Sendable ([LocationEvent]) -> Bool = { _ in false }) async throws -> [LocationEvent] {
    var events: [LocationEvent] = []
    for try await event in stream {
        events.append(event)
        if stop(events) { break }
    }
    return events
}

extension [LocationEvent] {
    var fixes: [Fix] {
        compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
    }
}

extension Fix {
    /// The same position within 1e-6° and the same time within 1 ms.
    func matches(_ other: Fix) -> Bool {
        abs(latitude - other.latitude) <= 1e-6 && abs(longitude - other.longitude) <= 1e-6
            && abs(time.timeIntervalSince(other.time)) <= 0.001
    }
}

/// The fixes of a track file as `waymark tag` reads them.
func fixes(of url: URL) throws -> [Fix] {
    try TrackFile.read(contentsOf: url).flatMap(\.fixes)
}

/// File descriptors of this process open on `path` (from /proc/self/fd).
func openDescriptors(to path: String) -> Int {
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { entry in
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")
        return target == path || target == resolved
    }.count
}

/// Waits until this process has `path` open (or no longer has, with `count: 0`).
func waitForDescriptors(to path: String, count: Int, timeout: Double = 10) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while count == 0 ? openDescriptors(to: path) > 0 : openDescriptors(to: path) < count {
        guard Date() < deadline else { throw TimeoutError(what: count == 0 ? "\(path) to be closed" : "\(path) to be opened") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
