import Foundation

/// The words of an address line in one language: a table, so that a shell can add a language
/// without code. English and German are built in.
public struct AddressWords: Sendable, Equatable {
    /// The locale for numbers ("1.2" or "1,2") and for country names from their ISO codes.
    public var locale: Locale
    /// The compass points clockwise from north: 8 (N, NE, …) or 16 (N, NNE, NE, …) abbreviations.
    public var compassPoints: [String]
    /// The line for a point near a place, with `{distance}`, `{direction}` and `{place}`.
    public var near: String
    /// The line when no place is near, with `{maximum}` and, for the nearest place, `{distance}`,
    /// `{direction}` and `{place}`.
    public var remote: String
    /// A distance under a kilometre, with `{value}` in metres.
    public var metres: String
    /// A distance of a kilometre or more, with `{value}` in kilometres.
    public var kilometres: String

    /// Creates a table.
    public init(locale: Locale, compassPoints: [String], near: String, remote: String, metres: String = "{value} m", kilometres: String = "{value} km") {
        self.locale = locale
        self.compassPoints = compassPoints
        self.near = near
        self.remote = remote
        self.metres = metres
        self.kilometres = kilometres
    }

    /// "1.2 km NE of Brno, South Moravian, Czechia".
    public static let english = AddressWords(
        locale: Locale(identifier: "en"),
        compassPoints: ["N", "NE", "E", "SE", "S", "SW", "W", "NW"],
        near: "{distance} {direction} of {place}",
        remote: "No town within {maximum} — {distance} {direction} of {place}")

    /// "1,2 km NO von Brno, South Moravian, Tschechien".
    ///
    /// The direction is always from the place to the point ("985 km N of Taiohae": the point lies
    /// north of Taiohae), in the remote line too.
    public static let german = AddressWords(
        locale: Locale(identifier: "de"),
        compassPoints: ["N", "NO", "O", "SO", "S", "SW", "W", "NW"],
        near: "{distance} {direction} von {place}",
        remote: "Kein Ort im Umkreis von {maximum} — {distance} {direction} von {place}")
}

/// Writes an ``Address`` as one line for people: "1.2 km NE of Brno, South Moravian, Czechia".
///
/// The place is its name, its first-level division when GeoNames has one that differs from the
/// name, and the country's name in the table's locale (the ISO code when the locale has no name
/// for it). Distances are rounded as a reader takes them in: to 10 m under a kilometre, to 0.1 km
/// under 10 km, to whole kilometres beyond.
public enum AddressLine {
    /// The line for `address` in the words of `words`.
    public static func format(_ address: Address, words: AddressWords) -> String {
        switch address {
        case .at(let description):
            return place(description.place, words: words)
        case .near(let description):
            return fill(words.near, description, words: words, maximum: nil)
        case .remote(let description, let maximum):
            return fill(words.remote, description, words: words, maximum: maximum)
        }
    }

    /// "Brno, South Moravian, Czechia".
    public static func place(_ place: Gazetteer.Place, words: AddressWords) -> String {
        var parts = [place.name]
        if !place.admin1.isEmpty && place.admin1 != place.name { parts.append(place.admin1) }
        parts.append(words.locale.localizedString(forRegionCode: place.countryCode) ?? place.countryCode)
        return parts.joined(separator: ", ")
    }

    /// "850 m", "1.2 km", "2,140 km" (in the table's locale).
    public static func distance(_ metres: Double, words: AddressWords) -> String {
        let style = FloatingPointFormatStyle<Double>.number.locale(words.locale)
        let tens = (metres / 10).rounded(.toNearestOrAwayFromZero) * 10
        if tens < 1000 {
            return words.metres.replacingOccurrences(of: "{value}", with: tens.formatted(style.precision(.fractionLength(0))))
        }
        let tenths = (metres / 100).rounded(.toNearestOrAwayFromZero) / 10
        if tenths < 10 {
            return words.kilometres.replacingOccurrences(of: "{value}", with: tenths.formatted(style.precision(.fractionLength(1))))
        }
        let kilometres = (metres / 1000).rounded(.toNearestOrAwayFromZero)
        return words.kilometres.replacingOccurrences(of: "{value}", with: kilometres.formatted(style.precision(.fractionLength(0))))
    }

    private static func fill(_ template: String, _ description: PlaceDescription, words: AddressWords, maximum: Double?) -> String {
        var direction = ""
        if let azimuth = description.azimuth, let resolution = CompassPoint.Resolution(rawValue: words.compassPoints.count) {
            let point = CompassPoint(azimuth: azimuth, resolution: resolution)
            direction = words.compassPoints[point.rawValue / (16 / resolution.rawValue)]
        }
        var line = template
            .replacingOccurrences(of: "{distance}", with: distance(description.distance, words: words))
            .replacingOccurrences(of: "{direction}", with: direction)
            .replacingOccurrences(of: "{place}", with: place(description.place, words: words))
        if let maximum { line = line.replacingOccurrences(of: "{maximum}", with: distance(maximum, words: words)) }
        return line
    }
}
