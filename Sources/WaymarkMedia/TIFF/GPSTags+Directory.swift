import Foundation

/// One GPS IFD value as Waymark writes it: the type, the count and the value's bytes in the file's byte order.
struct GPSDirectoryValue: Equatable {
    var tag: UInt16
    var type: UInt16
    var count: UInt32
    var bytes: [UInt8]
}

extension GPSTags {
    /// The GPS IFD entries of DESIGN §3.4, sorted by tag, encoded in `order`.
    ///
    /// Coordinates are degrees, minutes and seconds to 1/10,000 of an arc-second (about 3 mm), the
    /// altitude to the millimetre, the horizontal error to the centimetre and the time of day to the
    /// millisecond, as exiftool and exiv2 read them back.
    func directoryValues(order: TIFFByteOrder) -> [GPSDirectoryValue] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: time)
        let milliseconds = min(59_999, Int(((Double(parts.second ?? 0) + Double(parts.nanosecond ?? 0) / 1e9) * 1000).rounded()))

        var values: [GPSDirectoryValue] = []
        func ascii(_ tag: UInt16, _ text: String) {
            let bytes = Array(text.utf8) + [0]
            values.append(GPSDirectoryValue(tag: tag, type: 2, count: UInt32(bytes.count), bytes: bytes))
        }
        func rationals(_ tag: UInt16, _ pairs: [(UInt32, UInt32)]) {
            let bytes = pairs.flatMap { Self.encode($0.0, order) + Self.encode($0.1, order) }
            values.append(GPSDirectoryValue(tag: tag, type: 5, count: UInt32(pairs.count), bytes: bytes))
        }
        values.append(GPSDirectoryValue(tag: 0x0000, type: 1, count: 4, bytes: [2, 3, 0, 0]))
        ascii(0x0001, latitude < 0 ? "S" : "N")
        rationals(0x0002, Self.degreesMinutesSeconds(latitude))
        ascii(0x0003, longitude < 0 ? "W" : "E")
        rationals(0x0004, Self.degreesMinutesSeconds(longitude))
        if let altitude, altitude.isFinite {
            values.append(GPSDirectoryValue(tag: 0x0005, type: 1, count: 1, bytes: [altitude < 0 ? 1 : 0]))
            rationals(0x0006, [(Self.clamped(abs(altitude) * 1000), 1000)])
        }
        rationals(0x0007, [(UInt32(parts.hour ?? 0), 1), (UInt32(parts.minute ?? 0), 1), (UInt32(milliseconds), 1000)])
        ascii(0x0012, "WGS-84")
        // GPSProcessingMethod: the position comes from a GNSS route (exiftool's TIFF validation requires the tag).
        let method = Array("ASCII".utf8) + [0, 0, 0] + Array("GPS".utf8)
        values.append(GPSDirectoryValue(tag: 0x001B, type: 7, count: UInt32(method.count), bytes: method))
        ascii(0x001D, String(format: "%04d:%02d:%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1))
        if let accuracy, accuracy.isFinite, accuracy >= 0 {
            rationals(0x001F, [(Self.clamped(accuracy * 100), 100)])
        }
        return values
    }

    /// "d/1 m/1 s/10000" for the absolute value of a coordinate.
    static func degreesMinutesSeconds(_ degrees: Double) -> [(UInt32, UInt32)] {
        let total = Int64((abs(degrees) * 3600 * 10_000).rounded())  // 1/10,000 arc-seconds
        let d = total / (3600 * 10_000), rest = total % (3600 * 10_000)
        return [(UInt32(d), 1), (UInt32(rest / (60 * 10_000)), 1), (UInt32(rest % (60 * 10_000)), 10_000)]
    }

    static func clamped(_ value: Double) -> UInt32 {
        UInt32(min(max(value.rounded(), 0), Double(UInt32.max)))
    }

    static func encode(_ value: UInt32, _ order: TIFFByteOrder) -> [UInt8] {
        let bytes = [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return order == .bigEndian ? bytes : bytes.reversed()
    }

    static func encode(_ value: UInt16, _ order: TIFFByteOrder) -> [UInt8] {
        let bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return order == .bigEndian ? bytes : bytes.reversed()
    }
}
