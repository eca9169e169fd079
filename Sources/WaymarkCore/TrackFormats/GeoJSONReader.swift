import Foundation

/// Reads GeoJSON tracks: LineString or MultiLineString geometries with per-coordinate times.
///
/// GeoJSON has no standard place for times; this reads what the common converters write:
/// a `coordTimes` property (togeojson, Strava, gpsbabel; an array of times for a LineString,
/// an array of arrays for a MultiLineString), or `coordinateProperties.times` (newer togeojson).
/// A time is an ISO 8601 string or a number of Unix seconds (milliseconds when above 1e11).
/// Accepted containers: FeatureCollection, Feature, or a bare geometry with a top-level
/// `coordTimes`. Each LineString, and each line of a MultiLineString, becomes one `Track`.
enum GeoJSONReader {
    static func read(_ data: Data, fileName: String) throws -> [Track] {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: XMLSupport.withoutBOM(data), options: [])
        } catch {
            let nsError = error as NSError
            let detail = (nsError.userInfo["NSDebugDescription"] as? String) ?? nsError.localizedDescription
            throw TrackFormatError(file: fileName, message: "is not valid JSON (\(detail)) — the file looks truncated or damaged; copy or export it again")
        }
        var reader = Reader(fileName: fileName)
        try reader.readObject(root, context: "the file")
        guard reader.lineCount > 0 else {
            throw TrackFormatError(file: fileName, message: "contains no LineString or MultiLineString — export the recorded track (with times), not points or areas")
        }
        guard !reader.tracks.isEmpty || reader.untimedLineCount == 0 else {
            throw TrackFormatError(file: fileName, message: "has \(reader.untimedLineCount.groupedForMessage) line(s) but no `coordTimes` property with their times: a track without times cannot place photos — export the track as GPX, or as GeoJSON with times (togeojson and most apps write `coordTimes`)")
        }
        return reader.tracks
    }

    private struct Reader {
        let fileName: String
        var tracks: [Track] = []
        var lineCount = 0
        var untimedLineCount = 0

        func error(_ message: String) -> TrackFormatError {
            TrackFormatError(file: fileName, message: message)
        }

        mutating func readObject(_ value: Any, context: String) throws {
            guard let object = value as? [String: Any] else {
                throw error("\(context) is not a GeoJSON object — expected a FeatureCollection, Feature or LineString")
            }
            switch object["type"] as? String {
            case "FeatureCollection":
                guard let features = object["features"] as? [Any] else {
                    throw error("the FeatureCollection has no \"features\" array — the file is damaged; export it again")
                }
                for (index, feature) in features.enumerated() {
                    try readObject(feature, context: "feature \(index + 1)")
                }
            case "Feature":
                let properties = object["properties"] as? [String: Any] ?? [:]
                let name = properties["name"] as? String
                if let geometry = object["geometry"] as? [String: Any] {
                    try readGeometry(geometry, times: timeList(in: properties), name: name, context: context)
                }
            case "LineString", "MultiLineString", "GeometryCollection":
                try readGeometry(object, times: timeList(in: object), name: nil, context: context)
            default:
                break   // Points, Polygons and unknown objects hold no track.
            }
        }

        func timeList(in properties: [String: Any]) -> Any? {
            if let times = properties["coordTimes"] { return times }
            if let coordinateProperties = properties["coordinateProperties"] as? [String: Any] {
                return coordinateProperties["times"]
            }
            return nil
        }

        mutating func readGeometry(_ geometry: [String: Any], times: Any?, name: String?, context: String) throws {
            switch geometry["type"] as? String {
            case "LineString":
                lineCount += 1
                guard let coordinates = geometry["coordinates"] as? [Any] else {
                    throw error("\(context): the LineString has no \"coordinates\" array — the file is damaged; export it again")
                }
                guard let times else { untimedLineCount += 1; return }
                guard let list = times as? [Any] else {
                    throw error("\(context): coordTimes is not an array of times — the file is damaged; export it again")
                }
                // A LineString's times may come wrapped as [[…]].
                let flat = (list.count == 1 && coordinates.count != 1) ? (list[0] as? [Any] ?? list) : list
                try appendLine(coordinates, times: flat, name: name, context: context)
            case "MultiLineString":
                guard let lines = geometry["coordinates"] as? [Any] else {
                    throw error("\(context): the MultiLineString has no \"coordinates\" array — the file is damaged; export it again")
                }
                lineCount += lines.count
                guard let times else { untimedLineCount += lines.count; return }
                guard let list = times as? [Any] else {
                    throw error("\(context): coordTimes is not an array of times — the file is damaged; export it again")
                }
                let lineCoordinates = try lines.enumerated().map { index, line in
                    guard let coordinates = line as? [Any] else {
                        throw error("\(context): line \(index + 1) of the MultiLineString is not an array of positions — the file is damaged; export it again")
                    }
                    return coordinates
                }
                if list.allSatisfy({ $0 is [Any] }) {
                    guard list.count == lines.count else {
                        throw error("\(context): the MultiLineString has \(lines.count) lines but coordTimes has \(list.count) lists of times; they must pair up — the file is damaged; export it again")
                    }
                    for (index, (coordinates, lineTimes)) in zip(lineCoordinates, list).enumerated() {
                        try appendLine(coordinates, times: lineTimes as? [Any] ?? [], name: name, context: "\(context), line \(index + 1)")
                    }
                } else {
                    // One flat list of times for all lines together.
                    let total = lineCoordinates.reduce(0) { $0 + $1.count }
                    guard total == list.count else {
                        throw error("\(context): the MultiLineString has \(total.groupedForMessage) positions but coordTimes has \(list.count.groupedForMessage) times; they must pair up one to one — the file is damaged; export it again")
                    }
                    var offset = 0
                    for (index, coordinates) in lineCoordinates.enumerated() {
                        try appendLine(coordinates, times: Array(list[offset..<(offset + coordinates.count)]), name: name, context: "\(context), line \(index + 1)")
                        offset += coordinates.count
                    }
                }
            case "GeometryCollection":
                for (index, member) in (geometry["geometries"] as? [Any] ?? []).enumerated() {
                    if let member = member as? [String: Any] {
                        try readGeometry(member, times: timeList(in: member) ?? (index == 0 ? times : nil), name: name, context: context)
                    }
                }
            default:
                break
            }
        }

        mutating func appendLine(_ coordinates: [Any], times: [Any], name: String?, context: String) throws {
            guard coordinates.count == times.count else {
                throw error("\(context): the line has \(coordinates.count.groupedForMessage) positions but coordTimes has \(times.count.groupedForMessage) times; they must pair up one to one — the file is damaged; export it again")
            }
            var fixes: [Fix] = []
            fixes.reserveCapacity(coordinates.count)
            for (index, (position, timeValue)) in zip(coordinates, times).enumerated() {
                guard let numbers = position as? [Any], numbers.count >= 2,
                      let lon = Self.number(numbers[0]), let lat = Self.number(numbers[1]) else {
                    throw error("\(context): position \(index + 1) is not [longitude, latitude, altitude?] — the file is damaged; export it again")
                }
                let fix = Fix(latitude: lat, longitude: lon, altitude: numbers.count > 2 ? Self.number(numbers[2]) : nil, time: .distantPast)
                guard fix.hasValidCoordinates else {
                    throw error("\(context): position \(index + 1) has latitude \(lat) and longitude \(lon), outside ±90° and ±180° — GeoJSON puts longitude first; the file is damaged, export it again")
                }
                guard let time = Self.time(timeValue) else {
                    throw error("\(context): time \(index + 1) (\(timeValue)) is neither an ISO 8601 time nor Unix seconds — the file is damaged; export it again")
                }
                var timed = fix
                timed.time = time
                fixes.append(timed)
            }
            tracks.append(Track(name: name, fixes: fixes))
        }

        static func number(_ value: Any) -> Double? {
            let double: Double
            switch value {
            case let value as Double: double = value
            case let value as Int: double = Double(value)
            case let value as NSNumber: double = value.doubleValue
            default: return nil
            }
            return double.isFinite ? double : nil
        }

        static func time(_ value: Any) -> Date? {
            if let text = value as? String { return TrackTime.parse(text) }
            guard let seconds = number(value) else { return nil }
            return Date(timeIntervalSince1970: seconds > 1e11 ? seconds / 1000 : seconds)
        }
    }
}
