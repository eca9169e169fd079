import Foundation

/// When and how long to wait before retrying a request: exponential backoff with full jitter,
/// capped, and the server's `Retry-After` honoured when it asks for longer.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// The backoff ceiling of the first retry, in seconds; it doubles each retry.
    public var baseDelay: Double
    /// No wait is longer than this, in seconds (a longer Retry-After gives up instead).
    public var maxDelay: Double
    /// No wait is shorter, in seconds. None is needed for the signature: every attempt is
    /// signed with a fresh nonce (DESIGN §3.3, version 2), so a quick retry is no replay.
    public var minDelay: Double = 0

    public init(maxAttempts: Int = 6, baseDelay: Double = 0.25, maxDelay: Double = 30) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The wait before retry number `retry` (1 for the first retry), or nil when no retry is left
    /// or the server asks for a wait longer than `maxDelay`.
    /// - Parameters:
    ///   - retryAfter: the server's Retry-After, in seconds, when it sent one.
    ///   - unit: a random number in 0..<1 (injected so tests are deterministic).
    public func delay(beforeRetry retry: Int, retryAfter: Double?, unit: Double) -> Double? {
        guard retry >= 1, retry < maxAttempts else { return nil }
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(retry - 1)))
        let jittered = max(minDelay, ceiling * min(max(unit, 0), 1))
        guard let retryAfter else { return jittered }
        guard retryAfter <= maxDelay else { return nil }
        return max(retryAfter, jittered)
    }

    /// Whether a response status is worth retrying: the server was busy or failed, not the request.
    public static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 425 || status == 429 || status == 502 || status == 503 || status == 504 || status == 500
    }

    /// Seconds from a Retry-After header: delta-seconds or an HTTP date.
    public static func parseRetryAfter(_ value: String, now: Date) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
