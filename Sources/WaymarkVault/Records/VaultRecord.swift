import Foundation
import WaymarkCore

/// One location record as the vault keeps it (DESIGN §3.11, the seed's "Data Structure").
///
/// `timestamp` is ISO 8601 UTC in whole seconds (`2017-12-28T16:49:22Z`); `datum` is always
/// `EPSG:4326`. What a receiver did not tell is nil and written as `null`.
public struct VaultRecord: Codable, Sendable, Hashable {
    /// ISO 8601 UTC, whole seconds, e.g. `2017-12-28T16:49:22Z`.
    public var timestamp: String
    /// Degrees, WGS-84, positive north.
    public var latitude: Double
    /// Degrees, WGS-84, positive east.
    public var longitude: Double
    /// Metres above mean sea level.
    public var altitude: Double?
    /// Horizontal accuracy (radius, metres).
    public var accuracy: Double?
    /// Metres per second over the ground.
    public var speed: Double?
    /// Degrees clockwise from true north, 0..<360.
    public var heading: Double?
    /// Always `EPSG:4326`.
    public var datum: String

    /// The datum of every record: WGS-84 latitude and longitude.
    public static let datum = "EPSG:4326"

    public init(timestamp: Date, latitude: Double, longitude: Double, altitude: Double? = nil, accuracy: Double? = nil,
                speed: Double? = nil, heading: Double? = nil) {
        self.timestamp = VaultRecord.timestamp(timestamp)
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
        self.speed = speed
        self.heading = heading
        self.datum = VaultRecord.datum
    }

    /// The record of one fix, with the speed and course its receiver reported (gpsd's `speed`
    /// and `track`), if any.
    public init(fix: Fix) {
        self.init(timestamp: fix.time, latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude,
                  accuracy: fix.accuracy, speed: fix.speed, heading: fix.course)
    }

    /// Records of one track's fixes, in the track's order.
    ///
    /// Speed (m/s) and heading (degrees from true north, 0..<360) are the receiver's own when the
    /// fix carries them; otherwise they are derived geodesically from the neighbouring fix: the
    /// next one, or the previous one for the track's last fix (then the heading is the direction
    /// of arrival). A lone fix, two fixes at the same instant or out of order give nil; two fixes
    /// at the same place give speed 0 and no heading.
    public static func records(track: [Fix]) -> [VaultRecord] {
        track.indices.map { index in
            let fix = track[index]
            var motion: (speed: Double, heading: Double?)?
            if index + 1 < track.count {
                motion = Motion.between(fix, track[index + 1], headingAtEnd: false)
            } else if index > 0 {
                motion = Motion.between(track[index - 1], fix, headingAtEnd: true)
            }
            var record = VaultRecord(fix: fix)
            record.speed = record.speed ?? motion?.speed
            record.heading = record.heading ?? motion?.heading
            return record
        }
    }

    /// The JSON sent (and sealed): keys in the order timestamp, latitude, longitude, altitude,
    /// accuracy, speed, heading, datum; an unknown (or non-finite) value is written as null;
    /// numbers as Swift prints them shortest (`40.75846`, `160.0`).
    public func json() -> Data {
        var text = "{\"timestamp\":" + Self.quoted(timestamp)
        text += ",\"latitude\":" + Self.number(latitude)
        text += ",\"longitude\":" + Self.number(longitude)
        text += ",\"altitude\":" + Self.number(altitude)
        text += ",\"accuracy\":" + Self.number(accuracy)
        text += ",\"speed\":" + Self.number(speed)
        text += ",\"heading\":" + Self.number(heading)
        text += ",\"datum\":" + Self.quoted(datum) + "}"
        return Data(text.utf8)
    }

    /// `2017-12-28T16:49:22Z`: the instant in UTC, fractions of a second dropped (rounded down).
    public static func timestamp(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = year >= 0 && year < 10000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }

    static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
