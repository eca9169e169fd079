import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

/// Field paths (DESIGN §3.10): the strict decoding of `POST /api/v1/paths` bodies, the closed
/// polygon's area against GeographicLib (`Tests/Reference/field_path_reference.py`), and the KML
/// export validated by xmllint against the OGC KML 2.2 schema and read back by an XML parser.
@Suite struct FieldPathTests {
    static let t0 = 1_750_000_000.0

    static func body(_ points: String, name: String? = nil) -> Data {
        Data(("{" + (name.map { "\"name\": \($0), " } ?? "") + "\"points\": \(points)}").utf8)
    }

    // MARK: Decoding

    @Test func decodesABodyAsTheBrowserSendsIt() throws {
        let json = Data("""
        {"name": "  Nordacker  ", "points": [[48.2082, 16.3738, 171.5, 1750000000.25],
          [48.2083, 16.3738, null, 1750000001.25], [48.2083, 16.3739, 172, 1750000001.25]]}
        """.utf8)
        let path = try FieldPath.decode(json: json)
        #expect(path.name == "Nordacker")
        #expect(path.points.count == 3)
        #expect(path.points[0] == FieldPath.Point(latitude: 48.2082, longitude: 16.3738, altitude: 171.5,
                                                   time: Date(timeIntervalSince1970: 1_750_000_000.25)))
        #expect(path.points[1].altitude == nil)
        #expect(path.points[2].altitude == 172)
        #expect(try FieldPath.decode(json: Self.body("[[0, 0, null, 1750000000]]")).name == nil)
        #expect(try FieldPath.decode(json: Self.body("[[0, 0, null, 1750000000]]", name: "null")).name == nil)
        #expect(try FieldPath.decode(json: Self.body("[[-90, -180, -5, 946684800]]", name: "\"   \"")).name == nil)
        #expect(try FieldPath.decode(json: Self.body("[[90, 180, 0, 4102444799.5]]")).points.count == 1)
    }

    @Test(arguments: [
        ("not json", FieldPathError.notAJSONObject),
        ("[]", .notAJSONObject),
        ("\"points\"", .notAJSONObject),
        ("{}", .missingPoints),
        ("{\"points\": 5}", .missingPoints),
        ("{\"points\": {\"0\": [1, 2, 3, 1750000000]}}", .missingPoints),
        ("{\"points\": []}", .noPoints),
        ("{\"points\": [[1, 2, 3, 1750000000]], \"userId\": 7}", .unknownField("userId")),
        ("{\"name\": 5, \"points\": [[1, 2, 3, 1750000000]]}", .invalidName),
        ("{\"name\": \"a\\u0007b\", \"points\": [[1, 2, 3, 1750000000]]}", .invalidName),
        ("{\"name\": \"a\\uFFFEb\", \"points\": [[1, 2, 3, 1750000000]]}", .invalidName),
        ("{\"name\": \"" + String(repeating: "ä", count: 201) + "\", \"points\": [[1, 2, 3, 1750000000]]}", .invalidName),
        ("{\"points\": [5]}", .notAPoint(index: 0)),
        ("{\"points\": [[1, 2, 3, 1750000000], {\"lat\": 1}]}", .notAPoint(index: 1)),
        ("{\"points\": [[1, 2, null, 1750000000], [1, 2, 1750000001]]}", .wrongArity(index: 1, count: 3)),
        ("{\"points\": [[1, 2, 3, 1750000000, 5]]}", .wrongArity(index: 0, count: 5)),
        ("{\"points\": [[]]}", .wrongArity(index: 0, count: 0)),
        ("{\"points\": [[\"48\", 16, null, 1750000000]]}", .notANumber(index: 0, field: .latitude)),
        ("{\"points\": [[null, 16, null, 1750000000]]}", .notANumber(index: 0, field: .latitude)),
        ("{\"points\": [[true, 16, null, 1750000000]]}", .notANumber(index: 0, field: .latitude)),
        ("{\"points\": [[48, [16], null, 1750000000]]}", .notANumber(index: 0, field: .longitude)),
        ("{\"points\": [[48, 16, \"NaN\", 1750000000]]}", .notANumber(index: 0, field: .altitude)),
        ("{\"points\": [[48, 16, 1, null]]}", .notANumber(index: 0, field: .time)),
        ("{\"points\": [[48, 16, 1, \"2025-06-15T15:06:40Z\"]]}", .notANumber(index: 0, field: .time)),
        ("{\"points\": [[NaN, 16, 1, 1750000000]]}", .notAJSONObject),
        ("{\"points\": [[48, 16, 1, 1750000000], [90.000001, 16, 1, 1750000001]]}", .latitudeOutOfRange(index: 1)),
        ("{\"points\": [[-91, 16, 1, 1750000000]]}", .latitudeOutOfRange(index: 0)),
        ("{\"points\": [[48, -180.5, 1, 1750000000]]}", .longitudeOutOfRange(index: 0)),
        ("{\"points\": [[48, 360, 1, 1750000000]]}", .longitudeOutOfRange(index: 0)),
        ("{\"points\": [[48, 16, 1e6, 1750000000]]}", .altitudeOutOfRange(index: 0)),
        ("{\"points\": [[48, 16, 1, 1750000000000]]}", .timeOutOfRange(index: 0)),
        ("{\"points\": [[48, 16, 1, 0]]}", .timeOutOfRange(index: 0)),
        ("{\"points\": [[48, 16, 1, -1750000000]]}", .timeOutOfRange(index: 0)),
        ("{\"points\": [[48, 16, 1, 4102444800]]}", .timeOutOfRange(index: 0)),
        ("{\"points\": [[48, 16, 1, 1750000000], [48, 16, 1, 1750000002], [48, 16, 1, 1750000001.5]]}",
         .timeGoesBackwards(index: 2)),
    ])
    func refusesABrokenBody(_ json: String, _ expected: FieldPathError) {
        #expect(throws: expected) { try FieldPath.decode(json: Data(json.utf8)) }
    }

    @Test func refusesAnAbsurdNumberOrOneTooManyPoints() throws {
        // 1e999 is no Double: refused either as no JSON or as no number, never as infinity.
        do {
            _ = try FieldPath.decode(json: Self.body("[[1e999, 16, 1, 1750000000]]"))
            Issue.record("1e999 was accepted")
        } catch {
            #expect(error == .notAJSONObject || error == .notANumber(index: 0, field: .latitude))
        }
        let row = "[48.2, 16.3, 171.2, 1750000000]"
        let limit = FieldPath.maximumPointCount
        #expect(limit == 86_400)
        let full = try FieldPath.decode(json: Self.body("[" + Array(repeating: row, count: limit).joined(separator: ",") + "]"))
        #expect(full.points.count == limit)
        #expect(throws: FieldPathError.tooManyPoints(count: limit + 1)) {
            try FieldPath.decode(json: Self.body("[" + Array(repeating: row, count: limit + 1).joined(separator: ",") + "]"))
        }
        #expect(FieldPathError.tooManyPoints(count: limit + 1).description.contains("86400"))
    }

    @Test func theInitializerChecksPointsMadeInCode() {
        let time = Date(timeIntervalSince1970: Self.t0)
        #expect(throws: FieldPathError.noPoints) { try FieldPath(name: nil, points: []) }
        #expect(throws: FieldPathError.notANumber(index: 0, field: .latitude)) {
            try FieldPath(name: nil, points: [.init(latitude: .nan, longitude: 0, time: time)])
        }
        #expect(throws: FieldPathError.notANumber(index: 1, field: .altitude)) {
            try FieldPath(name: nil, points: [.init(latitude: 0, longitude: 0, time: time),
                                              .init(latitude: 0, longitude: 0, altitude: .infinity, time: time)])
        }
        #expect(throws: FieldPathError.notANumber(index: 0, field: .longitude)) {
            try FieldPath(name: nil, points: [.init(latitude: 0, longitude: -.infinity, time: time)])
        }
        #expect(FieldPathError.timeGoesBackwards(index: 2).description == "point 3 is earlier than the point before it")
    }

    // MARK: Closing and measuring

    @Test func theRingRepeatsTheStartOnceAndShortPathsHaveNoArea() throws {
        let places = [(48.0, 16.0), (48.001, 16.0), (48.001, 16.001), (48.0, 16.0), (48.0, 16.0)]
        let path = try Self.path(places)
        let ring = path.closedRing
        #expect(ring.count == 4, "the walk ended on its start twice; the ring should hold 3 corners and the start again")
        #expect(ring.first == path.points[0] && ring.last == path.points[0])
        let open = try Self.path(Array(places.prefix(3)))
        #expect(open.closedRing.count == 4)
        #expect(open.closedRing.last == open.points[0])
        let measured = try open.measure()
        let polygon = try #require(measured.polygon)
        #expect(polygon.orientation == .clockwise)
        // GeographicLib (Geodesic.WGS84.Polygon): area −4148.728747904301 m² (clockwise),
        // perimeter 319.72513112971666 m.
        #expect(abs(polygon.area - 4148.728747904301) < 1e-5)
        #expect(abs(polygon.perimeter - 319.72513112971666) < 1e-8)
        let closing = Geodesy.distance((48.001, 16.001), (48.0, 16.0))
        #expect(abs(measured.length - (polygon.perimeter - closing)) < 1e-6, "the walk is the perimeter without its closing edge")

        let one = try Self.path([(48.0, 16.0)]).measure()
        #expect(one.polygon == nil && one.length == 0)
        let there = try Self.path([(48.0, 16.0), (48.001, 16.0), (48.0, 16.0)]).measure()
        #expect(there.polygon == nil)
        #expect(abs(there.length - 2 * Geodesy.distance((48.0, 16.0), (48.001, 16.0))) < 1e-6)
    }

    // MARK: KML

    @Test func shortAndAwkwardPathsExportValidKML() async throws {
        let markup = "Feld <A&B> \"Süd\" 'Ost' & Co"
        let umlauts = "Äcker an der Öde – Grünfläche Maß"
        let cases: [(name: String?, places: [(Double, Double)])] = [
            (markup, [(48.0, 16.0)]),
            (umlauts, [(48.0, 16.0), (48.0001, 16.0)]),
            (nil, [(48.0, 16.0), (48.0001, 16.0), (48.0001, 16.0001)]),
            ("same place", [(48.0, 16.0), (48.0, 16.0), (48.0, 16.0)]),
            ("there and back", [(48.0, 16.0), (48.0001, 16.0), (48.0, 16.0)]),
            ("along one meridian", [(48.0, 16.0), (48.0001, 16.0), (48.0002, 16.0)]),
        ]
        var files: [Data] = []
        for (name, places) in cases {
            let path = try FieldPath(name: name, points: places.enumerated().map { index, place in
                .init(latitude: place.0, longitude: place.1, altitude: index == 1 ? nil : 180.25,
                      time: Date(timeIntervalSince1970: Self.t0 + Double(index)))
            })
            let kml = try path.kml()
            files.append(kml)
            let read = try KMLReadBack(kml)
            #expect(read.names == [name ?? "2025-06-15T15:06:40.000Z", name ?? "2025-06-15T15:06:40.000Z"])
            #expect(read.data["points"] == String(places.count))
            #expect(read.data["start"] == "2025-06-15T15:06:40.000Z")
            let distinct = Set(places.map { "\($0.0),\($0.1)" }).count
            switch distinct {
            case 1:
                #expect(read.point.count == 1 && read.lineString.isEmpty && read.ring.isEmpty)
                #expect(read.data["area"] == nil && read.data["perimeter"] == nil, "one place encloses no area")
            case 2:
                #expect(read.point.isEmpty && read.lineString.count == places.count && read.ring.isEmpty)
                #expect(read.data["area"] == nil && read.data["perimeter"] == nil, "a line encloses no area")
            default:
                #expect(read.ring.count == 4 && read.lineString.count == 3)
                let polygon = try #require(try path.measure().polygon)
                if name == "along one meridian" {
                    // Three places on one geodesic enclose nothing: the Polygon is kept, with area 0.
                    #expect(polygon.area < 1e-6)
                    #expect(read.data["area"] == "0")
                    #expect(read.ringText.first == read.ringText.last)
                } else {
                    try Self.expectClosedCounterClockwise(read, area: polygon.area)
                }
            }
        }
        try await Self.validate(files)
    }

    /// 100 m squares walked at 1 m/s (a point a second) clockwise and counter-clockwise in both
    /// hemispheres, across the antimeridian and near the Arctic, and a 3,600-point circle, all made
    /// by GeographicLib's direct problem; the area is GeographicLib's, and the square's is
    /// 10,000 m² within 0.5 % (issue #15's criterion for the walked square).
    @Test func walkedFieldsMeasureAsGeographicLibAndExportValidKML() async throws {
        let script = TrackReferenceTools.root.appendingPathComponent("Tests/Reference/field_path_reference.py")
        let output = try await ExternalTool.run([try TrackReferenceTools.python(), script.path, "walks"])
        let walks = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        try #require(walks.count == 6)
        var files: [Data] = []
        for walk in walks {
            let label = try #require(walk["label"] as? String)
            let rows = try #require(walk["points"] as? [Any])
            let reference = (area: try #require(walk["area"] as? Double), perimeter: try #require(walk["perimeter"] as? Double),
                             length: try #require(walk["length"] as? Double))
            let json = try JSONSerialization.data(withJSONObject: ["name": label, "points": rows])
            let path = try FieldPath.decode(json: json)
            #expect(path.points.count == rows.count)
            let measured = try path.measure()
            let polygon = try #require(measured.polygon, "\(label)")
            #expect(abs(polygon.area - abs(reference.area)) < max(1e-3, 1e-9 * abs(reference.area)),
                    "\(label): Waymark \(polygon.area) m², GeographicLib \(abs(reference.area)) m²")
            #expect(polygon.orientation == (reference.area > 0 ? .counterclockwise : .clockwise), "\(label)")
            #expect(abs(polygon.perimeter - reference.perimeter) < 1e-8 * reference.perimeter, "\(label): perimeter \(polygon.perimeter) m, GeographicLib \(reference.perimeter) m")
            #expect(abs(measured.length - reference.length) < 1e-8 * reference.length, "\(label): length \(measured.length) m, GeographicLib \(reference.length) m")
            if label.hasPrefix("100 m square") {
                #expect(abs(polygon.area - 10_000) <= 0.005 * 10_000, "\(label): \(polygon.area) m²")
                #expect(path.points.count >= 400 && path.points.count <= 401)
            }
            if label.contains("ends on the start") {
                #expect(path.closedRing.count == path.points.count, "\(label): the closing duplicate was kept")
            } else {
                #expect(path.closedRing.count == path.points.count + 1, "\(label)")
            }
            if label.contains("antimeridian") {
                #expect(path.points.contains { $0.longitude < 0 } && path.points.contains { $0.longitude > 0 })
            }

            let kml = try path.kml()
            files.append(kml)
            let read = try KMLReadBack(kml)
            #expect(read.names.first == label)
            #expect(read.lineString.count == path.points.count, "\(label): the LineString holds the walk")
            for (tuple, point) in zip(read.lineString, path.points) where abs(tuple.lat - point.latitude) > 1e-9 || abs(tuple.lon - point.longitude) > 1e-9 {
                Issue.record("\(label): the LineString is not the walk in order: \(tuple) for \(point)")
                break
            }
            #expect((read.lineString.first?.alt != nil) == (path.points[0].altitude != nil))
            #expect(read.ring.count == path.closedRing.count)
            try Self.expectClosedCounterClockwise(read, area: polygon.area)
            let hectares = try #require(read.data["areaHectares"].flatMap(Double.init))
            #expect(abs(hectares - polygon.area / 10_000) < 1e-6)
            let perimeter = try #require(read.data["perimeter"].flatMap(Double.init))
            #expect(abs(perimeter - polygon.perimeter) <= 0.005)
            // The ring as written, at 9 decimals, still measures GeographicLib's area.
            let written = try Geodesy.polygon(read.ring.map { (lat: $0.lat, lon: $0.lon) })
            #expect(abs(written.area - abs(reference.area)) < 1e-6 * abs(reference.area), "\(label): the written ring measures \(written.area) m²")
        }
        try await Self.validate(files)
    }

    // MARK: Helpers

    static func path(_ places: [(Double, Double)], name: String? = nil) throws -> FieldPath {
        try FieldPath(name: name, points: places.enumerated().map { index, place in
            .init(latitude: place.0, longitude: place.1, time: Date(timeIntervalSince1970: t0 + Double(index)))
        })
    }

    /// The KML's ring is closed, goes counter-clockwise, and its ExtendedData area is `area` (rounded to cm²).
    static func expectClosedCounterClockwise(_ read: KMLReadBack, area: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(read.ring.count >= 4, sourceLocation: sourceLocation)
        #expect(read.ringText.first == read.ringText.last, "the ring is not closed", sourceLocation: sourceLocation)
        let measure = try Geodesy.polygon(read.ring.map { (lat: $0.lat, lon: $0.lon) })
        #expect(measure.orientation == .counterclockwise, "KML wants outer boundaries counter-clockwise", sourceLocation: sourceLocation)
        let written = try #require(read.data["area"].flatMap(Double.init), "no area in ExtendedData", sourceLocation: sourceLocation)
        #expect(abs(written - area) <= 0.005, "ExtendedData area \(written) m², Geodesy.polygon \(area) m²", sourceLocation: sourceLocation)
    }

    /// Runs xmllint against the OGC KML 2.2 schema (installed by scripts/bootstrap with pykml).
    static func validate(_ documents: [Data], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let found = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/xmllint") }
        guard found else {
            throw TrackReferenceTools.Missing(description: "xmllint is not installed — run scripts/bootstrap (apt libxml2-utils)")
        }
        let lib = TrackReferenceTools.root.appendingPathComponent(".build-venv/tools/lib")
        let schema = ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? [])
            .filter { $0.hasPrefix("python") }
            .map { lib.appendingPathComponent("\($0)/site-packages/pykml/schemas/ogckml22.xsd").path }
            .first { FileManager.default.fileExists(atPath: $0) }
        guard let schema else {
            throw TrackReferenceTools.Missing(description: "the OGC KML 2.2 schema (pykml/schemas/ogckml22.xsd in .build-venv) is missing — run scripts/bootstrap")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-field-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (index, document) in documents.enumerated() {
            let file = folder.appendingPathComponent("path-\(index).kml")
            try document.write(to: file)
            files.append(file.path)
        }
        // Throws (with xmllint's messages) unless every file validates.
        try await ExternalTool.run(["xmllint", "--nonet", "--noout", "--schema", schema] + files)
    }
}

