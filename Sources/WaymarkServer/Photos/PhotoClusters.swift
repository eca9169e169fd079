import Foundation

/// An XYZ map tile (Web Mercator, as OpenStreetMap numbers them).
struct MapTile: Sendable, Equatable {
    var z: Int
    var x: Int
    var y: Int

    static let zooms = 0...20
    /// The latitude where the Web Mercator map ends, north and south.
    static let maxLatitude = 85.051_128_779_806_59
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

    /// The level of the grid of cells that this zoom's tiles are cut into (4 × 4 per tile).
    var cellLevel: Int { z + 2 }

    /// The cell of the tile a point falls in (column, row, each 0..<cellsPerSide), or nil when outside.
    func cell(latitude: Double, longitude: Double) -> (column: Int, row: Int)? {
        let (cx, cy) = Self.cell(level: cellLevel, latitude: latitude, longitude: longitude)
        let column = cx - x * Self.cellsPerSide, row = cy - y * Self.cellsPerSide
        guard (0..<Self.cellsPerSide).contains(column), (0..<Self.cellsPerSide).contains(row) else { return nil }
        return (column, row)
    }

    /// The Web Mercator cell of a point in the 2^level × 2^level grid of the world.
    static func cell(level: Int, latitude: Double, longitude: Double) -> (x: Int, y: Int) {
        let scale = Double(1 << level)
        let clamped = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        let px = (longitude + 180) / 360 * scale
        let py = (1 - log(tan(clamped) + 1 / cos(clamped)) / .pi) / 2 * scale
        let last = (1 << level) - 1
        return (min(max(Int(px.rounded(.down)), 0), last), min(max(Int(py.rounded(.down)), 0), last))
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

    /// What is known of the photos of one cell: their count, the sums of their coordinates (for
    /// the mean), their extent, and the most recent of them.
    struct Cell: Sendable, Equatable {
        var count = 0
        var sumLatitude = 0.0
        var sumLongitude = 0.0
        var minLatitude = Double.infinity
        var minLongitude = Double.infinity
        var maxLatitude = -Double.infinity
        var maxLongitude = -Double.infinity
        var newest: UUID?
        /// Unix seconds of the newest photo.
        var newestCapturedAt = -Double.infinity

        mutating func add(_ photo: Photo) {
            guard let place = photo.place else { return }
            count += 1
            sumLatitude += place.latitude
            sumLongitude += place.longitude
            minLatitude = min(minLatitude, place.latitude)
            minLongitude = min(minLongitude, place.longitude)
            maxLatitude = max(maxLatitude, place.latitude)
            maxLongitude = max(maxLongitude, place.longitude)
            let captured = photo.capturedAt.timeIntervalSince1970
            if captured > newestCapturedAt || (captured == newestCapturedAt && photo.id.uuidString > (newest?.uuidString ?? "")) {
                newest = photo.id
                newestCapturedAt = captured
            }
        }

        /// Adds another cell's photos (its count and extent; its sums too).
        mutating func merge(_ other: Cell) {
            guard other.count > 0 else { return }
            count += other.count
            sumLatitude += other.sumLatitude
            sumLongitude += other.sumLongitude
            minLatitude = min(minLatitude, other.minLatitude)
            minLongitude = min(minLongitude, other.minLongitude)
            maxLatitude = max(maxLatitude, other.maxLatitude)
            maxLongitude = max(maxLongitude, other.maxLongitude)
        }
    }

    /// Groups `photos` (those with a place in the tile; others are ignored) by cell.
    static func cells(of photos: [Photo], in tile: MapTile) -> [Int: Cell] {
        var cells: [Int: Cell] = [:]
        for photo in photos {
            guard let place = photo.place, let cell = tile.cell(latitude: place.latitude, longitude: place.longitude) else { continue }
            cells[cell.row * MapTile.cellsPerSide + cell.column, default: Cell()].add(photo)
        }
        return cells
    }

    /// One marker per cell, in a stable order; `titles` names the cells' newest photos.
    static func markers(_ cells: [Int: Cell], titles: [UUID: String]) -> [Marker] {
        cells.keys.sorted().compactMap { key in
            guard let cell = cells[key], cell.count > 0, let newest = cell.newest else { return nil }
            let count = Double(cell.count)
            return Marker(latitude: cell.sumLatitude / count, longitude: cell.sumLongitude / count, count: cell.count, photo: newest,
                          title: titles[newest] ?? "", bbox: (cell.minLongitude, cell.minLatitude, cell.maxLongitude, cell.maxLatitude))
        }
    }

    /// Groups `photos` (those with a place in the tile; others are ignored) by cell, in a stable order.
    static func markers(of photos: [Photo], in tile: MapTile) -> [Marker] {
        markers(cells(of: photos, in: tile), titles: Dictionary(photos.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first }))
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
