import Foundation

extension ClockSync {
    /// Parses a clock offset for `--offset`: `±[D.]HH:MM:SS(.fff)`, seconds to add to camera time.
    ///
    /// Examples: `+1:00:00` (camera 1 h behind), `-0:02:30`, `+1.02:00:00` (1 day 2 h),
    /// `00:00:12.5` (no sign means +).
    public static func parseOffset(_ text: String) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var body = Substring(trimmed)
        var sign = 1.0
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw ClockSyncError.invalidOffset(text) }

        var days = 0
        var hourText = parts[0]
        if let dot = hourText.firstIndex(of: ".") {
            // Five digits of days (273 years) is more than any camera clock is off, and keeps the sum in range.
            guard hourText[..<dot].count <= 5, let d = CivilTime.digits(hourText[..<dot]) else { throw ClockSyncError.invalidOffset(text) }
            days = d
            hourText = hourText[hourText.index(after: dot)...]
            guard hourText.count == 2 else { throw ClockSyncError.invalidOffset(text) }
        }
        let secondParts = parts[2].split(separator: ".", omittingEmptySubsequences: false)
        guard hourText.count <= 3, let hours = CivilTime.digits(hourText),
              parts[1].count == 2, let minutes = CivilTime.digits(parts[1]), minutes < 60,
              (1...2).contains(secondParts.count), secondParts[0].count == 2,
              let wholeSeconds = CivilTime.digits(secondParts[0]), wholeSeconds < 60,
              days == 0 || hours < 24
        else { throw ClockSyncError.invalidOffset(text) }
        var fraction = 0.0
        if secondParts.count == 2 {
            let fractionText = secondParts[1]
            guard fractionText.count <= 9, let value = CivilTime.digits(fractionText) else { throw ClockSyncError.invalidOffset(text) }
            fraction = Double(value) / pow(10, Double(fractionText.count))
        }
        let total = Double(days * 86_400 + hours * 3_600 + minutes * 60 + wholeSeconds) + fraction
        return sign * total
    }

    /// Parses `--sync PHOTO=TIME`: the photo's name, `=`, and the time the clock in it showed
    /// (as ``parseSyncTime(_:)`` reads it). The last `=` separates them, since a time has none.
    ///
    /// - Throws: ``ClockSyncError/invalidSyncArgument(_:reason:)`` when a part is missing, or
    ///   ``ClockSyncError/invalidSyncTime(_:reason:)`` when the time cannot be read.
    public static func parseSyncArgument(_ text: String) throws -> (photo: String, time: Date) {
        guard let equals = text.lastIndex(of: "=") else {
            throw ClockSyncError.invalidSyncArgument(text, reason: "there is no \"=\" between the photo and the time")
        }
        let photo = text[..<equals].trimmingCharacters(in: .whitespaces)
        let time = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !photo.isEmpty else { throw ClockSyncError.invalidSyncArgument(text, reason: "there is no photo before the \"=\"") }
        guard !time.isEmpty else { throw ClockSyncError.invalidSyncArgument(text, reason: "there is no time after the \"=\"") }
        return (photo, try parseSyncTime(time))
    }

    /// Parses the true time for `--sync PHOTO=TIME`: ISO 8601 with a zone, e.g.
    /// `2019-08-01T12:34:56+02:00`, `2019-08-01T10:34:56.25Z`.
    ///
    /// A time without a zone is refused: the whole point is to know which instant it was.
    public static func parseSyncTime(_ text: String) throws -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let chars = Array(trimmed)
        func fail(_ reason: String) -> ClockSyncError { .invalidSyncTime(text, reason: reason) }
        guard chars.count >= 19, chars[4] == "-", chars[7] == "-", chars[10] == "T" || chars[10] == " ",
              chars[13] == ":", chars[16] == ":",
              let year = CivilTime.digits(String(chars[0..<4])),
              let month = CivilTime.digits(String(chars[5..<7])),
              let day = CivilTime.digits(String(chars[8..<10])),
              let hour = CivilTime.digits(String(chars[11..<13])),
              let minute = CivilTime.digits(String(chars[14..<16])),
              let second = CivilTime.digits(String(chars[17..<19]))
        else { throw fail("expected YYYY-MM-DDTHH:MM:SS") }
        guard let whole = CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            throw fail("there is no such date or time of day")
        }
        var rest = chars[19...]
        var fraction = 0.0
        if rest.first == "." || rest.first == "," {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let value = CivilTime.digits(String(digits)) else {
                throw fail("the fraction of a second needs digits after the point")
            }
            fraction = Double(value) / pow(10, Double(digits.count))
            rest = rest.dropFirst(1 + digits.count)
        }
        guard !rest.isEmpty else {
            throw fail("it has no time zone — add one, e.g. \(trimmed)+02:00 for Central European Summer Time or \(trimmed)Z for UTC")
        }
        let zoneText = String(rest)
        let zoneOffset: Int
        if zoneText == "Z" || zoneText == "z" {
            zoneOffset = 0
        } else if let offset = CivilTime.zoneOffset(zoneText) {
            zoneOffset = offset
        } else {
            throw fail("\"\(zoneText)\" is not a time zone; use Z or ±HH:MM")
        }
        return Date(timeIntervalSince1970: Double(whole - zoneOffset) + fraction)
    }
}
