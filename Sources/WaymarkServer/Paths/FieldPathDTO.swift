import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore

/// A field path as the API answers it: `{id, name, area, perimeter, length, pointCount,
/// startedAt, endedAt, createdAt, kml}` and, for one path, `points` as they were sent.
/// Absent measures are `null`, never left out, so that every answer has the same keys.
struct FieldPathDTO: Encodable, Sendable {
    var id: String
    var name: String?
    var area: Double?
    var perimeter: Double?
    var length: Double
    var pointCount: Int
    @UTCTime var startedAt: Date
    @UTCTime var endedAt: Date
    @UTCTime var createdAt: Date
    /// Where the KML export is.
    var kml: String

    init(_ path: StoredFieldPath) {
        id = path.id.uuidString.lowercased()
        name = path.name
        area = path.area
        perimeter = path.perimeter
        length = path.length
        pointCount = path.pointCount
        startedAt = path.startedAt
        endedAt = path.endedAt
        createdAt = path.createdAt
        kml = "/api/v1/paths/\(id).kml"
    }

    enum CodingKeys: String, CodingKey { case id, name, area, perimeter, length, pointCount, startedAt, endedAt, createdAt, kml }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(area, forKey: .area)
        try container.encode(perimeter, forKey: .perimeter)
        try container.encode(length, forKey: .length)
        try container.encode(pointCount, forKey: .pointCount)
        try container.encode(_startedAt, forKey: .startedAt)
        try container.encode(_endedAt, forKey: .endedAt)
        try container.encode(_createdAt, forKey: .createdAt)
        try container.encode(kml, forKey: .kml)
    }

    /// The JSON of this path with its stored points (`[[lat, lon, alt | null, unixTime], …]`,
    /// already JSON text) added as `points`, without decoding and encoding them again.
    static func json(_ path: StoredFieldPath) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        var object = try encoder.encode(FieldPathDTO(path))
        guard let points = path.points, object.last == UInt8(ascii: "}") else { return object }
        object.removeLast()
        object.append(contentsOf: Data(#","points":"#.utf8))
        object.append(contentsOf: Data(points.utf8))
        object.append(UInt8(ascii: "}"))
        return object
    }
}

/// `GET /api/v1/paths`: the user's paths, newest first, without their points.
struct FieldPathList: Encodable, Sendable {
    var items: [FieldPathDTO]
}
