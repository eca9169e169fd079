import Foundation

/// Instants as the platform's API writes and reads them: RFC 3339 (ISO 8601) text.
///
/// Written in UTC with `Z` and exactly three fraction digits, `2026-06-01T10:00:00.123Z`, the
/// form of JavaScript's `Date.prototype.toISOString()`, so the server and the web app write one
/// instant as the same text. Read with its zone (`Z`, `±hh:mm` or `±hhmm`), with or without a fraction.
public enum InternetTime {
    /// `date` in UTC with milliseconds (rounded), e.g. `2026-06-01T10:00:00.123Z`.
    public static func text(_ date: Date) -> String {
        TrackTime.format(date)
    }

    /// The instant of an ISO 8601 time with its zone: `Z`, `±hh:mm` or `±hhmm` (any offset under
    /// 24 hours), `T` and `Z` in either case, with or without fractions of a second; nil for
    /// anything else. A date or time that does not exist (February 30, 24:00, a leap second) is
    /// refused, not rolled over.
    public static func date(_ text: String) -> Date? {
        read(text)?.date
    }

    /// The instant of an ISO 8601 time with its zone, as ``date(_:)`` reads it, and the zone's
    /// offset from UTC in seconds as written (0 for `Z`): a photo's default title is its clock time there.
    public static func read(_ text: String) -> (date: Date, zoneOffset: Int)? {
        let pattern = /([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,9})?(?:[Zz]|([+-])([0-9]{2}):?([0-9]{2}))/
        guard let match = text.wholeMatch(of: pattern),
              let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
              let hour = Int(match.4), let minute = Int(match.5), let second = Int(match.6),
              // The proleptic Gregorian calendar, as ISO 8601, JavaScript and Python count (Foundation's
              // formatters switch to the Julian calendar before 1582).
              let clock = CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var offset = 0
        if let sign = match.8, let hours = match.9.flatMap({ Int($0) }), let minutes = match.10.flatMap({ Int($0) }) {
            guard hours < 24, minutes < 60 else { return nil }
            offset = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        return (Date(timeIntervalSince1970: Double(clock - offset) + fraction), offset)
    }
}
