import Foundation

/// A file format that holds GPS tracks.
public enum TrackFormat: String, Sendable, CaseIterable {
    /// GPS Exchange Format 1.0 or 1.1 (`<trk>`, `<rte>`).
    case gpx
    /// Keyhole Markup Language (`gx:Track`, `gx:MultiTrack`, timed placemarks).
    case kml
    /// GeoJSON LineString or MultiLineString with a `coordTimes` property.
    case geoJSON
    /// NMEA 0183 sentences (RMC, GGA, GNS) as logged from a receiver.
    case nmea

    /// The usual file extension for files written in this format.
    public var fileExtension: String {
        switch self {
        case .gpx: "gpx"
        case .kml: "kml"
        case .geoJSON: "geojson"
        case .nmea: "nmea"
        }
    }

    /// Detects the format from content (BOM-tolerant sniffing: "<gpx", "<kml", JSON "{", "$GP/$GN/..." lines) falling back to the file extension.
    ///
    /// Returns `nil` when neither the content nor the extension names a known format.
    public static func detect(data: Data, fileName: String) -> TrackFormat? {
        sniff(data) ?? byExtension(fileName)
    }

    /// The format named by a file extension, if any.
    static func byExtension(_ fileName: String) -> TrackFormat? {
        let ext = (fileName as NSString).pathExtension.lowercased()
        switch ext {
        case "gpx": return .gpx
        case "kml": return .kml
        case "geojson", "json": return .geoJSON
        case "nmea", "nma", "log": return .nmea
        default: return nil
        }
    }

    /// Looks at the first few kilobytes of a file for the signature of a format.
    static func sniff(_ data: Data) -> TrackFormat? {
        let head = Self.headText(data)
        guard let first = head.first(where: { !$0.isWhitespace }) else { return nil }
        if first == "<" {
            let lower = head.lowercased()
            let gpx = lower.range(of: "<gpx")?.lowerBound
            let kml = lower.range(of: "<kml")?.lowerBound
            switch (gpx, kml) {
            case let (g?, k?): return g < k ? .gpx : .kml
            case (_?, nil): return .gpx
            case (nil, _?): return .kml
            case (nil, nil): return nil
            }
        }
        if first == "{" || first == "[" { return .geoJSON }
        // NMEA: any line whose sentence (possibly after junk) has a 5-letter address.
        for line in head.split(whereSeparator: \.isNewline) {
            guard let dollar = line.firstIndex(of: "$") else { continue }
            let address = line[line.index(after: dollar)...].prefix(while: { $0 != "," })
            if address.count == 5, address.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) {
                return .nmea
            }
        }
        return nil
    }

    /// Up to 4 KiB of the file as text, without a byte-order mark, whatever the Unicode encoding.
    private static func headText(_ data: Data) -> String {
        let head = data.prefix(4096)
        let bytes = [UInt8](head)
        if bytes.starts(with: [0xFF, 0xFE]) {
            return String(decoding: Self.utf16Units(bytes.dropFirst(2), bigEndian: false), as: UTF16.self)
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return String(decoding: Self.utf16Units(bytes.dropFirst(2), bigEndian: true), as: UTF16.self)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return String(decoding: body, as: UTF8.self)
    }

    private static func utf16Units(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt16] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            units.append(bigEndian ? (a << 8 | b) : (b << 8 | a))
            index += 2
        }
        return units
    }
}
