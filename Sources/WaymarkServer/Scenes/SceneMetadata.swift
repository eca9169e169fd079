import Foundation
import WaymarkAPI
import WaymarkCore

/// What the `metadata` part of a scene's upload says (DESIGN §3.9), checked; the reason of a
/// refusal names the field and what it must be.
struct SceneMetadata: Sendable, Equatable {
    var name: String?
    var latitude: Double?
    var longitude: Double?
    var accuracy: Double?
    var capturedAt: Date
    /// The zone of `capturedAt` in seconds east of UTC, when it was written with one.
    var capturedAtOffset: Int?
    var attitude: Quaternion
    var heading: Double?

    /// Why metadata was refused.
    struct Problem: Error, Equatable {
        var reason: String
    }

    /// The largest `metadata` part read, in bytes.
    static let maxBytes = 16_384

    /// A new scene's metadata: `latitude` and `longitude` are required, `name` may be given.
    static func scene(_ text: String) throws(Problem) -> SceneMetadata {
        let object = try object(text)
        var metadata = try common(object)
        guard metadata.latitude != nil, metadata.longitude != nil else {
            throw Problem(reason: "metadata needs latitude and longitude: where the photographer stood (the pin).")
        }
        if let value = object["name"], value != .null {
            guard case .string(let raw) = value else { throw Problem(reason: "name must be a string.") }
            let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard name.unicodeScalars.count <= 200, !AccountRules.hasControlCharacters(raw) else {
                throw Problem(reason: "name must be at most 200 characters, with no control characters.")
            }
            metadata.name = name.isEmpty ? nil : name
        }
        return metadata
    }

    /// A rephotograph's metadata: `latitude` and `longitude` together or neither.
    static func rephotograph(_ text: String) throws(Problem) -> SceneMetadata {
        try common(try object(text))
    }

    private static func object(_ text: String) throws(Problem) -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw Problem(reason: "metadata is not valid JSON; send a JSON object such as {\"latitude\": 49.19, \"longitude\": 16.61, \"capturedAt\": \"2026-06-01T10:00:00+02:00\", \"attitude\": {\"w\": 1, \"x\": 0, \"y\": 0, \"z\": 0}}.")
        }
        guard case .object(let object) = value else { throw Problem(reason: "metadata must be a JSON object.") }
        return object
    }

    private static func common(_ object: [String: JSONValue]) throws(Problem) -> SceneMetadata {
        func number(_ key: String, _ range: ClosedRange<Double>) throws(Problem) -> Double? {
            switch object[key] {
            case nil, .null?: return nil
            case .number(let value)? where value.isFinite && range.contains(value): return value
            default: throw Problem(reason: "\(key) must be a number from \(range.lowerBound) to \(range.upperBound).")
            }
        }
        let latitude = try number("latitude", -90...90), longitude = try number("longitude", -180...180)
        guard (latitude == nil) == (longitude == nil) else { throw Problem(reason: "latitude and longitude go together: give both or neither.") }
        let capturedAt: Date, offset: Int?
        switch object["capturedAt"] {
        case .string(let text)?:
            guard let (date, zoneOffset) = InternetTime.read(text), PhotoFields.captureYears.contains(date) else {
                throw Problem(reason: "capturedAt must be an ISO 8601 time with its zone from the year 1 to 9999, e.g. 2026-06-01T10:00:00+02:00.")
            }
            capturedAt = date
            offset = zoneOffset
        case nil, .null?:
            throw Problem(reason: "metadata needs capturedAt: when the photo was taken, e.g. 2026-06-01T10:00:00+02:00.")
        default:
            throw Problem(reason: "capturedAt must be an ISO 8601 time with its zone from the year 1 to 9999, e.g. 2026-06-01T10:00:00+02:00.")
        }
        guard case .object(let parts)? = object["attitude"] else {
            throw Problem(reason: "metadata needs attitude: the phone's attitude as a unit quaternion {\"w\", \"x\", \"y\", \"z\"}.")
        }
        var components: [Double] = []
        for key in ["w", "x", "y", "z"] {
            guard case .number(let value)? = parts[key], value.isFinite else {
                throw Problem(reason: "attitude.\(key) must be a number: the attitude is a unit quaternion {\"w\", \"x\", \"y\", \"z\"}.")
            }
            components.append(value)
        }
        let norm = components.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard abs(norm - 1) <= Quaternion.unitTolerance,
              let attitude = Quaternion(w: components[0], x: components[1], y: components[2], z: components[3])
        else {
            throw Problem(reason: "attitude must be a unit quaternion (its norm 1 within \(Quaternion.unitTolerance)); this one's norm is \(norm).")
        }
        return SceneMetadata(name: nil, latitude: latitude, longitude: longitude, accuracy: try number("accuracy", 0...100_000),
                             capturedAt: capturedAt, capturedAtOffset: offset, attitude: attitude, heading: try number("heading", 0...360))
    }
}

/// Any JSON value, so that metadata is checked field by field with a reason for each.
enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
