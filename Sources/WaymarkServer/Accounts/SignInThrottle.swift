import Foundation

/// Counts failed sign-ins per username and per client address; ten within 15 minutes close
/// that door until the oldest of them is 15 minutes old (DESIGN §3.5).
///
/// Kept in memory: a restart forgets, and several server processes count apart (each allows
/// ten). A successful sign-in clears its username's count, not its address's.
actor SignInThrottle {
    /// Failures allowed within ``window``.
    let limit: Int
    let window: TimeInterval
    private var failures: [String: [Date]] = [:]
    /// Keys kept at most; beyond it, the stalest are dropped (a flood of made-up usernames
    /// must not grow memory without bound).
    private let maxKeys = 100_000

    init(limit: Int = 10, window: TimeInterval = 15 * 60) {
        self.limit = limit
        self.window = window
    }

    /// Seconds until another attempt is allowed for this username or address, or `nil` when one is allowed now.
    func retryAfter(username: String, address: String?, now: Date) -> Int? {
        let waits = keys(username: username, address: address).compactMap { key -> TimeInterval? in
            let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
            guard recent.count >= limit, let oldest = recent.min() else { return nil }
            return window - now.timeIntervalSince(oldest)
        }
        guard let wait = waits.max() else { return nil }
        return max(1, Int(wait.rounded(.up)))
    }

    func recordFailure(username: String, address: String?, now: Date) {
        for key in keys(username: username, address: address) {
            var recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
            recent.append(now)
            failures[key] = Array(recent.suffix(limit))
        }
        if failures.count > maxKeys {
            let stale = failures.filter { ($0.value.last.map { now.timeIntervalSince($0) } ?? .infinity) >= window }.map(\.key)
            for key in stale { failures[key] = nil }
            while failures.count > maxKeys, let key = failures.keys.first { failures[key] = nil }
        }
    }

    func recordSuccess(username: String) {
        failures["user:" + username] = nil
    }

    private func keys(username: String, address: String?) -> [String] {
        ["user:" + username] + (address.map { ["address:" + $0] } ?? [])
    }
}
