import Foundation

/// A camera clock reading: the naive local wall time the camera wrote (EXIF DateTimeOriginal
/// plus SubSecTimeOriginal), as seconds since 1970 as if that wall time were UTC.
public struct CameraTime: Sendable, Hashable, Comparable {
    /// The wall time as seconds since 1970, read as if it were UTC.
    public var seconds: Double
    /// Whether the camera wrote subseconds; without them `seconds` is truncated to a whole second.
    public var hasSubseconds: Bool
    /// OffsetTimeOriginal in seconds east of UTC, when the camera wrote one.
    public var utcOffset: Int?

    /// A reading from its parts.
    public init(seconds: Double, hasSubseconds: Bool = true, utcOffset: Int? = nil) {
        self.seconds = seconds
        self.hasSubseconds = hasSubseconds
        self.utcOffset = utcOffset
    }

    /// Parses the EXIF strings: DateTimeOriginal `"2019:08:01 12:34:56"`, SubSecTimeOriginal
    /// `"123"` (digits of a decimal fraction) and OffsetTimeOriginal `"+02:00"`.
    ///
    /// Returns `nil` when the date is missing, blank (`"0000:00:00 00:00:00"`) or malformed.
    /// Malformed subseconds or offsets are ignored rather than failing the whole reading.
    public init?(exif dateTime: String, subSeconds: String?, offset: String?) {
        let text = dateTime.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        let chars = Array(text)
        guard chars.count == 19, chars[4] == chars[7], chars[4] == ":" || chars[4] == "-",
              chars[10] == " " || chars[10] == "T", chars[13] == ":", chars[16] == ":",
              let year = CivilTime.digits(String(chars[0..<4])),
              let month = CivilTime.digits(String(chars[5..<7])),
              let day = CivilTime.digits(String(chars[8..<10])),
              let hour = CivilTime.digits(String(chars[11..<13])),
              let minute = CivilTime.digits(String(chars[14..<16])),
              let second = CivilTime.digits(String(chars[17..<19])),
              let whole = CivilTime.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }

        var fraction = 0.0
        var hasFraction = false
        if let sub = subSeconds?.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\0"))),
           !sub.isEmpty, sub.count <= 9, let value = CivilTime.digits(sub) {
            fraction = Double(value) / pow(10, Double(sub.count))
            hasFraction = true
        }
        self.seconds = Double(whole) + fraction
        self.hasSubseconds = hasFraction
        self.utcOffset = offset.flatMap { CivilTime.zoneOffset($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The middle of the second the camera meant: a reading without subseconds was truncated,
    /// so the shot happened somewhere in `[seconds, seconds + 1)`.
    var midpoint: Double { hasSubseconds ? seconds : seconds + 0.5 }

    /// Half the uncertainty added by truncation: 0.5 s without subseconds, 0 with them.
    var truncationBound: Double { hasSubseconds ? 0 : 0.5 }

    public static func < (lhs: CameraTime, rhs: CameraTime) -> Bool { lhs.seconds < rhs.seconds }
}
