import Foundation

/// The JSON inside a route envelope (DESIGN §3.2).
///
/// `{"v":1,"nonce":"…","qrPeriod":5,"tracks":[[[lat,lon,alt,accuracy,fixTime],…],…]}`, with
/// `alt` and `accuracy` possibly `null` and `fixTime` in Unix seconds with fractions. Readers
/// also accept the bare array of tracks of the original specification. Track names are not
/// part of the format.
public enum RoutePlaintext {
    /// The route as plaintext JSON; `nonce` and `qrPeriod` are left out when unknown.
    ///
    /// Numbers are written in their shortest exact form; a non-finite number becomes `null`.
    public static func encode(_ route: Route) -> Data {
        var parts = [#""v":1"#]
        if let nonce = route.nonce { parts.append(#""nonce":"# + jsonString(nonce)) }
        if let qrPeriod = route.qrPeriod { parts.append(#""qrPeriod":"# + number(qrPeriod)) }
        let tracks = route.tracks.map { track in
            "[" + track.fixes.map { fix in
                "[" + [number(fix.latitude), number(fix.longitude), number(fix.altitude), number(fix.accuracy),
                       number(fix.time.timeIntervalSince1970)].joined(separator: ",") + "]"
            }.joined(separator: ",") + "]"
        }
        parts.append(#""tracks":["# + tracks.joined(separator: ",") + "]")
        return Data(("{" + parts.joined(separator: ",") + "}").utf8)
    }

    /// Reads either plaintext form.
    ///
    /// - Throws: ``RouteEnvelopeError/malformedPlaintext(path:reason:)`` naming the place at fault.
    public static func decode(_ data: Data) throws -> Route {
        let decoder = JSONDecoder()
        do {
            if data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) == UInt8(ascii: "[") {
                return Route(tracks: try decoder.decode([[FixRow]].self, from: data).map(track))
            }
            let object = try decoder.decode(Object.self, from: data)
            return Route(nonce: object.nonce, qrPeriod: object.qrPeriod, tracks: object.tracks.map(track))
        } catch let error as DecodingError {
            guard case let .malformed(field, reason) = RouteEnvelopeError(error) else { throw error }
            throw RouteEnvelopeError.malformedPlaintext(path: field, reason: reason)
        }
    }

    private static func track(_ rows: [FixRow]) -> Track { Track(fixes: rows.map(\.fix)) }

    /// The object form.
    private struct Object: Decodable {
        var nonce: String?
        var qrPeriod: Double?
        var tracks: [[FixRow]]

        enum CodingKeys: String, CodingKey { case v, nonce, qrPeriod, tracks }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let v = try container.decode(Int.self, forKey: .v)
            guard v == 1 else {
                throw DecodingError.dataCorruptedError(forKey: .v, in: container, debugDescription: "is \(v); this version of Waymark reads version 1")
            }
            nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
            qrPeriod = try container.decodeIfPresent(Double.self, forKey: .qrPeriod)
            tracks = try container.decode([[FixRow]].self, forKey: .tracks)
        }
    }

    /// One `[lat, lon, alt, accuracy, fixTime]` array.
    private struct FixRow: Decodable {
        var fix: Fix

        init(from decoder: Decoder) throws {
            var row = try decoder.unkeyedContainer()
            let latitude = try row.decode(Double.self)
            let longitude = try row.decode(Double.self)
            let altitude = try row.decodeIfPresent(Double.self)
            let accuracy = try row.decodeIfPresent(Double.self)
            let time = try row.decode(Double.self)
            guard row.isAtEnd else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "has more than 5 elements [lat, lon, alt, accuracy, fixTime]"))
            }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude), time.isFinite else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "has a latitude, longitude or time out of range"))
            }
            fix = Fix(latitude: latitude, longitude: longitude, altitude: altitude, accuracy: accuracy,
                      time: Date(timeIntervalSince1970: time))
        }
    }

    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return "\(value)"
    }

    private static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
