import Foundation

/// Number parsing and formatting shared by the track readers and writers.
enum TrackNumbers {
    /// Parses a plain decimal (`-12.345`, `+7`, `.5`) from ASCII bytes; no exponent, no spaces.
    ///
    /// Faster than going through `String` for the millions of fields of a large NMEA log.
    static func decimal<C: RandomAccessCollection>(_ bytes: C) -> Double? where C.Element == UInt8, C.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        guard i < end else { return nil }
        var negative = false
        if bytes[i] == 0x2D || bytes[i] == 0x2B {
            negative = bytes[i] == 0x2D
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while i < end {
            let c = bytes[i]
            if c >= 0x30 && c <= 0x39 {
                if digits < 18 {
                    mantissa = mantissa * 10 + UInt64(c - 0x30)
                    if seenPoint { fractionDigits += 1 }
                } else if !seenPoint {
                    return Double(String(decoding: Array(bytes), as: UTF8.self))
                }
                digits += 1
            } else if c == 0x2E && !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= powersOfTen[fractionDigits] }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...18).map { pow(10, Double($0)) }

    /// Parses a number from XML or text content, tolerating surrounding white space.
    ///
    /// Plain decimals take the fast byte path; anything else (exponents) goes through `Double`.
    static func decimal<S: StringProtocol>(text: S) -> Double? {
        var string = String(text)
        if let value = string.withUTF8({ decimal(trimmedASCII($0)) }) { return value }
        guard let value = Double(string.trimmingCharacters(in: .whitespacesAndNewlines)), value.isFinite else { return nil }
        return value
    }

    /// `bytes` without leading and trailing ASCII white space.
    static func trimmedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Fixed-point text with at most `digits` decimals and no trailing zeros ("46.4349810" → "46.434981").
    ///
    /// Never uses exponent notation, which GPX's `xsd:decimal` and many readers reject.
    static func fixed(_ value: Double, digits: Int) -> String {
        let scale = pow(10, Double(digits))
        let scaled = (value * scale).rounded()
        guard scaled.magnitude < 9e18 else { return String(format: "%.\(digits)f", value) }
        let units = Int64(scaled)
        let sign = units < 0 ? "-" : ""
        let magnitude = units.magnitude
        let divisor = UInt64(scale)
        let whole = magnitude / divisor
        var fraction = String(magnitude % divisor)
        if fraction.count < digits { fraction = String(repeating: "0", count: digits - fraction.count) + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

extension Fix {
    /// Whether latitude and longitude are finite and within ±90° and ±180°.
    var hasValidCoordinates: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }
}

/// Accuracy estimate from horizontal dilution of precision: `hdop × 5 m`.
///
/// Neither GPX nor NMEA carries an accuracy in metres; a user-equivalent range error of
/// about 5 m times HDOP is the customary rough estimate.
enum DilutionOfPrecision {
    static let metresPerHDOP = 5.0

    static func accuracy(hdop: Double?) -> Double? {
        guard let hdop, hdop.isFinite, hdop > 0 else { return nil }
        return hdop * metresPerHDOP
    }

    static func hdop(accuracy: Double?) -> Double? {
        guard let accuracy, accuracy.isFinite, accuracy > 0 else { return nil }
        return accuracy / metresPerHDOP
    }
}
