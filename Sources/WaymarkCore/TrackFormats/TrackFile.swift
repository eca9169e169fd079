import Foundation

/// Reads and writes track files in any `TrackFormat`.
public enum TrackFile {
    /// Reads every track in a file. Throws TrackFormatError. Tracks come back in chronological order, each sorted by time, empty tracks/segments dropped.
    ///
    /// The format is detected from the content, falling back to the extension of `fileName`,
    /// which also names the file in error messages.
    public static func read(_ data: Data, fileName: String) throws -> [Track] {
        let name = (fileName as NSString).lastPathComponent
        guard !data.isEmpty, data.contains(where: { !Self.isBlank($0) }) else {
            throw TrackFormatError(file: name, message: "is empty — copy or export the track file again")
        }
        guard let format = TrackFormat.detect(data: data, fileName: name) else {
            let zipped = data.starts(with: [0x50, 0x4B, 0x03, 0x04])
            let hint = zipped
                ? "it is a ZIP archive (a KMZ?) — unzip it and open the .kml or .gpx inside"
                : "it is not GPX, KML, GeoJSON, NMEA 0183, FIT, TCX, IGC or CSV with time, latitude and longitude columns — export the track from your app as GPX"
            throw TrackFormatError(file: name, message: "is not a track file Waymark can read: \(hint)")
        }
        let tracks: [Track]
        switch format {
        case .gpx: tracks = try GPXReader.read(data, fileName: name)
        case .kml: tracks = try KMLReader.read(data, fileName: name)
        case .geoJSON: tracks = try GeoJSONReader.read(data, fileName: name)
        case .nmea: tracks = try NMEAReader.read(data, fileName: name)
        case .fit: tracks = try FITReader.read(data, fileName: name)
        case .tcx: tracks = try TCXReader.read(data, fileName: name)
        case .igc: tracks = try IGCReader.read(data, fileName: name)
        case .csv: tracks = try CSVReader.read(data, fileName: name)
        }
        let normalized = Route(tracks: tracks).normalized().tracks
        // Many points within one second: a device's placeholder for "no time" (Mojstrovka.gpx
        // carries 1901-12-13T20:45:52, the 32-bit minimum), not a recording.
        let count = normalized.reduce(0) { $0 + $1.fixes.count }
        if count > 2, let first = normalized.first?.start, let last = normalized.last?.end, last.timeIntervalSince(first) < 1 {
            throw TrackFormatError(file: name, message: "all \(count) points carry the same time, \(first.utcTimestamp) (a device's placeholder for 'no time'): the track cannot place photos. Export it again with real timestamps.")
        }
        return normalized
    }

    /// Reads every track in the file at `url`; see ``read(_:fileName:)``.
    public static func read(contentsOf url: URL) throws -> [Track] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TrackFormatError(file: url.lastPathComponent, message: "cannot be opened (\(error.localizedDescription)) — check that the file exists and is readable")
        }
        return try read(data, fileName: url.lastPathComponent)
    }

    /// Serialises tracks (one GPX <trk> with one <trkseg> per Track; KML gx:Track per track; GeoJSON FeatureCollection with a MultiLineString + coordTimes).
    ///
    /// NMEA output is one RMC and one GGA sentence per fix (the tracks run together, as NMEA
    /// has no notion of tracks). GPX and NMEA keep accuracy as HDOP (`accuracy / 5 m`);
    /// KML and GeoJSON have no place for it. Times are written as UTC with milliseconds.
    /// FIT, TCX, IGC and CSV are read-only, so they are not among the choices.
    public static func write(_ tracks: [Track], as format: WritableTrackFormat) -> Data {
        switch format {
        case .gpx: GPXWriter.write(tracks)
        case .kml: KMLWriter.write(tracks)
        case .geoJSON: GeoJSONWriter.write(tracks)
        case .nmea: NMEAWriter.write(tracks)
        }
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x00
    }
}
