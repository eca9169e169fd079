import Foundation

/// One two-line element set (TLE) as NORAD/CelesTrak publish them, optionally with the name
/// line before it ("three-line" sets).
///
/// The parser follows the fixed columns of the format strictly: every field is read from its
/// own columns, the columns between fields must be blank, numbers may only be right-aligned
/// with spaces, and the modulo-10 checksum in column 69 must match. Line ends (LF or CRLF) and
/// spaces after column 69 are ignored; anything else after it is an error. Angles are kept in
/// degrees and the mean motion in revolutions per day, as written.
public struct TwoLineElements: Sendable, Equatable {
    /// The name line with surrounding spaces removed, or nil for a two-line set.
    public var name: String?
    /// The NORAD catalogue number (Alpha-5 numbers such as "A0001" read as 100001).
    public var catalogNumber: Int
    /// The classification letter (U, C or S).
    public var classification: Character
    /// The international designator as written (e.g. "10001A"), without padding.
    public var internationalDesignator: String
    /// The epoch (UTC).
    public var epoch: Date
    /// The epoch as a Julian day at 0h and the fraction of that day, as SGP4 uses it.
    public var epochJulianDay: (whole: Double, fraction: Double)
    /// The first derivative of the mean motion divided by two (revolutions per day²).
    public var meanMotionDot: Double
    /// The second derivative of the mean motion divided by six (revolutions per day³).
    public var meanMotionDDot: Double
    /// The B* drag term (per Earth radius).
    public var bstar: Double
    /// The ephemeris type (0 for SGP4 element sets).
    public var ephemerisType: Int
    /// The element set number.
    public var elementSetNumber: Int
    /// The inclination in degrees.
    public var inclination: Double
    /// The right ascension of the ascending node in degrees.
    public var rightAscension: Double
    /// The eccentricity.
    public var eccentricity: Double
    /// The argument of perigee in degrees.
    public var argumentOfPerigee: Double
    /// The mean anomaly in degrees.
    public var meanAnomaly: Double
    /// The mean motion in revolutions per day.
    public var meanMotion: Double
    /// The revolution number at epoch.
    public var revolutionNumber: Int

    public static func == (a: TwoLineElements, b: TwoLineElements) -> Bool {
        a.name == b.name && a.catalogNumber == b.catalogNumber && a.classification == b.classification
            && a.internationalDesignator == b.internationalDesignator && a.epoch == b.epoch
            && a.epochJulianDay == b.epochJulianDay
            && a.meanMotionDot == b.meanMotionDot && a.meanMotionDDot == b.meanMotionDDot && a.bstar == b.bstar
            && a.ephemerisType == b.ephemerisType && a.elementSetNumber == b.elementSetNumber
            && a.inclination == b.inclination && a.rightAscension == b.rightAscension
            && a.eccentricity == b.eccentricity && a.argumentOfPerigee == b.argumentOfPerigee
            && a.meanAnomaly == b.meanAnomaly && a.meanMotion == b.meanMotion && a.revolutionNumber == b.revolutionNumber
    }

