import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("Two-line element sets: parser and catalogue")
struct TLEParserTests {
    static let name = "GPS BIIR-2  (PRN 13)    "
    static let line1 = "1 24876U 97035A   22034.74285222  .00000014  00000+0  00000+0 0  9997"
    static let line2 = "2 24876  55.4947 160.8899 0056167  53.9030 306.5827  2.00563299179979"
    /// The python sgp4 package's README example (the ISS, 2019).
    static let iss1 = "1 25544U 98067A   19343.69339541  .00001764  00000-0  38792-4 0  9991"
    static let iss2 = "2 25544  51.6439 211.2001 0007417  17.6667  85.6398 15.50103472202482"

    /// The line with `text` written over 1-based `columns` and the checksum made right again,
    /// so that only the field under test is wrong.
    static func edit(_ line: String, _ columns: ClosedRange<Int>, _ text: String) -> String {
        var characters = Array(line)
        characters.replaceSubrange((columns.lowerBound - 1)...(columns.upperBound - 1), with: Array(text))
        return SGP4ReferenceTests.withChecksum(String(characters))
    }

    @Test("The four fixture files read completely, each satellite in its constellation")
    func fixtureFiles() throws {
        let expected: [(String, Int, GNSSConstellation)] = [
            ("gps-ops.txt", 31, .gps), ("galileo.txt", 28, .galileo), ("glo-ops.txt", 25, .glonass), ("beidou.txt", 50, .beidou),
        ]
        for (file, count, constellation) in expected {
            let catalogue = try TLECatalogue(contentsOf: Fixtures.url("tle/\(file)"))
            #expect(catalogue.errors.isEmpty, "\(file): \(catalogue.errors)")
            #expect(catalogue.satellites.count == count, "\(file)")
            for satellite in catalogue.satellites {
                let name = try #require(satellite.elements.name)
                // The name alone must tell the constellation; the file's name is only a fallback.
                #expect(GNSSConstellation(satelliteName: name) == constellation, "\(name) in \(file)")
                #expect(satellite.constellation == constellation)
            }
            #expect(GNSSConstellation(fileName: file) == constellation)
        }
    }

    @Test("Every field of a CelesTrak set, read from its columns")
    func fields() throws {
        let elements = try TwoLineElements(name: Self.name, line1: Self.line1, line2: Self.line2)
        #expect(elements.name == "GPS BIIR-2  (PRN 13)")
        #expect(elements.catalogNumber == 24876)
        #expect(elements.classification == "U")
        #expect(elements.internationalDesignator == "97035A")
        // 2022, day 34.74285222 = 3 February 2022 17:49:42.43 UTC.
        #expect(abs(elements.epoch.timeIntervalSince1970 - (1_643_846_400 + 0.74285222 * 86400)) < 1e-5)
        #expect(elements.epochJulianDay.whole == 2459613.5 && elements.epochJulianDay.fraction == 0.74285222)
        #expect(elements.meanMotionDot == 0.00000014)
        #expect(elements.meanMotionDDot == 0 && elements.bstar == 0)
        #expect(elements.ephemerisType == 0 && elements.elementSetNumber == 999)
        #expect(elements.inclination == 55.4947 && elements.rightAscension == 160.8899)
        #expect(elements.eccentricity == 0.0056167)
        #expect(elements.argumentOfPerigee == 53.9030 && elements.meanAnomaly == 306.5827)
        #expect(elements.meanMotion == 2.00563299 && elements.revolutionNumber == 17997)
        // The three-line text form gives the same set.
        #expect(try TwoLineElements([Self.name, Self.line1, Self.line2].joined(separator: "\n")) == elements)
        var unnamed = elements
        unnamed.name = nil
        #expect(try TwoLineElements(Self.line1 + "\n" + Self.line2 + "\n") == unnamed)
    }

    @Test("Implied-decimal exponent fields and the sign of the first derivative")
    func exponentFields() throws {
        let iss = try TwoLineElements(name: nil, line1: Self.iss1, line2: Self.iss2)
        #expect(abs(iss.bstar - 0.38792e-4) < 1e-18)
        #expect(iss.meanMotionDot == 0.00001764)
        let negative = Self.edit(Self.edit(Self.edit(Self.iss1, 34...43, "-.00012345"), 45...52, "-12345-5"), 54...61, "-11606-4")
        let edited = try TwoLineElements(name: nil, line1: negative, line2: Self.iss2)
        #expect(edited.meanMotionDot == -0.00012345)
        #expect(abs(edited.meanMotionDDot - -0.12345e-5) < 1e-20)
        #expect(abs(edited.bstar - -0.11606e-4) < 1e-20)
        let positiveExponent = try TwoLineElements(name: nil, line1: Self.edit(Self.iss1, 54...61, " 10000+1"), line2: Self.iss2)
        #expect(positiveExponent.bstar == 1)
    }

