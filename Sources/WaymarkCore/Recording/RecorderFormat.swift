import Foundation

/// How the recording screen writes distances and durations (SRR-01, SRR-04, SRR-10).
///
/// The decimal separator is the language's (`1.23 km`, `1,23 km`), as `Intl.NumberFormat` gives it
/// in the web app; nothing else depends on the locale, and no digits are grouped.
public enum RecorderFormat {
    /// Metres per yard and per international mile.
    static let metresPerYard = 0.9144
    static let metresPerMile = 1609.344

    /// A distance: metres (yards) under 1 km (1 mile), else kilometres (miles) with two
    /// decimals, one from 10 km (10 miles) on: `523 m`, `1.23 km`, `12.3 km`, `572 yd`, `1.23 mi`.
    ///
    /// The unit is chosen after rounding, so 999.6 m reads `1.00 km`, never `1000 m`. `language`
    /// is a BCP 47 tag (`en`, `de`) that chooses the decimal separator.
    public static func distance(_ metres: Double, units: UnitSystem, language: String = "en") -> String {
        // Clamped so that no absurd input overflows the integer arithmetic below.
        let metres = metres.isFinite ? min(max(0, metres), 1e12) : 0
        switch units {
        case .metric:
            return format(small: metres, smallUnit: "m", smallPerLarge: 1000, large: metres / 1000, largeUnit: "km",
                          separator: decimalSeparator(language))
        case .imperial:
            return format(small: metres / metresPerYard, smallUnit: "yd", smallPerLarge: 1760,
                          large: metres / metresPerMile, largeUnit: "mi", separator: decimalSeparator(language))
        }
    }

    /// A duration, whole seconds shown (a running clock never shows a second before it has
    /// passed): `42 s` under a minute, `12 min 05 s` under an hour, else `2 h 07 min`.
    public static func duration(_ seconds: Double) -> String {
        let total = seconds.isFinite && seconds > 0 ? Int(min(seconds, 1e12).rounded(.down)) : 0
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min \(twoDigits(total % 60)) s" }
        return "\(total / 3600) h \(twoDigits(total % 3600 / 60)) min"
    }

    /// The decimal separator of a language (CLDR's, as ICU and `Intl` have it); `.` for a tag no locale knows.
    static func decimalSeparator(_ language: String) -> String {
        Locale(identifier: language).decimalSeparator ?? "."
    }

    private static func format(small: Double, smallUnit: String, smallPerLarge: Double,
                               large: Double, largeUnit: String, separator: String) -> String {
        let wholeSmall = small.rounded()
        if wholeSmall < smallPerLarge { return "\(Int(wholeSmall)) \(smallUnit)" }
        let hundredths = Int((large * 100).rounded())
        if hundredths < 1000 { return "\(hundredths / 100)\(separator)\(twoDigits(hundredths % 100)) \(largeUnit)" }
        let tenths = Int((large * 10).rounded())
        return "\(tenths / 10)\(separator)\(tenths % 10) \(largeUnit)"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
