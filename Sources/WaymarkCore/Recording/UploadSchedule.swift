import Foundation

/// When the upload queue tries a route (or a remote delete) again after a failure: exponential
/// backoff with full jitter, capped, and never giving up — a route is never dropped.
///
/// The ceiling of the first retry is ``firstRetryCeiling`` seconds and doubles with each further
/// failure up to ``maxDelay``; the wait is a uniformly random fraction of the ceiling ("full
/// jitter"), so that many recorders coming back online at once do not retry in step.
public enum UploadSchedule {
    /// The longest wait before the first retry, in seconds.
    public static let firstRetryCeiling: Double = 5
    /// No wait is longer than this, in seconds (15 min).
    public static let maxDelay: Double = 15 * 60

    /// The ceiling of the wait after `failures` consecutive failures, in seconds (0 for none).
    public static func ceiling(afterFailures failures: Int) -> Double {
        guard failures > 0 else { return 0 }
        // 2^8 · 5 s already passes the cap; a larger exponent would only risk overflow.
        return min(maxDelay, firstRetryCeiling * pow(2, Double(min(failures - 1, 16))))
    }

    /// When the next attempt may start after `failures` consecutive failures.
    ///
    /// - Parameters:
    ///   - failures: Failed attempts so far, the one that just failed included (1 after the first).
    ///   - now: The time of the failure.
    ///   - unit: A random number in 0..<1 (injected so tests are deterministic); values outside are clamped.
    public static func nextAttempt(afterFailures failures: Int, now: Date, unit: Double) -> Date {
        let fraction = unit.isFinite ? min(max(unit, 0), 1) : 1
        return now.addingTimeInterval(ceiling(afterFailures: failures) * fraction)
    }
}

/// How the computer reaches the network right now, as far as an upload cares.
public enum ConnectionKind: String, Sendable, Hashable, CaseIterable {
    /// No route to any network: nothing can be uploaded.
    case none
    /// A wireless network (Wi-Fi).
    case wireless
    /// A wired network (Ethernet).
    case wired
    /// Connected, but through something whose kind is not known (a VPN, a mobile modem, a
    /// system where it cannot be told).
    case unknown
}

/// Whether the user's network preference ("Wi-Fi only", SSN-01) lets an upload start now.
public enum NetworkPolicy {
    /// True when an upload may start over `connection`: never without a network; with
    /// `wifiOnly`, only over a wireless network; otherwise over any connection, an unknown one included.
    public static func allowsUpload(wifiOnly: Bool, connection: ConnectionKind) -> Bool {
        switch connection {
        case .none: return false
        case .wireless: return true
        case .wired, .unknown: return !wifiOnly
        }
    }

    /// Why an upload may not start now, for the user, or nil when it may.
    public static func reasonToWait(wifiOnly: Bool, connection: ConnectionKind) -> String? {
        guard !allowsUpload(wifiOnly: wifiOnly, connection: connection) else { return nil }
        if connection == .none { return "no network connection; routes stay queued until there is one" }
        return "uploads are set to Wi-Fi only and this computer is on a \(connection == .wired ? "wired" : "non-wireless") connection; routes stay queued until it is on Wi-Fi (or turn Wi-Fi only off)"
    }
}

/// The in-app notification of routes the route service has stored ("Background Task"): one
/// notification for all of them, grouped while it is shown, instead of one per route.
public struct UploadAnnouncement: Sendable, Hashable {
    /// The local ids of the routes stored since the notification was last dismissed, oldest first.
    public private(set) var routes: [Int64] = []

    public init() {}

    /// The text for `stored` routes: "1 route stored", "3 routes stored", or nil for none.
    public static func text(stored: Int) -> String? {
        guard stored > 0 else { return nil }
        return stored == 1 ? "1 route stored" : "\(stored) routes stored"
    }

    /// Adds newly stored routes to the notification on display (or starts one).
    public mutating func record(stored ids: [Int64]) {
        routes.append(contentsOf: ids.filter { !routes.contains($0) })
    }

    /// What the notification says now, or nil when there is nothing to announce.
    public var text: String? { Self.text(stored: routes.count) }

    /// The route a tap on the notification opens: the one stored last. (The recorder opens the
    /// recording screen instead while a route is being recorded.)
    public var target: Int64? { routes.last }

    /// The notification was shown and dismissed (or tapped): later routes start a new one.
    public mutating func dismiss() { routes.removeAll() }
}
