import Foundation

extension FieldPath {
    /// A path from the body of `POST /api/v1/paths`:
    /// `{"name": "…" | null (optional), "points": [[lat, lon, alt | null, unixTime], …]}`.
    ///
    /// Strict: no other keys; every point a list of exactly 4 JSON numbers (the altitude may be
    /// null), times in seconds since 1970 (fractions allowed); then the checks of
    /// ``init(name:points:)``.
    ///
    /// - Throws: ``FieldPathError``, naming the first offending point by its index.
    public static func decode(json: Data) throws(FieldPathError) -> FieldPath {
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: json)
        } catch let error as FieldPathError {
            throw error
        } catch {
            throw .notAJSONObject
        }
        return try FieldPath(name: body.name, points: body.points)
    }

    /// The body as JSON decodes it, before the checks of `init(name:points:)`.
    private struct Body: Decodable {
        var name: String?
        var points: [Point]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
            static let name = Key(stringValue: "name")
            static let points = Key(stringValue: "points")
        }

        init(from decoder: any Decoder) throws {
            let object: KeyedDecodingContainer<Key>
            do { object = try decoder.container(keyedBy: Key.self) } catch { throw FieldPathError.notAJSONObject }
            for key in object.allKeys where key.stringValue != "name" && key.stringValue != "points" {
                throw FieldPathError.unknownField(key.stringValue)
            }
            if object.contains(.name), !(try object.decodeNil(forKey: .name)) {
                do { name = try object.decode(String.self, forKey: .name) } catch { throw FieldPathError.invalidName }
            }
            guard object.contains(.points), var list = try? object.nestedUnkeyedContainer(forKey: .points) else {
                throw FieldPathError.missingPoints
            }
            if let count = list.count, count > FieldPath.maximumPointCount { throw FieldPathError.tooManyPoints(count: count) }
            let fields: [FieldPathError.Field] = [.latitude, .longitude, .altitude, .time]
            var points: [Point] = []
            while !list.isAtEnd {
                let index = points.count
                guard index < FieldPath.maximumPointCount else { throw FieldPathError.tooManyPoints(count: list.count ?? index + 1) }
                guard var tuple = try? list.nestedUnkeyedContainer() else { throw FieldPathError.notAPoint(index: index) }
                if let count = tuple.count, count != 4 { throw FieldPathError.wrongArity(index: index, count: count) }
                var values: [Double?] = []
                while !tuple.isAtEnd {
                    guard values.count < 4 else { throw FieldPathError.wrongArity(index: index, count: tuple.count ?? 5) }
                    let field = fields[values.count]
                    if field == .altitude, try tuple.decodeNil() {
                        values.append(nil)
                        continue
                    }
                    do { values.append(try tuple.decode(Double.self)) } catch {
                        throw FieldPathError.notANumber(index: index, field: field)
                    }
                }
                guard values.count == 4, let latitude = values[0], let longitude = values[1], let time = values[3] else {
                    throw FieldPathError.wrongArity(index: index, count: values.count)
                }
                points.append(Point(latitude: latitude, longitude: longitude, altitude: values[2],
                                    time: Date(timeIntervalSince1970: time)))
            }
            self.points = points
        }
    }
}
