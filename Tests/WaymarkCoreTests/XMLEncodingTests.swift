import Foundation
import Testing
@testable import WaymarkCore

@Suite("XML track files in other text encodings")
struct XMLEncodingTests {
    typealias T = TrackTestSupport

    /// A two-point GPX track named `name`, with `head` between the declaration and `<gpx>`.
    static func gpx(declaration: String?, name: String, comment: String = "") -> String {
        (declaration.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>\n" } ?? "") + """
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">\(comment)
        <trk><name>\(name)</name><trkseg>
        <trkpt lat="46.5" lon="13.7"><ele>1000</ele><time>2024-06-01T10:00:00Z</time></trkpt>
        <trkpt lat="46.6" lon="13.8"><ele>1001</ele><time>2024-06-01T10:00:10Z</time></trkpt>
        </trkseg></trk></gpx>

        """
    }

    /// A two-point KML gx:Track in a placemark named `name`.
    static func kml(declaration: String?, name: String, comment: String = "") -> String {
        (declaration.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>\n" } ?? "") + """
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">\(comment)<Document>
        <Placemark><name>\(name)</name><gx:Track>
        <when>2024-06-01T10:00:00Z</when><when>2024-06-01T10:00:10Z</when>
        <gx:coord>13.7 46.5 1000</gx:coord><gx:coord>13.8 46.6 1001</gx:coord>
        </gx:Track></Placemark></Document></kml>

        """
    }

    static func expectTwoFixes(_ tracks: [Track], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(tracks.count == 1, sourceLocation: sourceLocation)
        #expect(tracks.first?.fixes.map(\.latitude) == [46.5, 46.6], sourceLocation: sourceLocation)
        #expect(tracks.first?.fixes.map(\.longitude) == [13.7, 13.8], sourceLocation: sourceLocation)
    }

    static func latin1(_ text: String) throws -> Data {
        try #require(text.data(using: .isoLatin1))
    }

    /// Windows software that declares ISO-8859-1 writes € as 0x80 (Windows-1252), which strict
    /// ISO-8859-1 (and libxml2) reads as an invisible control character; browsers read €.
    @Test("A GPX declared ISO-8859-1 or Windows-1252 reads with its accented names, and 0x80 as €",
          arguments: ["ISO-8859-1", "iso-8859-1", "latin1", "windows-1252"])
    func declaredLatin1(label: String) throws {
        var data = try Self.latin1(Self.gpx(declaration: label, name: "Wörthersee Café EUR", comment: "<!-- Château Ë -->"))
        let euro = try #require(data.range(of: Data("EUR".utf8)))
        data.replaceSubrange(euro, with: [0x80])
        let tracks = try TrackFile.read(data, fileName: "old.gpx")
        Self.expectTwoFixes(tracks)
        #expect(tracks.first?.name == "Wörthersee Café €")
    }

    @Test("A Latin-1 GPX and KML without a declaration read, stray bytes in comments too, and Windows-1252's € and – come out right")
    func undeclaredLatin1() throws {
        for (file, text) in [("old.gpx", Self.gpx(declaration: nil, name: "Wörthersee Café ", comment: "<!-- Château -->")),
                             ("old.kml", Self.kml(declaration: nil, name: "Wörthersee Café ", comment: "<!-- Château -->"))] {
            var data = try Self.latin1(text)
            // "Café " → "Café €5 – ok": 0x80 is € and 0x96 is the en dash in Windows-1252.
            let marker = try #require(data.range(of: Data("Caf\u{E9} ".data(using: .isoLatin1)!)))
            data.insert(contentsOf: [0x80, 0x35, 0x20, 0x96, 0x20, 0x6F, 0x6B], at: marker.upperBound)
            let tracks = try TrackFile.read(data, fileName: file)
            Self.expectTwoFixes(tracks)
            #expect(tracks.first?.name == "Wörthersee Café €5 – ok", "\(file)")
        }
    }

    @Test("A file declared UTF-8 with a stray Latin-1 byte keeps its real UTF-8 and reads the stray byte as Latin-1")
    func mixedUTF8() throws {
        var data = Data(Self.gpx(declaration: "UTF-8", name: "Škofja Loka X", comment: "<!-- é -->").utf8)
        let x = try #require(data.range(of: Data("Loka X".utf8)))
        data[x.upperBound - 1] = 0xE9   // "X" → a Latin-1 "é"
        let comment = try #require(data.range(of: Data("<!-- ".utf8)))
        data.insert(0xFC, at: comment.upperBound)   // a lone "ü" in the comment
        let tracks = try TrackFile.read(data, fileName: "mixed.gpx")
        Self.expectTwoFixes(tracks)
        #expect(tracks.first?.name == "Škofja Loka é")
    }

    @Test("UTF-16 GPX and KML with a byte-order mark, little and big endian", arguments: [true, false])
    func utf16(bigEndian: Bool) throws {
        let bom: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        let encoding: String.Encoding = bigEndian ? .utf16BigEndian : .utf16LittleEndian
        for (file, text) in [("u.gpx", Self.gpx(declaration: "UTF-16", name: "Škofja Loka 山")),
                             ("u.kml", Self.kml(declaration: "UTF-16", name: "Škofja Loka 山"))] {
            let data = Data(bom) + (try #require(text.data(using: encoding)))
            let tracks = try TrackFile.read(data, fileName: file)
            Self.expectTwoFixes(tracks)
            #expect(tracks.first?.name == "Škofja Loka 山", "\(file)")
        }
    }

    @Test("A declared encoding Waymark does not read is refused, naming it and saying to save as UTF-8", arguments: ["Shift_JIS", "ISO-8859-2", "KOI8-R"])
    func unknownEncoding(label: String) throws {
        for (file, text) in [("x.gpx", Self.gpx(declaration: label, name: "n")), ("x.kml", Self.kml(declaration: label, name: "n"))] {
            let error = T.formatError { try TrackFile.read(Data(text.utf8), fileName: file) }
            #expect(error?.file == file)
            #expect(error?.line == 1)
            #expect(error?.message.contains(label) == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("save it as UTF-8") == true)
        }
    }

    @Test("A UTF-32 file is refused by name")
    func utf32() throws {
        var data = Data([0xFF, 0xFE, 0x00, 0x00])
        for scalar in Self.gpx(declaration: "UTF-32", name: "n").unicodeScalars {
            withUnsafeBytes(of: scalar.value.littleEndian) { data.append(contentsOf: $0) }
        }
        let error = T.formatError { try TrackFile.read(data, fileName: "wide.gpx") }
        #expect(error?.message.contains("UTF-32") == true)
    }

    /// Found by `make fuzz`: libxml2 reports `<?x?>` with no data, and XMLParser read the
    /// NULL data as a C string (a segmentation fault on a well-formed document).
    @Test("A processing instruction without data, before the root and inside it, is no crash")
    func instructionWithoutData() throws {
        let text = "<?xml version=\"1.0\"?><?xml-stylesheet?>" + Self.gpx(declaration: nil, name: "n", comment: "<?x?><?y?><!-- <?z?> -->")
        let tracks = try TrackFile.read(Data(text.utf8), fileName: "pi.gpx")
        Self.expectTwoFixes(tracks)
        #expect(tracks.first?.name == "n")
        let kml = Self.kml(declaration: "UTF-8", name: "k", comment: "<?x?>")
        Self.expectTwoFixes(try TrackFile.read(Data(kml.utf8), fileName: "pi.kml"))
    }

    /// XMLParser reads NULL as a C string for these declarations (a segmentation fault on
    /// well-formed XML); parameter entities can build them, so any internal subset is refused.
    @Test("A DOCTYPE with declarations of its own is refused with its line; one without is read", arguments: [
        "<!ATTLIST gpx extra CDATA #IMPLIED>", "<!NOTATION png SYSTEM \"image/png\">",
        "<!NOTATION n PUBLIC \"p\"><!ENTITY pic SYSTEM \"a.png\" NDATA n>",
        "<!ENTITY % d \"<!ATTLIST gpx a CDATA #IMPLIED>\"> %d;",
        "<!ENTITY a \"lol\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">",
    ])
    func internalSubset(declarations: String) throws {
        let text = "<?xml version=\"1.0\"?>\n<!-- exported -->\n<!DOCTYPE gpx [\(declarations)]>\n" + Self.gpx(declaration: nil, name: "n")
        let error = T.formatError { try TrackFile.read(Data(text.utf8), fileName: "dtd.gpx") }
        #expect(error?.line == 3)
        #expect(error?.message.contains("<!DOCTYPE") == true)
        let kml = "<!DOCTYPE kml [\(declarations)]>" + Self.kml(declaration: nil, name: "k")
        #expect(T.formatError { try TrackFile.read(Data(kml.utf8), fileName: "dtd.kml") }?.line == 1)
    }

    @Test("A DOCTYPE that only names an external DTD (never loaded) is read")
    func externalDoctype() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx SYSTEM \"http://example.com/[gpx].dtd\">\n" + Self.gpx(declaration: nil, name: "n")
        Self.expectTwoFixes(try TrackFile.read(Data(text.utf8), fileName: "ext.gpx"))
    }

    /// The reported crash: XMLParser trapped (SIGILL) on such bytes in names, comments and PIs.
    @Test("Every byte 0x80–0xFF in an element name, attribute, comment or processing instruction of GPX and KML: no crash",
          arguments: ["element", "attribute", "comment", "instruction"])
    func everyHighByte(place: String) throws {
        for byte in UInt8(0x80)...UInt8(0xFF) {
            for (file, text) in [("b.gpx", Self.gpx(declaration: nil, name: "n")), ("b.kml", Self.kml(declaration: "UTF-8", name: "n"))] {
                let insert: [UInt8] = switch place {
                case "element": Array("<x".utf8) + [byte] + Array("/>".utf8)
                case "attribute": Array("<x a".utf8) + [byte] + Array("=\"1\" b=\"".utf8) + [byte] + Array("\"/>".utf8)
                case "comment": Array("<!-- ".utf8) + [byte] + Array(" -->".utf8)
                default: Array("<?pi".utf8) + [byte] + Array(" d".utf8) + [byte] + Array("?>".utf8)
                }
                var data = Data(text.utf8)
                let anchor = try #require(data.range(of: Data("<name>".utf8)))
                data.insert(contentsOf: insert, at: anchor.lowerBound)
                do {
                    let tracks = try TrackFile.read(data, fileName: file)
                    Self.expectTwoFixes(tracks)
                } catch let error as TrackFormatError {
                    // A byte that stands for a character no XML name may hold is a syntax error;
                    // a comment takes any character.
                    #expect(place != "comment", "\(file) 0x\(String(byte, radix: 16)): \(error)")
                }
            }
        }
    }
}