/// What a KML file says, read with Foundation's XMLParser: names, the first Polygon's ring, the
/// LineString, the Point, and ExtendedData.
struct KMLReadBack {
    struct Tuple { var lon: Double, lat: Double, alt: Double? }
    struct Malformed: Error, CustomStringConvertible { var description: String }

    var names: [String] = []
    var ringText: [String] = []
    var ring: [Tuple] = []
    var lineString: [Tuple] = []
    var point: [Tuple] = []
    var data: [String: String] = [:]

    init(_ kml: Data) throws {
        let delegate = Delegate()
        let parser = XMLParser(data: kml)
        parser.delegate = delegate
        guard parser.parse() else { throw Malformed(description: "XMLParser: \(String(describing: parser.parserError))") }
        names = delegate.names
        ringText = delegate.coordinates["LinearRing"].map(Self.words) ?? []
        ring = try ringText.map(Self.tuple)
        lineString = try (delegate.coordinates["LineString"].map(Self.words) ?? []).map(Self.tuple)
        point = try (delegate.coordinates["Point"].map(Self.words) ?? []).map(Self.tuple)
        data = delegate.data
    }

    static func words(_ text: String) -> [String] { text.split(whereSeparator: \.isWhitespace).map(String.init) }

    static func tuple(_ word: String) throws -> Tuple {
        let parts = word.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2 || parts.count == 3, let lon = parts[0], let lat = parts[1] else {
            throw Malformed(description: "not a lon,lat[,alt] tuple: \(word)")
        }
        return Tuple(lon: lon, lat: lat, alt: parts.count == 3 ? parts[2] : nil)
    }

    final class Delegate: NSObject, XMLParserDelegate {
        var stack: [String] = []
        var text = ""
        var dataName: String?
        var names: [String] = []
        var coordinates: [String: String] = [:]
        var data: [String: String] = [:]

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            stack.append(name)
            text = ""
            if name == "Data" { dataName = attributes["name"] }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            switch name {
            case "name": names.append(text)
            case "value": if let dataName { data[dataName] = text }
            case "coordinates": if let owner = stack.last, coordinates[owner] == nil { coordinates[owner] = text }
            default: break
            }
            text = ""
        }
    }
}
