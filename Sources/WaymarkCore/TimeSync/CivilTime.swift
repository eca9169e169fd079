import Foundation

/// Calendar arithmetic on the proleptic Gregorian calendar, without Foundation's calendars,
/// so that a naive wall time maps to seconds the same way on every platform.
enum CivilTime {
    /// Days since 1970-01-01 of a Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whether the parts name a real date and time of day (seconds 0–59).
    static func isValid(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Bool {
        guard (1...9999).contains(year), (1...12).contains(month), (0...23).contains(hour),
              (0...59).contains(minute), (0...59).contains(second) else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[month - 1]).contains(day)
    }

    /// Seconds since 1970 of a wall time read as UTC, or `nil` if the parts are not a valid time.
    static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int? {
        guard isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else { return nil }
        return daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// The integer value of a run of ASCII digits, or `nil` if it has anything else or is empty.
    static func digits<S: StringProtocol>(_ text: S) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// Parses `"+HH:MM"`, `"-HHMM"`, `"+HH"` into seconds east of UTC.
    static func zoneOffset<S: StringProtocol>(_ text: S) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let body = text.dropFirst().replacingOccurrences(of: ":", with: "")
        let hours: Int?, minutes: Int?
        switch body.count {
        case 2: hours = digits(body); minutes = 0
        case 4: hours = digits(body.prefix(2)); minutes = digits(body.suffix(2))
        default: return nil
        }
        guard let h = hours, let m = minutes, h <= 18, m <= 59,
              text.dropFirst().filter({ $0 == ":" }).count <= 1 else { return nil }
        return (sign == "-" ? -1 : 1) * (h * 3_600 + m * 60)
    }
}
