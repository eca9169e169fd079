import Foundation

/// An XYZ map tile (Web Mercator, as OpenStreetMap numbers them).
struct MapTile: Sendable, Equatable {
    var z: Int
    var x: Int
    var y: Int

    static let zooms = 0...20
    /// Cells per tile side: 256-pixel tiles in 64-pixel cells, about the 60 px a clustering map groups by.
    static let cellsPerSide = 4

    init?(z: Int, x: Int, y: Int) {
        guard Self.zooms.contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return nil }
        self.z = z
        self.x = x
        self.y = y
    }

    /// The tile's extent in degrees: west, south, east, north.
    var bounds: (west: Double, south: Double, east: Double, north: Double) {
        let n = Double(1 << z)
        func latitude(_ row: Double) -> Double { atan(sinh(.pi * (1 - 2 * row / n))) * 180 / .pi }
        return (Double(x) / n * 360 - 180, latitude(Double(y + 1)), Double(x + 1) / n * 360 - 180, latitude(Double(y)))
    }

    /// The cell of the tile a point falls in (column, row, each 0..<cellsPerSide), or nil when outside.
    func cell(latitude: Double, longitude: Double) -> (column: Int, row: Int)? {
        let scale = Double(1 << z) * Double(Self.cellsPerSide)
        let clamped = min(max(latitude, -85.051_128_78), 85.051_128_78) * .pi / 180
        let px = (longitude + 180) / 360 * scale
        let py = (1 - log(tan(clamped) + 1 / cos(clamped)) / .pi) / 2 * scale
        let column = Int(px.rounded(.down)) - x * Self.cellsPerSide
        let row = Int(py.rounded(.down)) - y * Self.cellsPerSide
        guard (0..<Self.cellsPerSide).contains(column), (0..<Self.cellsPerSide).contains(row) else { return nil }
        return (column, row)
    }
}

/// Photos of one tile grouped as a clustering map shows them: one marker per 64-pixel cell.
enum PhotoClusters {
    /// A marker: a single photo, or a cluster of several at their mean position.
    struct Marker: Sendable, Equatable {
        var latitude: Double
        var longitude: Double
        var count: Int
        /// The most recent photo of the cell: the cluster's thumbnail, or the single photo.
        var photo: UUID
        var title: String
        var bbox: (west: Double, south: Double, east: Double, north: Double)

        static func == (a: Marker, b: Marker) -> Bool {
            a.latitude == b.latitude && a.longitude == b.longitude && a.count == b.count && a.photo == b.photo
        }
    }

    /// Groups `photos` (those with a place in the tile; others are ignored) by cell, in a stable order.
    static func markers(of photos: [Photo], in tile: MapTile) -> [Marker] {
        var cells: [Int: [Photo]] = [:]
        for photo in photos {
            guard let place = photo.place, let cell = tile.cell(latitude: place.latitude, longitude: place.longitude) else { continue }
            cells[cell.row * MapTile.cellsPerSide + cell.column, default: []].append(photo)
        }
        return cells.keys.sorted().compactMap { key in
            guard let members = cells[key], let newest = members.max(by: { ($0.capturedAt, $0.id.uuidString) < ($1.capturedAt, $1.id.uuidString) }),
                  let newestPlace = newest.place else { return nil }
            let places = members.compactMap(\.place)
            let count = Double(places.count)
            return Marker(
                latitude: members.count == 1 ? newestPlace.latitude : places.map(\.latitude).reduce(0, +) / count,
                longitude: members.count == 1 ? newestPlace.longitude : places.map(\.longitude).reduce(0, +) / count,
                count: members.count, photo: newest.id, title: newest.title,
                bbox: (places.map(\.longitude).min() ?? 0, places.map(\.latitude).min() ?? 0,
                       places.map(\.longitude).max() ?? 0, places.map(\.latitude).max() ?? 0)
            )
        }
    }

    /// The tile's markers as a GeoJSON FeatureCollection (compact JSON, keys in a fixed order).
    static func geoJSON(_ markers: [Marker]) -> Data {
        func number(_ value: Double) -> String { String(format: "%.7f", value) }
        let features = markers.map { marker -> String in
            let id = marker.photo.uuidString.lowercased()
            let properties = marker.count == 1
                ? #"{"cluster":false,"photo":"\#(id)","title":\#(jsonString(marker.title))}"#
                : #"{"cluster":true,"count":\#(marker.count),"photo":"\#(id)","bbox":[\#(number(marker.bbox.west)),\#(number(marker.bbox.south)),\#(number(marker.bbox.east)),\#(number(marker.bbox.north))]}"#
            return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(number(marker.longitude)),\#(number(marker.latitude))]},"properties":\#(properties)}"#
        }
        return Data(#"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.utf8)
    }

    private static func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode([text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
