import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

/// The geometry table (`Tests/Conformance/geometry/*.json`), written from GeographicLib and an
/// independent numpy/scipy centroid by `Tests/Reference/geodesic_reference.py`; the browser's
/// `Web/inspection/geometry.js` runs the same files (`Tests/Web/unit/geometry-conformance.test.mjs`).
///
/// Strict on purpose: a missing file, an empty list or an unknown key fails, never passes.
enum GeometryTable {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static let folder = TrackReferenceTools.root.appendingPathComponent("Tests/Conformance/geometry")
    static let script = TrackReferenceTools.root.appendingPathComponent("Tests/Reference/geodesic_reference.py")

    /// One file's outline checked: `title`, `note`, the list under `listKey` and `refused`, both not empty.
    static func book(_ name: String, _ listKey: String) throws -> (cases: [[String: JSON]], refused: [[String: JSON]]) {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        let json = try JSONDecoder().decode(JSON.self, from: data)
        let top = try object(json, required: ["title", "note", listKey, "refused"], where: name)
        let cases = try (top[listKey]?.array ?? []).map { try object($0, where: "\(name) \(listKey)") }
        let refused = try (top["refused"]?.array ?? []).map { try object($0, where: "\(name) refused") }
        guard !cases.isEmpty, !refused.isEmpty else { throw Malformed(description: "\(name): an empty list") }
        return (cases, refused)
    }

    static func object(_ json: JSON, required: [String] = [], optional: [String] = [], where place: String) throws -> [String: JSON] {
        guard let object = json.object else { throw Malformed(description: "\(place): expected an object") }
        if !required.isEmpty || !optional.isEmpty {
            for key in object.keys where !required.contains(key) && !optional.contains(key) {
                throw Malformed(description: "\(place): unknown key \"\(key)\"")
            }
            for key in required where object[key] == nil { throw Malformed(description: "\(place): missing key \"\(key)\"") }
        }
        return object
    }

    /// A number, or one JSON cannot write: "NaN", "Infinity", "-Infinity".
    static func number(_ json: JSON?, _ place: String) throws -> Double {
        switch json {
        case .number(let value)?: return value
        case .string("NaN")?: return .nan
        case .string("Infinity")?: return .infinity
        case .string("-Infinity")?: return -.infinity
        default: throw Malformed(description: "\(place): expected a number")
        }
    }

    static func points(_ json: JSON?, _ place: String) throws -> [(lat: Double, lon: Double)] {
        guard let list = json?.array else { throw Malformed(description: "\(place): points must be a list") }
        return try list.map { point in
            guard let pair = point.array, pair.count == 2 else { throw Malformed(description: "\(place): a point must be [latitude, longitude]") }
            return (try number(pair[0], place), try number(pair[1], place))
        }
    }

    /// The typed outcome a refused case names.
    static func error(_ object: [String: JSON], _ place: String) throws -> Geodesy.GeometryError {
        let index = try object["index"].map { Int(try number($0, place)) }
        let distinct = try object["distinct"].map { Int(try number($0, place)) }
        switch (object["error"]?.string, index, distinct) {
        case ("noPoints", nil, nil): return .noPoints
        case ("tooFewPoints", nil, let distinct?): return .tooFewPoints(distinct: distinct)
        case ("invalidPoint", let index?, nil): return .invalidPoint(index: index)
        default: throw Malformed(description: "\(place): unknown error \(object["error"].debugDescription)")
        }
    }

    /// Runs the reference script's `check` on a request and decodes its answer.
    static func reference<Answer: Decodable>(_ request: some Encodable, as: Answer.Type) async throws -> Answer {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-geometry-\(UUID().uuidString).json")
        try JSONEncoder().encode(request).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await ExternalTool.run([try TrackReferenceTools.python(), script.path, "check", file.path])
        return try JSONDecoder().decode(Answer.self, from: output)
    }
}