    @Test("Two-digit years: 57–99 are 1957–1999, 00–56 are 2000–2056; the day must exist in its year")
    func epochYears() throws {
        func epoch(_ text: String) throws(TLEError) -> Date {
            try TwoLineElements(name: nil, line1: Self.edit(Self.line1, 19...32, text), line2: Self.line2).epoch
        }
        let calendar = { () -> Calendar in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
            return calendar
        }()
        #expect(calendar.component(.year, from: try epoch("57001.00000000")) == 1957)
        #expect(calendar.component(.year, from: try epoch("99365.50000000")) == 1999)
        #expect(calendar.component(.year, from: try epoch("00001.00000000")) == 2000)
        #expect(calendar.component(.year, from: try epoch("56001.00000000")) == 2056)
        // 2020 is a leap year: day 366 is 31 December; 2022 has no day 366.
        let lastDay = try epoch("20366.50000000")
        #expect(calendar.dateComponents([.month, .day, .hour], from: lastDay) == DateComponents(month: 12, day: 31, hour: 12))
        #expect(throws: TLEError(line: .first, field: .epoch, problem: .outOfRange("366.50000000"))) { try epoch("22366.50000000") }
        #expect(throws: TLEError(line: .first, field: .epoch, problem: .outOfRange("000.50000000"))) { try epoch("22000.50000000") }
    }

