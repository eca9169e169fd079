import Foundation

/// Why a field path (or the body of `POST /api/v1/paths`) was refused. Point indexes count from 0,
/// as in the JSON list; ``description`` counts from 1, as people do.
public enum FieldPathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A value of a point `[latitude, longitude, altitude, unixTime]`.
    public enum Field: String, Sendable, Equatable {
        case latitude, longitude, altitude, time
    }

    /// The body is not a JSON object.
    case notAJSONObject
    /// The body has a key other than `name` and `points`.
    case unknownField(String)
    /// The body has no `points`, or they are not a list.
    case missingPoints
    /// The name is not a string, is longer than ``FieldPath/maximumNameLength`` characters, or
    /// holds control characters.
    case invalidName
    /// The list of points is empty.
    case noPoints
    /// More than ``FieldPath/maximumPointCount`` points.
    case tooManyPoints(count: Int)
    /// The point is not a list.
    case notAPoint(index: Int)
    /// The point has `count` values instead of 4.
    case wrongArity(index: Int, count: Int)
    /// The value is not a finite number (only the altitude may be null).
    case notANumber(index: Int, field: Field)
    /// The latitude is beyond ±90°.
    case latitudeOutOfRange(index: Int)
    /// The longitude is beyond ±180°.
    case longitudeOutOfRange(index: Int)
    /// The altitude is outside ``FieldPath/altitudeRange``.
    case altitudeOutOfRange(index: Int)
    /// The time is before 2000 or from 2100 on (seconds since 1970 were expected: milliseconds land here).
    case timeOutOfRange(index: Int)
    /// The time is earlier than the previous point's.
    case timeGoesBackwards(index: Int)

    public var description: String {
        switch self {
        case .notAJSONObject: "the path is not a JSON object {\"name\", \"points\"}"
        case .unknownField(let key): "the path has an unknown field \"\(key)\""
        case .missingPoints: "the path has no list of points"
        case .invalidName: "the name must be text of at most \(FieldPath.maximumNameLength) characters without control characters"
        case .noPoints: "the path has no points"
        case .tooManyPoints(let count): "the path has \(count) points, at most \(FieldPath.maximumPointCount) (a day at one a second) are accepted"
        case .notAPoint(let index): "point \(index + 1) is not a list [latitude, longitude, altitude, unixTime]"
        case .wrongArity(let index, let count): "point \(index + 1) has \(count) values instead of 4 [latitude, longitude, altitude, unixTime]"
        case .notANumber(let index, let field): "point \(index + 1): the \(field.rawValue) is not a number"
        case .latitudeOutOfRange(let index): "point \(index + 1): the latitude is beyond ±90°"
        case .longitudeOutOfRange(let index): "point \(index + 1): the longitude is beyond ±180°"
        case .altitudeOutOfRange(let index): "point \(index + 1): the altitude is outside \(Int(FieldPath.altitudeRange.lowerBound))…\(Int(FieldPath.altitudeRange.upperBound)) m"
        case .timeOutOfRange(let index): "point \(index + 1): the time is not between 2000 and 2100 in seconds since 1970"
        case .timeGoesBackwards(let index): "point \(index + 1) is earlier than the point before it"
        }
    }
}