@Suite("Geodesic polygon area and perimeter on WGS-84, against GeographicLib")
struct GeodesicAreaTests {
    @Test("Every polygon of the shared table: area, perimeter and orientation as GeographicLib (and its published values)")
    func table() throws {
        let book = try GeometryTable.book("polygons.json", "polygons")
        for entry in book.cases {
            let name = entry["name"]?.string ?? "?"
            let c = try GeometryTable.object(.object(entry), required: ["name", "points", "area", "perimeter", "orientation", "areaWithin", "perimeterWithin"],
                                             optional: ["published", "note"], where: name)
            let measure = try Geodesy.polygon(try GeometryTable.points(c["points"], name))
            let area = try GeometryTable.number(c["area"], name), perimeter = try GeometryTable.number(c["perimeter"], name)
            #expect(abs(measure.area - area) <= (try GeometryTable.number(c["areaWithin"], name)), "\(name): \(measure.area) m², GeographicLib \(area) m²")
            #expect(abs(measure.perimeter - perimeter) <= (try GeometryTable.number(c["perimeterWithin"], name)), "\(name): \(measure.perimeter) m, GeographicLib \(perimeter) m")
            #expect(measure.orientation.rawValue == c["orientation"]?.string, "\(name): \(measure.orientation)")
            if let published = c["published"] {
                let p = try GeometryTable.object(published, required: ["area", "areaWithin", "perimeter", "perimeterWithin", "source"], where: "\(name) published")
                #expect(abs(measure.area - (try GeometryTable.number(p["area"], name))) <= (try GeometryTable.number(p["areaWithin"], name)), "\(name): \(measure.area) m² against the published value")
                #expect(abs(measure.perimeter - (try GeometryTable.number(p["perimeter"], name))) <= (try GeometryTable.number(p["perimeterWithin"], name)), "\(name): \(measure.perimeter) m against the published value")
            }
        }
    }

    @Test("Points without an area are refused with a typed reason: too few places, NaN, latitudes beyond the poles, infinities")
    func refused() throws {
        let book = try GeometryTable.book("polygons.json", "polygons")
        for entry in book.refused {
            let name = entry["name"]?.string ?? "?"
            let c = try GeometryTable.object(.object(entry), required: ["name", "points", "error"], optional: ["index", "distinct", "note"], where: name)
            let expected = try GeometryTable.error(c, name)
            let points = try GeometryTable.points(c["points"], name)
            #expect(throws: expected, "\(name)") { try Geodesy.polygon(points) }
        }
    }

    @Test("An edge between nearly antipodal points is refused, not measured wrongly")
    func antipodalEdge() {
        #expect(throws: Geodesy.GeometryError.unresolvedEdge(index: 0)) { try Geodesy.polygon([(0, 0), (0, 179.9), (1, 90)]) }
    }

    struct PolygonAnswer: Decodable {
        var area: Double
        var perimeter: Double
        var orientation: String
    }

    struct Answers: Decodable {
        var polygons: [PolygonAnswer]
    }

    struct Request: Encodable {
        var polygons: [[[Double]]]
        var hulls: [[[Double]]]
    }

