import Foundation

/// A file format that holds GPS tracks: every format Waymark reads.
///
/// Waymark writes only the formats of ``WritableTrackFormat``; FIT, TCX, IGC and CSV are
/// read-only, as they are what devices and apps record, not what Waymark hands on.
public enum TrackFormat: String, Sendable, CaseIterable {
    /// GPS Exchange Format 1.0 or 1.1 (`<trk>`, `<rte>`).
    case gpx
    /// Keyhole Markup Language (`gx:Track`, `gx:MultiTrack`, timed placemarks).
    case kml
    /// GeoJSON LineString or MultiLineString with a `coordTimes` property.
    case geoJSON
    /// NMEA 0183 sentences (RMC, GGA, GNS) as logged from a receiver.
    case nmea
    /// Garmin FIT activity files (binary; `record` messages).
    case fit
    /// Garmin Training Center XML (`<Trackpoint>`s).
    case tcx
    /// IGC flight recorder files (gliding; B records with the HFDTE date).
    case igc
    /// Comma-, semicolon- or tab-separated values with a header naming time, latitude and longitude.
    case csv

    /// The usual file extension for files written in this format.
    public var fileExtension: String {
        switch self {
        case .gpx: "gpx"
        case .kml: "kml"
        case .geoJSON: "geojson"
        case .nmea: "nmea"
        case .fit: "fit"
        case .tcx: "tcx"
        case .igc: "igc"
        case .csv: "csv"
        }
    }

    /// The same format as one Waymark can write, or `nil` for a read-only format.
    public var writable: WritableTrackFormat? {
        WritableTrackFormat(rawValue: rawValue)
    }

    /// Detects the format from content (BOM-tolerant sniffing: "<gpx", "<kml", JSON "{", "$GP/$GN/..." lines) falling back to the file extension.
    ///
    /// FIT is recognised by its binary header (".FIT" at bytes 8–11) before any text sniffing;
    /// TCX by `<TrainingCenterDatabase`; IGC by a first line `A…` followed by an `HFDTE` header
    /// or B records; CSV by a first line naming time, latitude and longitude columns.
    /// Returns `nil` when neither the content nor the extension names a known format.
    public static func detect(data: Data, fileName: String) -> TrackFormat? {
        if FITReader.hasSignature(data) { return .fit }
        return sniff(data) ?? byExtension(fileName)
    }

    /// The format named by a file extension, if any.
    static func byExtension(_ fileName: String) -> TrackFormat? {
        let ext = (fileName as NSString).pathExtension.lowercased()
        switch ext {
        case "gpx": return .gpx
        case "kml": return .kml
        case "geojson", "json": return .geoJSON
        case "nmea", "nma", "log": return .nmea
        case "fit": return .fit
        case "tcx": return .tcx
        case "igc": return .igc
        case "csv": return .csv
        default: return nil
        }
    }

    /// Looks at the first few kilobytes of a file for the signature of a format.
    static func sniff(_ data: Data) -> TrackFormat? {
        let head = Self.headText(data)
        guard let first = head.first(where: { !$0.isWhitespace }) else { return nil }
        if first == "<" {
            let lower = head.lowercased()
            if lower.contains("<trainingcenterdatabase") { return .tcx }
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
        if IGCReader.looksLikeIGC(head) { return .igc }
        // NMEA: any line whose sentence (possibly after junk) has a 5-letter address, or is Magellan's PMGNTRK.
        for line in head.split(whereSeparator: \.isNewline) {
            guard let dollar = line.firstIndex(of: "$") else { continue }
            let address = line[line.index(after: dollar)...].prefix(while: { $0 != "," })
            if address == "PMGNTRK" || address.count == 5, address.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) {
                return .nmea
            }
        }
        if CSVReader.looksLikeCSV(head) { return .csv }
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

/// A track format Waymark can write: GPX, KML, GeoJSON or NMEA 0183.
public enum WritableTrackFormat: String, Sendable, CaseIterable {
    /// GPS Exchange Format 1.1: one `<trk>` with one `<trkseg>` per track.
    case gpx
    /// KML with one `gx:Track` per track.
    case kml
    /// A GeoJSON FeatureCollection with a MultiLineString and `coordTimes`.
    case geoJSON
    /// NMEA 0183: one RMC and one GGA sentence per fix.
    case nmea

    /// The same format in the list of every format Waymark reads.
    public var format: TrackFormat {
        switch self {
        case .gpx: .gpx
        case .kml: .kml
        case .geoJSON: .geoJSON
        case .nmea: .nmea
        }
    }

    /// The usual file extension for files written in this format.
    public var fileExtension: String { format.fileExtension }
}