    /// Parses a two-line or three-line element set given as text (LF or CRLF line ends).
    ///
    /// - Throws: `TLEError` naming the line and the field that is wrong.
    public init(_ text: String) throws(TLEError) {
        let lines = TLECatalogue.lines(of: text).filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }
        switch lines.count {
        case 0: throw TLEError(line: .first, field: nil, problem: .empty)
        case 1: throw TLEError(line: .second, field: nil, problem: .missingLine)
        case 2: try self.init(name: nil, line1: lines[0], line2: lines[1])
        case 3: try self.init(name: lines[0], line1: lines[1], line2: lines[2])
        default: throw TLEError(line: .second, field: nil, problem: .unexpectedText(String(lines[3].prefix(20))))
        }
    }

    /// Parses the two element lines of a set, with an optional name line.
    ///
    /// - Throws: `TLEError` naming the line and the field that is wrong.
    public init(name: String?, line1: String, line2: String) throws(TLEError) {
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { throw TLEError(line: .name, field: nil, problem: .empty) }
            guard trimmed.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw TLEError(line: .name, field: nil, problem: .invalidCharacters)
            }
            self.name = trimmed
        } else {
            self.name = nil
        }
        let one = try Line(line1, .first)
        let two = try Line(line2, .second)

        catalogNumber = try one.catalogNumber()
        let second = try two.catalogNumber()
        guard second == catalogNumber else {
            throw TLEError(line: .second, field: .catalogNumber, problem: .catalogNumberMismatch(first: catalogNumber, second: second))
        }
        let classificationText = one.text(8...8)
        guard let letter = classificationText.first, "UCS".contains(letter) else {
            throw TLEError(line: .first, field: .classification, problem: .notANumber(classificationText))
        }
        classification = letter
        try one.blank(9)
        let designator = one.text(10...17)
        guard designator.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == " ") }) else {
            throw TLEError(line: .first, field: .internationalDesignator, problem: .notANumber(designator))
        }
        internationalDesignator = designator.trimmingCharacters(in: .whitespaces)
        try one.blank(18)

        let twoDigitYear = try one.integer(19...20, .epoch)
        let year = twoDigitYear < 57 ? 2000 + twoDigitYear : 1900 + twoDigitYear
        let dayText = one.text(21...32)
        let day = try one.decimal(21...32, .epoch)
        let leapYear = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        guard day >= 1, day < (leapYear ? 367 : 366) else {
            throw TLEError(line: .first, field: .epoch, problem: .outOfRange(dayText))
        }
        // The fraction as written (not day − ⌊day⌋) so the epoch is exact to the last digit.
        let dayNumber = day.rounded(.down)
        let fractionText = dayText.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first ?? ""
        let fraction = Double("0." + fractionText) ?? (day - dayNumber)
        let january1 = Double(367 * year - (7 * year) / 4 + 31) + 1721013.5
        epochJulianDay = (january1 + dayNumber - 1, fraction)
        epoch = Date(timeIntervalSince1970: ((epochJulianDay.whole - 2440587.5) + fraction) * 86400)

        try one.blank(33)
        meanMotionDot = try one.decimal(34...43, .meanMotionDot)
        try one.blank(44)
        meanMotionDDot = try one.exponential(45...52, .meanMotionDDot)
        try one.blank(53)
        bstar = try one.exponential(54...61, .bstar)
        try one.blank(62)
        // Some old sets (Vallado's verification case 11801 among them) leave the type blank.
        ephemerisType = one.text(63...63) == " " ? 0 : try one.integer(63...63, .ephemerisType)
        try one.blank(64)
        elementSetNumber = try one.integer(65...68, .elementSetNumber)

        try two.blank(8)
        inclination = try two.decimal(9...16, .inclination)
        guard (0...180).contains(inclination) else {
            throw TLEError(line: .second, field: .inclination, problem: .outOfRange(two.text(9...16)))
        }
        try two.blank(17)
        rightAscension = try two.decimal(18...25, .rightAscension)
        try two.blank(26)
        let eccentricityText = two.text(27...33)
        guard eccentricityText.allSatisfy({ $0.isASCII && $0.isNumber }), let e = Double("0." + eccentricityText) else {
            throw TLEError(line: .second, field: .eccentricity, problem: .notANumber(eccentricityText))
        }
        eccentricity = e
        try two.blank(34)
        argumentOfPerigee = try two.decimal(35...42, .argumentOfPerigee)
        try two.blank(43)
        meanAnomaly = try two.decimal(44...51, .meanAnomaly)
        try two.blank(52)
        meanMotion = try two.decimal(53...63, .meanMotion)
        guard meanMotion > 0 else {
            throw TLEError(line: .second, field: .meanMotion, problem: .outOfRange(two.text(53...63)))
        }
        revolutionNumber = try two.integer(64...68, .revolutionNumber)
        for (value, field, columns) in [(rightAscension, TLEError.Field.rightAscension, 18...25),
                                        (argumentOfPerigee, .argumentOfPerigee, 35...42), (meanAnomaly, .meanAnomaly, 44...51)]
            where !(0...360).contains(value) {
            throw TLEError(line: .second, field: field, problem: .outOfRange(two.text(columns)))
        }
    }

    /// One element line, checked for its length, line number and checksum.
    private struct Line {
        let characters: [Character]
        let which: TLEError.Line

        init(_ raw: String, _ which: TLEError.Line) throws(TLEError) {
            self.which = which
            var text = raw
            if text.hasSuffix("\r") { text.removeLast() }
            while text.count > 69, text.last == " " { text.removeLast() }
            guard text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else {
                throw TLEError(line: which, field: nil, problem: .invalidCharacters)
            }
            characters = Array(text)
            guard characters.count == 69 else {
                throw TLEError(line: which, field: nil, problem: .wrongLength(characters.count))
            }
            let expected: Character = which == .first ? "1" : "2"
            guard characters[0] == expected, characters[1] == " " else {
                throw TLEError(line: which, field: .lineNumber, problem: .notANumber(String(characters[0...1])))
            }
            var sum = 0
            for character in characters[0..<68] {
                if let digit = character.wholeNumberValue, character.isASCII { sum += digit } else if character == "-" { sum += 1 }
            }
            guard let written = characters[68].wholeNumberValue, characters[68].isASCII else {
                throw TLEError(line: which, field: .checksum, problem: .notANumber(String(characters[68])))
            }
            guard written == sum % 10 else {
                throw TLEError(line: which, field: .checksum, problem: .checksumMismatch(written: written, computed: sum % 10))
            }
        }

        /// The text of 1-based, inclusive columns.
        func text(_ columns: ClosedRange<Int>) -> String { String(characters[(columns.lowerBound - 1)...(columns.upperBound - 1)]) }

        func blank(_ column: Int) throws(TLEError) {
            guard characters[column - 1] == " " else {
                throw TLEError(line: which, field: nil, problem: .expectedBlank(column: column))
            }
        }

        /// Columns 3–7: five digits, or Alpha-5 (a letter other than I and O, then four digits).
        func catalogNumber() throws(TLEError) -> Int {
            let field = text(3...7)
            let digits = field.dropFirst()
            guard let first = field.first, first.isASCII, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let low = Int(digits) else {
                throw TLEError(line: which, field: .catalogNumber, problem: .notANumber(field))
            }
            if first == " " || first.isNumber {
                return (first.wholeNumberValue ?? 0) * 10000 + low
            }
            let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
            guard let index = letters.firstIndex(of: first) else {
                throw TLEError(line: which, field: .catalogNumber, problem: .notANumber(field))
            }
            return (10 + index) * 10000 + low
        }

        /// A right-aligned whole number: spaces, then an optional sign, then digits.
        func integer(_ columns: ClosedRange<Int>, _ field: TLEError.Field) throws(TLEError) -> Int {
            let raw = text(columns)
            let trimmed = raw.drop { $0 == " " }
            let digits = trimmed.first == "-" || trimmed.first == "+" ? trimmed.dropFirst() : trimmed
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else {
                throw TLEError(line: which, field: field, problem: .notANumber(raw))
            }
            return trimmed.first == "-" ? -value : value
        }

        /// A right-aligned decimal number: spaces, an optional sign, digits with at most one point.
        func decimal(_ columns: ClosedRange<Int>, _ field: TLEError.Field) throws(TLEError) -> Double {
            let raw = text(columns)
            let trimmed = raw.drop { $0 == " " }
            let negative = trimmed.first == "-"
            let body = trimmed.first == "-" || trimmed.first == "+" ? trimmed.dropFirst() : trimmed
            let points = body.filter { $0 == "." }.count
            guard !body.isEmpty, points <= 1, body.contains(where: { $0.isNumber }),
                  body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  let value = Double(body.first == "." ? "0" + body : String(body)) else {
                throw TLEError(line: which, field: field, problem: .notANumber(raw))
            }
            return negative ? -value : value
        }

        /// The implied-decimal exponent form of columns 45–52 and 54–61: sign, five mantissa
        /// digits read as 0.ddddd, exponent sign and one exponent digit (" 12345-4" = 0.12345e−4).
        func exponential(_ columns: ClosedRange<Int>, _ field: TLEError.Field) throws(TLEError) -> Double {
            let raw = text(columns)
            let c = Array(raw)
            let mantissa = c[1...5]
            guard " +-".contains(c[0]), mantissa.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == " ") }),
                  mantissa.contains(where: { $0.isNumber }), "+-".contains(c[6]) || c[6] == " ",
                  let exponentDigit = c[7].wholeNumberValue, c[7].isASCII,
                  let digits = Double("0." + String(mantissa).replacingOccurrences(of: " ", with: "0")) else {
                throw TLEError(line: which, field: field, problem: .notANumber(raw))
            }
            let exponent = c[6] == "-" ? -exponentDigit : exponentDigit
            let value = digits * pow(10, Double(exponent))
            return c[0] == "-" ? -value : value
        }
    }
}

