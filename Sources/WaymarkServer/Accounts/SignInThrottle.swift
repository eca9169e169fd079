import Foundation

/// Paces password guesses (DESIGN §3.5), deciding before a password is hashed.
///
/// - One attempt at a time per username: a second one while the first is being checked is
///   refused at once, so a burst of concurrent guesses costs one hash, not one each (#34: 200
///   at once were all checked).
/// - An attempt counts as a failure from the moment it is admitted, and a right password takes
///   its username's failures back; so the count holds whatever runs at the same time.
/// - After ``limit`` failures of a username within ``window``, each further attempt must wait a
///   growing delay after the last failure (1 s, 2 s, 4 s … at most ``maxDelay``): guessing slows
///   down, while the owner who comes afterwards waits seconds, not a quarter of an hour.
/// - A username's failures never hold back another username: the right password of another
///   account from the same address gets in.
/// - Per client address, at most ``maxInFlightPerAddress`` attempts are checked at once, and an
///   address that failed ``addressLimit`` times within ``window`` (trying many accounts) is paced
///   the same way, for every username it tries.
/// - Account creation: at most ``registrationLimit`` a ``registrationWindow`` per address.
///
/// Kept in memory: a restart forgets, and several server processes count apart.
actor SignInThrottle {
    /// Failures of one username allowed within ``window`` before the delays begin.
    let limit: Int
    /// Failures of one address, across usernames, allowed within ``window`` before it is paced.
    let addressLimit: Int
    let window: TimeInterval
    let maxDelay: TimeInterval
    let maxInFlightPerAddress: Int
    let registrationLimit: Int
    let registrationWindow: TimeInterval

    private var failures: [String: [Date]] = [:]
    private var inFlight: [String: Int] = [:]
    private var registrations: [String: [Date]] = [:]
    /// Keys kept at most; beyond it, the stalest are dropped (a flood of made-up usernames
    /// must not grow memory without bound).
    private let maxKeys = 100_000

    init(limit: Int = 10, addressLimit: Int = 30, window: TimeInterval = 15 * 60, maxDelay: TimeInterval = 15 * 60,
         maxInFlightPerAddress: Int = 2, registrationLimit: Int = 10, registrationWindow: TimeInterval = 3600) {
        self.limit = limit
        self.addressLimit = addressLimit
        self.window = window
        self.maxDelay = maxDelay
        self.maxInFlightPerAddress = maxInFlightPerAddress
        self.registrationLimit = registrationLimit
        self.registrationWindow = registrationWindow
    }

    /// An admitted attempt; hand it back to ``finish(_:succeeded:)`` once the password was checked.
    struct Ticket: Sendable {
        fileprivate let user: String
        fileprivate let address: String?
        fileprivate let at: Date
    }

    /// What ``admit(username:address:now:)`` decided.
    enum Admission: Sendable, Equatable {
        /// Check the password, then call ``SignInThrottle/finish(_:succeeded:)``.
        case admitted(Ticket)
        /// Refused; another attempt is allowed in this many seconds.
        case retryAfter(Int)

        static func == (lhs: Admission, rhs: Admission) -> Bool {
            switch (lhs, rhs) {
            case let (.retryAfter(a), .retryAfter(b)): return a == b
            case (.admitted, .admitted): return true
            default: return false
            }
        }
    }

    /// Admits a sign-in attempt before its password is hashed, counting it as a failure until
    /// ``finish(_:succeeded:)`` says otherwise, or refuses it with the seconds to wait.
    func admit(username: String, address: String?, now: Date) -> Admission {
        let user = "user:" + username
        let addressKey = address.map { "address:" + $0 }
        var waits: [TimeInterval] = []
        if inFlight[user, default: 0] > 0 { waits.append(1) }
        if let addressKey, inFlight[addressKey, default: 0] >= maxInFlightPerAddress { waits.append(1) }
        if let wait = delay(user, limit: limit, now: now) { waits.append(wait) }
        if let addressKey, let wait = delay(addressKey, limit: addressLimit, now: now) { waits.append(wait) }
        if let wait = waits.max() { return .retryAfter(max(1, Int(wait.rounded(.up)))) }

        for key in [user] + (addressKey.map { [$0] } ?? []) {
            inFlight[key, default: 0] += 1
            var recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
            recent.append(now)
            failures[key] = Array(recent.suffix(max(limit, addressLimit) + 32))
        }
        trim(now: now)
        return .admitted(Ticket(user: user, address: addressKey, at: now))
    }

    /// Ends an admitted attempt: a right password takes back its username's failures (and this
    /// attempt's count against the address); a wrong one stays counted.
    func finish(_ ticket: Ticket, succeeded: Bool) {
        for key in [ticket.user] + (ticket.address.map { [$0] } ?? []) {
            inFlight[key, default: 1] -= 1
            if inFlight[key] ?? 0 <= 0 { inFlight[key] = nil }
        }
        guard succeeded else { return }
        failures[ticket.user] = nil
        if let address = ticket.address, var recent = failures[address], let index = recent.lastIndex(of: ticket.at) {
            recent.remove(at: index)
            failures[address] = recent
        }
    }

    /// Admits an account creation from `address`, or refuses it with the seconds to wait. Every
    /// admitted one counts, whatever its outcome (each may cost a password hash).
    func admitRegistration(address: String?, now: Date) -> Int? {
        guard let address else { return nil }
        var recent = (registrations[address] ?? []).filter { now.timeIntervalSince($0) < registrationWindow }
        if recent.count >= registrationLimit, let oldest = recent.first {
            return max(1, Int((registrationWindow - now.timeIntervalSince(oldest)).rounded(.up)))
        }
        recent.append(now)
        registrations[address] = recent
        if registrations.count > maxKeys {
            registrations = registrations.filter { ($0.value.last.map { now.timeIntervalSince($0) } ?? .infinity) < registrationWindow }
        }
        return nil
    }

    /// How long `key` must still wait, or `nil`: after `limit` failures within the window, the
    /// `n`-th beyond it waits 2ⁿ⁻¹ s (at most ``maxDelay``) after the last failure.
    private func delay(_ key: String, limit: Int, now: Date) -> TimeInterval? {
        let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
        guard recent.count >= limit, let last = recent.last else { return nil }
        let beyond = recent.count - limit
        let delay = min(maxDelay, pow(2, Double(min(beyond, 30))))
        let wait = delay - now.timeIntervalSince(last)
        return wait > 0 ? wait : nil
    }

    private func trim(now: Date) {
        guard failures.count > maxKeys else { return }
        let stale = failures.filter { ($0.value.last.map { now.timeIntervalSince($0) } ?? .infinity) >= window && inFlight[$0.key] == nil }.map(\.key)
        for key in stale { failures[key] = nil }
        while failures.count > maxKeys, let key = failures.keys.first(where: { inFlight[$0] == nil }) { failures[key] = nil }
    }
}