    @Test("Alpha-5 catalogue numbers (A0001 = 100001) and a classified set")
    func alpha5() throws {
        let one = Self.edit(Self.edit(Self.line1, 3...7, "A0001"), 8...8, "C")
        let two = Self.edit(Self.line2, 3...7, "A0001")
        let elements = try TwoLineElements(name: nil, line1: one, line2: two)
        #expect(elements.catalogNumber == 100001 && elements.classification == "C")
        // I and O are not Alpha-5 letters: they look like 1 and 0.
        #expect(throws: TLEError(line: .first, field: .catalogNumber, problem: .notANumber("I0001"))) {
            try TwoLineElements(name: nil, line1: Self.edit(Self.line1, 3...7, "I0001"), line2: Self.edit(Self.line2, 3...7, "I0001"))
        }
    }

    /// Broken and hostile sets and the error each must give.
    static let brokenSets: [(String, String?, String, String, TLEError)] = [
        ("truncated line 1", nil, String(line1.prefix(60)), line2, TLEError(line: .first, field: nil, problem: .wrongLength(60))),
        ("truncated line 2", nil, line1, String(line2.prefix(68)), TLEError(line: .second, field: nil, problem: .wrongLength(68))),
        ("empty line 2", nil, line1, "", TLEError(line: .second, field: nil, problem: .wrongLength(0))),
        ("a digit changed (checksum)", nil, line1, line2.replacingOccurrences(of: "55.4947", with: "55.4948"),
         TLEError(line: .second, field: .checksum, problem: .checksumMismatch(written: 9, computed: 0))),
        ("a letter for the checksum", nil, String(line1.prefix(68)) + "X", line2,
         TLEError(line: .first, field: .checksum, problem: .notANumber("X"))),
        ("a letter in the inclination", nil, line1, edit(line2, 9...16, " 55.49A7"),
         TLEError(line: .second, field: .inclination, problem: .notANumber(" 55.49A7"))),
        ("O for 0 in the eccentricity", nil, line1, edit(line2, 27...33, "OO56167"),
         TLEError(line: .second, field: .eccentricity, problem: .notANumber("OO56167"))),
        ("a letter in the B* mantissa", nil, edit(line1, 54...61, " 1234X-4"), line2,
         TLEError(line: .first, field: .bstar, problem: .notANumber(" 1234X-4"))),
        ("an exponent without a digit", nil, edit(line1, 45...52, " 12345- "), line2,
         TLEError(line: .first, field: .meanMotionDDot, problem: .notANumber(" 12345- "))),
        ("two decimal points in the mean motion", nil, line1, edit(line2, 53...63, " 2.0056.299"),
         TLEError(line: .second, field: .meanMotion, problem: .notANumber(" 2.0056.299"))),
        ("a space inside a number", nil, line1, edit(line2, 35...42, " 53.9 30"),
         TLEError(line: .second, field: .argumentOfPerigee, problem: .notANumber(" 53.9 30"))),
        ("an exponent in a fixed-point field", nil, line1, edit(line2, 44...51, "3.06e+02"),
         TLEError(line: .second, field: .meanAnomaly, problem: .notANumber("3.06e+02"))),
        ("inclination over 180°", nil, line1, edit(line2, 9...16, "185.4947"),
         TLEError(line: .second, field: .inclination, problem: .outOfRange("185.4947"))),
        ("zero mean motion", nil, line1, edit(line2, 53...63, " 0.00000000"),
         TLEError(line: .second, field: .meanMotion, problem: .outOfRange(" 0.00000000"))),
        ("mismatched catalogue numbers", nil, line1, edit(line2, 3...7, "24877"),
         TLEError(line: .second, field: .catalogNumber, problem: .catalogNumberMismatch(first: 24876, second: 24877))),
        ("lines swapped", nil, line2, line1, TLEError(line: .first, field: .lineNumber, problem: .notANumber("2 "))),
        ("a character in a blank column", nil, edit(line1, 18...18, "X"), line2,
         TLEError(line: .first, field: nil, problem: .expectedBlank(column: 18))),
        ("an unknown classification", nil, edit(line1, 8...8, "X"), line2,
         TLEError(line: .first, field: .classification, problem: .notANumber("X"))),
        ("trailing garbage", nil, line1 + "xyz", line2, TLEError(line: .first, field: nil, problem: .wrongLength(72))),
        ("a NUL byte", nil, line1, String(line2.prefix(20)) + "\u{0}" + String(line2.dropFirst(21)),
         TLEError(line: .second, field: nil, problem: .invalidCharacters)),
        ("non-ASCII digits", nil, line1, edit(line2, 9...16, " ５5.4947"), TLEError(line: .second, field: nil, problem: .invalidCharacters)),
        ("a 100,000-character line", nil, line1 + String(repeating: "9", count: 100_000), line2,
         TLEError(line: .first, field: nil, problem: .wrongLength(100_069))),
        ("a blank name line", "    ", line1, line2, TLEError(line: .name, field: nil, problem: .empty)),
        ("an escape sequence in the name", "GPS \u{1B}[31m", line1, line2, TLEError(line: .name, field: nil, problem: .invalidCharacters)),
    ]

    @Test("Broken and hostile sets give an error naming the line and the field", arguments: 0..<brokenSets.count)
    func brokenSet(_ index: Int) {
        let (what, name, one, two, expected) = Self.brokenSets[index]
        do {
            let elements = try TwoLineElements(name: name, line1: one, line2: two)
            Issue.record("\(what): read as \(elements)")
        } catch {
            #expect(error == expected, "\(what): \(error)")
            #expect(!error.description.isEmpty)
        }
    }

    @Test("CRLF line ends and spaces after column 69 read the same as the plain file")
    func lineEnds() throws {
        let plain = try TLECatalogue(contentsOf: Fixtures.url("tle/gps-ops.txt"))
        let text = String(decoding: try Fixtures.data("tle/gps-ops.txt"), as: UTF8.self)
        let crlf = try TLECatalogue(text: text.replacingOccurrences(of: "\n", with: "\r\n"), fileName: "gps-ops.txt")
        #expect(crlf == plain)
        let padded = try TLECatalogue(text: text.replacingOccurrences(of: "\n", with: "   \n"), fileName: "gps-ops.txt")
        #expect(padded == plain)
        let blankLines = try TLECatalogue(text: "\n\n" + text.replacingOccurrences(of: "\nGPS", with: "\n\nGPS"), fileName: "gps-ops.txt")
        #expect(blankLines == plain)
    }

    @Test("A file with nothing in it, or not text, is an error of the file")
    func emptyFiles() {
        #expect(throws: TLECatalogue.FileError.empty) { try TLECatalogue(text: "") }
        #expect(throws: TLECatalogue.FileError.empty) { try TLECatalogue(text: " \n\r\n\t\n") }
        #expect(throws: TLECatalogue.FileError.notText) { try TLECatalogue(data: Data([0xFF, 0xFE, 0x00, 0xC3])) }
        #expect(throws: TLEError(line: .first, field: nil, problem: .empty)) { try TwoLineElements("") }
        #expect(throws: TLEError(line: .second, field: nil, problem: .missingLine)) { try TwoLineElements(Self.line1) }
    }

    @Test("A catalogue reports each broken entry with its line and reads the others")
    func brokenEntries() throws {
        let broken = Self.line1.replacingOccurrences(of: "22034", with: "22035")  // checksum now wrong
        let text = [
            Self.name, Self.line1, Self.line2,  // 1–3 fine
            "GSAT0101 (PRN E11)", broken, Self.line2,  // 4–6 checksum
            "A NAME WITHOUT ELEMENTS",  // 7
            "COSMOS 2433 (720)", Self.line1, Self.line2,  // 8–10 fine
            Self.line2,  // 11: a line 2 without its line 1
            Self.line1, Self.line2,  // 12–13 fine, no name
            "BEIDOU 3 (C01)", Self.line1,  // 14–15: the file ends before line 2
        ].joined(separator: "\n")
        let catalogue = try TLECatalogue(text: text, fileName: "mixed.txt")
        #expect(catalogue.satellites.map(\.elements.name) == [Self.name.trimmingCharacters(in: .whitespaces), "COSMOS 2433 (720)", nil])
        #expect(catalogue.satellites.map(\.constellation) == [.gps, .glonass, nil])
        #expect(catalogue.errors == [
            .init(lineNumber: 4, error: TLEError(line: .first, field: .checksum, problem: .checksumMismatch(written: 7, computed: 8))),
            .init(lineNumber: 7, error: TLEError(line: .first, field: .lineNumber, problem: .notANumber("CO"))),
            .init(lineNumber: 11, error: TLEError(line: .first, field: nil, problem: .missingLine)),
            .init(lineNumber: 14, error: TLEError(line: .second, field: nil, problem: .missingLine)),
        ])
        #expect(catalogue.errors.allSatisfy { $0.description.hasPrefix("line \($0.lineNumber): ") })
        // Bare two-line sets take the constellation from the file's name.
        let bare = try TLECatalogue(text: Self.line1 + "\n" + Self.line2, fileName: "glo-ops.txt")
        #expect(bare.satellites.first?.constellation == .glonass && bare.errors.isEmpty)
    }

    @Test("Constellations from CelesTrak's names and file names")
    func constellations() {
        let names: [(String, GNSSConstellation?)] = [
            ("GPS BIIR-2 (PRN 13)", .gps), ("NAVSTAR 43 (USA 132)", .gps), ("GSAT0101 (GALILEO-PFM)", .galileo),
            ("GSAT0223", .galileo), ("COSMOS 2425 (716)", .glonass), ("GLONASS-K1", .glonass),
            ("BEIDOU-3 M1 (C19)", .beidou), ("BEIDOU 3 (C01)", .beidou), ("ISS (ZARYA)", nil), ("", nil),
        ]
        for (name, expected) in names {
            #expect(GNSSConstellation(satelliteName: name) == expected, "\(name)")
        }
        let files: [(String, GNSSConstellation?)] = [
            ("gps-ops.txt", .gps), ("/srv/tle/galileo.txt", .galileo), ("glo-ops.txt", .glonass),
            ("beidou.txt", .beidou), ("stations.txt", nil),
        ]
        for (file, expected) in files {
            #expect(GNSSConstellation(fileName: file) == expected, "\(file)")
        }
    }

    @Test("Random damage to a fixture file never crashes the reader and every set is accounted for")
    func randomDamage() throws {
        let text = Array(String(decoding: try Fixtures.data("tle/beidou.txt"), as: UTF8.self))
        var generator = SplitMix(seed: 69)
        let alphabet = Array("0123456789 .+-ABCXYZ\r\n\t\u{0}é")
        var damagedSets = 0
        for _ in 0..<300 {
            var damaged = text
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                let position = Int.random(in: 0..<damaged.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: damaged[position] = alphabet.randomElement(using: &generator) ?? " "
                case 1: damaged.remove(at: position)
                default: damaged.insert(alphabet.randomElement(using: &generator) ?? " ", at: position)
                }
            }
            let catalogue = try TLECatalogue(text: String(damaged), fileName: "beidou.txt")
            #expect(catalogue.satellites.count <= 52)
            if catalogue.satellites.count < 50 { damagedSets += 1 }
            #expect(catalogue.satellites.count + catalogue.errors.count >= 49)
            // Whatever was read must still be propagatable or refused with a typed error.
            for satellite in catalogue.satellites.prefix(3) {
                _ = try? SGP4(satellite.elements).propagate(minutesSinceEpoch: 1440)
            }
        }
        #expect(damagedSets > 250)
    }
}