/// What is wrong with a two-line element set: which line, which field, what.
public struct TLEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line of the set.
    public enum Line: Int, Sendable {
        case name = 0, first = 1, second = 2
    }

    /// The fields of the format.
    public enum Field: String, Sendable {
        case lineNumber = "line number"
        case catalogNumber = "catalogue number"
        case classification
        case internationalDesignator = "international designator"
        case epoch
        case meanMotionDot = "first derivative of the mean motion"
        case meanMotionDDot = "second derivative of the mean motion"
        case bstar = "B* drag term"
        case ephemerisType = "ephemeris type"
        case elementSetNumber = "element set number"
        case checksum
        case inclination
        case rightAscension = "right ascension of the ascending node"
        case eccentricity
        case argumentOfPerigee = "argument of perigee"
        case meanAnomaly = "mean anomaly"
        case meanMotion = "mean motion"
        case revolutionNumber = "revolution number"
    }

    public enum Problem: Sendable, Equatable {
        /// There was no text (or the name line was blank).
        case empty
        /// The set ends before this line.
        case missingLine
        /// The line is not 69 characters long.
        case wrongLength(Int)
        /// Control characters or characters outside ASCII.
        case invalidCharacters
        /// A column between fields is not blank.
        case expectedBlank(column: Int)
        /// The field's text is not a number of the field's form.
        case notANumber(String)
        /// The number is outside the field's range.
        case outOfRange(String)
        /// The checksum in column 69 does not match the line.
        case checksumMismatch(written: Int, computed: Int)
        /// The two lines name different satellites.
        case catalogNumberMismatch(first: Int, second: Int)
        /// Text where no more was expected.
        case unexpectedText(String)
    }

    public var line: Line
    public var field: Field?
    public var problem: Problem

    public init(line: Line, field: Field?, problem: Problem) {
        self.line = line
        self.field = field
        self.problem = problem
    }

    public var description: String {
        let place = switch line {
        case .name: "the name line"
        case .first: "line 1"
        case .second: "line 2"
        }
        let what = field.map { " (\($0.rawValue))" } ?? ""
        switch problem {
        case .empty: return "\(place) is empty — expected a two-line element set"
        case .missingLine: return "the element set ends before \(place)"
        case .wrongLength(let count): return "\(place) has \(count) characters; element lines have 69"
        case .invalidCharacters: return "\(place) contains control or non-ASCII characters"
        case .expectedBlank(let column): return "\(place): column \(column) must be blank"
        case .notANumber(let text): return "\(place)\(what): \"\(text)\" is not a valid value"
        case .outOfRange(let text): return "\(place)\(what): \(text.trimmingCharacters(in: .whitespaces)) is out of range"
        case .checksumMismatch(let written, let computed):
            return "\(place): checksum \(written) does not match the line (computed \(computed)) — the line was altered or damaged"
        case .catalogNumberMismatch(let first, let second):
            return "line 2 is for catalogue number \(second) but line 1 for \(first)"
        case .unexpectedText(let text): return "unexpected text after the element set: \"\(text)\""
        }
    }
}