    /// Seeded random polygons: stars of 3–12 vertices from 10 m to 1,000 km anywhere (some across
    /// the antimeridian), rings round either pole, and walked paths of 300–600 points; either way
    /// round, some with the first point repeated at the end.
    static func randomPolygons(count: Int) -> [[(lat: Double, lon: Double)]] {
        var random = SplitMix(seed: 15_003)
        var polygons: [[(lat: Double, lon: Double)]] = []
        for index in 0..<count {
            var points: [(lat: Double, lon: Double)] = []
            if index % 10 == 0 {
                let lat = Double.random(in: 60...88, using: &random) * (Bool.random(using: &random) ? 1 : -1)
                let n = Int.random(in: 5...12, using: &random)
                let start = Double.random(in: -180...180, using: &random)
                for i in 0..<n {
                    let lon = start + 360 * Double(i) / Double(n) + Double.random(in: -5...5, using: &random)
                    points.append((lat + Double.random(in: -1...1, using: &random), lon))
                }
            } else {
                let lat = Double.random(in: -80...80, using: &random)
                let lon = index % 7 == 0 ? 180 + Double.random(in: -0.5...0.5, using: &random) : Double.random(in: -180...180, using: &random)
                let walk = index % 25 == 1
                let scale = walk ? 50 : pow(10, Double.random(in: 1...6, using: &random))
                let n = walk ? Int.random(in: 300...600, using: &random) : Int.random(in: 3...12, using: &random)
                var angles = (0..<n).map { _ in Double.random(in: 0..<(2 * Double.pi), using: &random) }
                if walk { angles = (0..<n).map { 2 * Double.pi * Double($0) / Double(n) } }
                angles.sort()
                for angle in angles {
                    let r = walk ? scale + Double.random(in: -0.3...0.3, using: &random) : scale * Double.random(in: 0.4...1, using: &random)
                    let pLat = min(89, max(-89, lat + r * cos(angle) / 111_320))
                    points.append((pLat, lon + r * sin(angle) / (111_320 * cos(lat * Double.pi / 180))))
                }
            }
            if Bool.random(using: &random) { points.reverse() }
            if index % 4 == 3, let first = points.first { points.append(first) }
            polygons.append(points)
        }
        return polygons
    }

    /// GeographicLib's own round-off is about 15 nm per line, so a path of hundreds of short edges
    /// is allowed 10 µm of perimeter.
    @Test("300 seeded random polygons agree with geographiclib's Geodesic.WGS84.Polygon (0.001 m² or 1e-11, 10 µm or 1e-12)")
    func randomAgainstGeographicLib() async throws {
        let polygons = Self.randomPolygons(count: 300)
        let request = Request(polygons: polygons.map { $0.map { [$0.lat, $0.lon] } }, hulls: [])
        let answers = try await GeometryTable.reference(request, as: Answers.self)
        try #require(answers.polygons.count == polygons.count)
        var failures = 0
        for (points, reference) in zip(polygons, answers.polygons) {
            let measure = try Geodesy.polygon(points)
            let areaOK = abs(measure.area - reference.area) <= max(0.001, 1e-11 * reference.area)
            let perimeterOK = abs(measure.perimeter - reference.perimeter) <= max(1e-5, 1e-12 * reference.perimeter)
            let orientationOK = measure.orientation.rawValue == reference.orientation
            if !(areaOK && perimeterOK && orientationOK) {
                failures += 1
                if failures <= 5 {
                    Issue.record("\(points.count) points from \(points[0]): Waymark \(measure.area) m², \(measure.perimeter) m, \(measure.orientation); geographiclib \(reference.area) m², \(reference.perimeter) m, \(reference.orientation)")
                }
            }
        }
        #expect(failures == 0, "\(failures) of \(polygons.count) polygons differ from geographiclib")
    }

    @Test("A walked 100 m × 100 m field reads about 10,000 m² whichever way round and wherever it starts")
    func walkedField() throws {
        // Corners of the table's Brno square: 100 m east, then 100 m north from both ends (GeographicLib's Direct).
        let corners: [(lat: Double, lon: Double)] = [(49.1951, 16.6068), (49.1950999918509, 16.608172013705484),
                                                     (49.19599916306261, 16.608172013705484), (49.1959991712117, 16.6068)]
        let forward = try Geodesy.polygon(corners)
        let backward = try Geodesy.polygon(corners.reversed())
        let rotated = try Geodesy.polygon(Array(corners[2...] + corners[..<2]))
        #expect(abs(forward.area - 10_000) < 1)
        #expect(forward.orientation == .counterclockwise && backward.orientation == .clockwise)
        #expect(abs(forward.area - backward.area) < 1e-6 && abs(forward.area - rotated.area) < 1e-6)
        #expect(abs(forward.perimeter - 400) < 0.1)
    }
}
