import Foundation
import Testing
@testable import WaymarkCore

/// The gazetteer's CSV reader on small files, good and hostile.
@Suite("Gazetteer CSV")
struct GazetteerParserTests {
    static let header = "lat,lon,name,admin1,admin2,cc\r\n"
    static let brno = "49.19522,16.60796,Brno,South Moravian,Mesto Brno,CZ\r\n"

    /// Reads `text` (UTF-8) as a gazetteer file.
    static func read(_ text: String) throws(GazetteerError) -> Gazetteer {
        try Gazetteer(csv: Data(text.utf8), fileName: "cities.csv")
    }

    /// The error reading `bytes` gives; fails the test when there is none.
    static func failure(_ bytes: Data, sourceLocation: SourceLocation = #_sourceLocation) -> GazetteerError? {
        do throws(GazetteerError) {
            let gazetteer = try Gazetteer(csv: bytes, fileName: "cities.csv")
            Issue.record("read \(gazetteer.count) places from a broken file", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    static func failure(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> GazetteerError? {
        failure(Data(text.utf8), sourceLocation: sourceLocation)
    }

    @Test("A well-formed file: CRLF or LF, quoted commas and quotes, UTF-8, a BOM, blank lines, no final newline")
    func wellFormed() throws {
        let text = "\u{FEFF}" + Self.header + Self.brno
            + "-33.46069,-70.58024,\"Villa Presidente Frei, Nunoa, Santiago, Chile\",Santiago Metropolitan,Provincia de Santiago,CL\n"
            + "\r\n"
            + "6.2,124.83333,\"T\"\"boli\",Davao,,PH\r\n"
            + "47.37689,8.54169,Zürich,\"\",District of Zurich,CH\n"
            + "6.75,38.41667,Yirga `Alem,\"Southern Nations, Nationalities, and People's Region\",,ET"
        let gazetteer = try Self.read(text)
        let places = gazetteer.places.sorted { $0.line < $1.line }
        #expect(places.map(\.line) == [2, 3, 5, 6, 7])
        #expect(places.map(\.name) == ["Brno", "Villa Presidente Frei, Nunoa, Santiago, Chile", "T\"boli", "Zürich", "Yirga `Alem"])
        #expect(places[0] == Gazetteer.Place(name: "Brno", admin1: "South Moravian", admin2: "Mesto Brno", countryCode: "CZ",
                                             latitude: 49.19522, longitude: 16.60796, line: 2))
        #expect(places[3].admin1 == "" && places[3].admin2 == "District of Zurich")
        #expect(places[4].admin1 == "Southern Nations, Nationalities, and People's Region" && places[4].countryCode == "ET")
    }

    @Test("Rows without a name are left out; the rest are kept")
    func unnamedRows() throws {
        let gazetteer = try Self.read(Self.header + "51.85905,58.22136,,Bashkortostan,,RU\r\n" + Self.brno)
        #expect(gazetteer.count == 1)
        #expect(gazetteer.places.first?.line == 3)
        let none = Self.failure(Self.header + "51.85905,58.22136,,Bashkortostan,,RU\r\n")
        #expect(none == GazetteerError(file: "cities.csv", problem: .noPlaces))
    }

    @Test("Empty files, a wrong header and a header alone are refused")
    func emptyAndHeader() {
        #expect(Self.failure(Data()) == GazetteerError(file: "cities.csv", problem: .empty))
        #expect(Self.failure(Data([0xEF, 0xBB, 0xBF])) == GazetteerError(file: "cities.csv", problem: .empty))
        #expect(Self.failure("latitude,longitude,name,admin1,admin2,cc\n" + Self.brno)
            == GazetteerError(file: "cities.csv", line: 1, problem: .header(found: "latitude,longitude,name,admin1,admin2,cc")))
        #expect(Self.failure("lat,lon,name,admin1,cc\n")?.problem == .header(found: "lat,lon,name,admin1,cc"))
        #expect(Self.failure(" lat,lon,name,admin1,admin2,cc\n")?.line == 1)
        #expect(Self.failure(Self.brno)?.line == 1)
        #expect(Self.failure(Self.header) == GazetteerError(file: "cities.csv", problem: .noPlaces))
        #expect(Self.failure(Self.header + "\r\n\n") == GazetteerError(file: "cities.csv", problem: .noPlaces))
    }

    @Test("Coordinates that are not a position are refused with the line: latitude 91, NaN, inf, hex, spaces, empty")
    func badCoordinates() {
        func expectError(_ row: String, _ problem: GazetteerError.Problem, sourceLocation: SourceLocation = #_sourceLocation) {
            // A good row first, so that the line number must be counted, not assumed.
            let error = Self.failure(Self.header + Self.brno + row + "\r\n" + Self.brno, sourceLocation: sourceLocation)
            #expect(error == GazetteerError(file: "cities.csv", line: 3, problem: problem), sourceLocation: sourceLocation)
        }
        expectError("91,16.6,Nowhere,,,CZ", .latitude("91"))
        expectError("-90.0001,16.6,Nowhere,,,AQ", .latitude("-90.0001"))
        expectError("NaN,16.6,Nowhere,,,CZ", .latitude("NaN"))
        expectError("nan,16.6,Nowhere,,,CZ", .latitude("nan"))
        expectError("inf,16.6,Nowhere,,,CZ", .latitude("inf"))
        expectError("0x1p3,16.6,Nowhere,,,CZ", .latitude("0x1p3"))
        expectError(" 49.1,16.6,Nowhere,,,CZ", .latitude(" 49.1"))
        expectError(",16.6,Nowhere,,,CZ", .latitude(""))
        expectError("49.1.2,16.6,Nowhere,,,CZ", .latitude("49.1.2"))
        expectError("1e999,16.6,Nowhere,,,CZ", .latitude("1e999"))
        expectError("49.1,180.5,Nowhere,,,CZ", .longitude("180.5"))
        expectError("49.1,-,Nowhere,,,CZ", .longitude("-"))
        expectError("49.1,16.6e,Nowhere,,,CZ", .longitude("16.6e"))
        expectError("49.1,16.6,Nowhere,,,cz", .countryCode("cz"))
        expectError("49.1,16.6,Nowhere,,,CZE", .countryCode("CZE"))
        expectError("49.1,16.6,Nowhere,,,", .countryCode(""))
        // The limits themselves are positions; so are signs and exponents.
        #expect(throws: Never.self) {
            try Self.read(Self.header + "90,180,North,,,AQ\n-90,-180,South,,,AQ\n+4.9e1,1.66E+1,Exp,,,CZ\n")
        }
    }

