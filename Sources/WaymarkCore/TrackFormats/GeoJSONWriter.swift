import Foundation

/// Writes a GeoJSON FeatureCollection with one Feature: a MultiLineString with one line per
/// `Track` and a `coordTimes` property holding one array of ISO 8601 times per line.
///
/// Positions are `[lon, lat]` or `[lon, lat, alt]`.
enum GeoJSONWriter {
    static func write(_ tracks: [Track]) -> Data {
        var coordinates: [String] = []
        var times: [String] = []
        for track in tracks {
            let line = track.fixes.map { fix -> String in
                var position = "[\(TrackNumbers.fixed(fix.longitude, digits: 9)),\(TrackNumbers.fixed(fix.latitude, digits: 9))"
                if let altitude = fix.altitude, altitude.isFinite { position += ",\(TrackNumbers.fixed(altitude, digits: 3))" }
                return position + "]"
            }
            coordinates.append("[" + line.joined(separator: ",") + "]")
            times.append("[" + track.fixes.map { "\"\(TrackTime.format($0.time))\"" }.joined(separator: ",") + "]")
        }
        let names = Set(tracks.compactMap(\.name))
        let nameProperty = names.count == 1 ? names.first.map { "\"name\":\(jsonString($0))," } ?? "" : ""
        let json = """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{\(nameProperty)"coordTimes":[\(times.joined(separator: ","))]},\
        "geometry":{"type":"MultiLineString","coordinates":[\(coordinates.joined(separator: ","))]}}]}

        """
        return Data(json.utf8)
    }

    private static func jsonString(_ text: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [text], options: []),
              let array = String(data: data, encoding: .utf8) else { return "\"\"" }
        return String(array.dropFirst().dropLast())
    }
}
