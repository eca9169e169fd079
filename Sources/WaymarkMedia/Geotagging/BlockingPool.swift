import Dispatch
import Foundation

/// Runs blocking work (file I/O, exiv2, libjpeg-turbo, zxing) on Dispatch threads, never on the
/// cooperative pool, with a fixed number of workers pulling the next item from a shared counter.
enum BlockingPool {
    static func map<T: Sendable>(count: Int, width: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
        guard count > 0 else { return [] }
        let box = ResultBox<T>(count: count)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let group = DispatchGroup()
            for _ in 0..<max(1, min(width, count)) {
                DispatchQueue.global(qos: .userInitiated).async(group: group) {
                    while let index = box.nextIndex() { box.set(index, body(index)) }
                }
            }
            group.notify(queue: .global()) { continuation.resume() }
        }
        return box.results()
    }
}

/// Results written by index from several threads; the lock guards the counter and the slots.
private final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var slots: [T?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func nextIndex() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
    }

    func set(_ index: Int, _ value: T) {
        lock.lock(); defer { lock.unlock() }
        slots[index] = value
    }

    func results() -> [T] {
        lock.lock(); defer { lock.unlock() }
        // Every slot is set before map returns; compactMap states that without a force unwrap.
        return slots.compactMap { $0 }
    }
}

/// Counts finished items across threads and reports each step to a progress callback.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private let total: Int
    private let report: @Sendable (Int, Int) -> Void

    init(total: Int, report: @escaping @Sendable (Int, Int) -> Void) {
        self.total = total
        self.report = report
    }

    func step() {
        lock.lock()
        done += 1
        let now = done
        lock.unlock()
        report(now, total)
    }
}