    @Test("Broken rows are refused with their line: field counts, quotes, control characters, bad UTF-8")
    func brokenRows() {
        func expectError(_ body: String, line: Int = 3, _ problem: GazetteerError.Problem, sourceLocation: SourceLocation = #_sourceLocation) {
            let error = Self.failure(Self.header + Self.brno + body, sourceLocation: sourceLocation)
            #expect(error == GazetteerError(file: "cities.csv", line: line, problem: problem), sourceLocation: sourceLocation)
        }
        expectError("49.1,16.6,Brno,South Moravian,CZ\n", .fieldCount(found: 5))
        expectError("49.1,16.6,Brno,South Moravian,Mesto Brno,CZ,extra\n", .fieldCount(found: 7))
        expectError("garbage\n", .fieldCount(found: 1))
        // A quoted field cut short by the end of the file, and one whose line ends before the quote closes.
        expectError("49.1,16.6,\"Brno", .unclosedQuote)
        expectError("49.1,16.6,\"Brno,South Moravian,,CZ\r\n" + Self.brno + "49.1,16.6,Brno\",x,,CZ\n", .unclosedQuote)
        expectError("49.1,16.6,\"", .unclosedQuote)
        expectError("49.1,16.6,\"Br\"no,South Moravian,,CZ\n", .textAfterQuote)
        expectError("49.1,16.6,Br\"no,South Moravian,,CZ\n", .quoteInUnquotedField)
        expectError("49.1,16.6,Br\tno,South Moravian,,CZ\n", .controlCharacter)
        expectError("49.1,16.6,Br\u{0}no,South Moravian,,CZ\n", .controlCharacter)
        expectError("49.1,16.6,Brno\rXY,South Moravian,,CZ\n", .controlCharacter)
        var bytes = Data((Self.header + Self.brno + "49.1,16.6,Br").utf8)
        bytes.append(contentsOf: [0xC3, 0x28])   // a lead byte without its continuation
        bytes.append(contentsOf: Data("no,South Moravian,,CZ\n".utf8))
        #expect(Self.failure(bytes) == GazetteerError(file: "cities.csv", line: 3, problem: .notUTF8))
        var latin1 = Data((Self.header + "47.37689,8.54169,Z").utf8)
        latin1.append(0xFC)   // ü in ISO 8859-1
        latin1.append(contentsOf: Data("rich,Zurich,,CH\n".utf8))
        #expect(Self.failure(latin1) == GazetteerError(file: "cities.csv", line: 2, problem: .notUTF8))
    }

    @Test("A 10 MB line is refused at once, quoted or not, commas or letters")
    func hugeLine() {
        let limit = Gazetteer.maximumLineLength
        let letters = String(repeating: "A", count: 10_000_000)
        let commas = String(repeating: ",", count: 10_000_000)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(Self.failure(Self.header + Self.brno + "49.1,16.6," + letters + ",,,CZ\n") == GazetteerError(file: "cities.csv", line: 3, problem: .lineTooLong(limit: limit)))
        #expect(Self.failure(Self.header + Self.brno + "49.1,16.6,\"" + letters + "\",,,CZ\n")?.problem == .lineTooLong(limit: limit))
        #expect(Self.failure(Self.header + commas)?.problem == .lineTooLong(limit: limit))
        #expect(Self.failure(letters + "\n" + Self.brno)?.line == 1)
        #expect(clock.now - start < .seconds(10))
    }

    @Test("A file that cannot be read says so, with its name")
    func unreadable() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-gazetteer-\(UUID().uuidString).csv")
        do throws(GazetteerError) {
            _ = try Gazetteer(contentsOf: url)
            Issue.record("read a file that does not exist")
        } catch {
            #expect(error.file == url.lastPathComponent)
            guard case .unreadable = error.problem else {
                Issue.record("expected .unreadable, got \(error.problem)")
                return
            }
            #expect(error.description.hasPrefix("\(url.lastPathComponent): cannot be read"))
        }
    }

    @Test("Error descriptions name the file and line and say what to do")
    func descriptions() throws {
        let error = try #require(Self.failure(Self.header + Self.brno + "91,16.6,Nowhere,,,CZ\n"))
        #expect(error.description.hasPrefix("cities.csv:3: has the latitude \"91\""))
        #expect(error.description.contains("WAYMARK_GAZETTEER"))
        #expect(GazetteerError(file: "cities.csv", problem: .empty).description.hasPrefix("cities.csv: is empty"))
    }
}
