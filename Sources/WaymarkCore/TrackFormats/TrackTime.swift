import Foundation

/// Fast ISO 8601 parsing and formatting for track files, without formatters or locales.
///
/// Track files hold one timestamp per point, so this avoids `ISO8601DateFormatter`
/// (slow, and strict about the number of fractional digits).
enum TrackTime {
    /// Parses `YYYY-MM-DDThh:mm:ss[.f…][Z|±hh:mm|±hhmm|±hh]`.
    ///
    /// Any number of fractional digits is accepted. A time without a zone is taken as UTC,
    /// which is what GPX and KML prescribe. A space may stand for the `T`.
    static func parse<S: StringProtocol>(_ text: S) -> Date? {
        var string = String(text)
        return string.withUTF8 { parse(bytes: TrackNumbers.trimmedASCII($0)) }
    }

    static func parse<C: RandomAccessCollection>(bytes: C) -> Date? where C.Element == UInt8, C.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        func number(_ count: Int) -> Int? {
            guard i + count <= end else { return nil }
            var value = 0
            for k in i..<(i + count) {
                let c = bytes[k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            i += count
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < end, bytes[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2) else { return nil }
        guard i < end, bytes[i] == 0x54 || bytes[i] == 0x74 || bytes[i] == 0x20 else { return nil }
        i += 1
        guard let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2) else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60 else { return nil }
        var fraction = 0.0
        if i < end, bytes[i] == 0x2E || bytes[i] == 0x2C {
            i += 1
            var scale = 0.1
            var digits = 0
            while i < end, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                fraction += Double(bytes[i] - 0x30) * scale
                scale /= 10
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetSeconds = 0
        if i < end {
            let c = bytes[i]
            if c == 0x5A || c == 0x7A {
                i += 1
            } else if c == 0x2B || c == 0x2D {
                i += 1
                guard let oh = number(2) else { return nil }
                _ = expect(0x3A)
                let om = i < end ? (number(2) ?? -1) : 0
                guard om >= 0, oh <= 18, om <= 59 else { return nil }
                offsetSeconds = (oh * 3600 + om * 60) * (c == 0x2D ? -1 : 1)
            } else {
                return nil
            }
        }
        guard i == end else { return nil }
        let days = CivilTime.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Formats as UTC with milliseconds: `2024-05-01T12:34:56.789Z`.
    static func format(_ date: Date) -> String {
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded())
        let (secondsTotal, ms) = millis.floorDivided(by: 1000)
        let (days, secondOfDay) = secondsTotal.floorDivided(by: 86_400)
        let (year, month, day) = civilFromDays(days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
            + "." + pad(ms, 3) + "Z"
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension Int {
    /// Quotient rounded towards minus infinity, and the non-negative remainder.
    func floorDivided(by divisor: Int) -> (quotient: Int, remainder: Int) {
        let q = self / divisor, r = self % divisor
        return r < 0 ? (q - 1, r + divisor) : (q, r)
    }
}
