import Foundation

/// Writes KML 2.2 with one `<Placemark>` holding a `gx:Track` per `Track`.
///
/// Coordinates are "lon lat alt" (altitude left out when unknown); times are UTC with milliseconds.
enum KMLWriter {
    static func write(_ tracks: [Track]) -> Data {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
          <Document>
            <name>Waymark tracks</name>

        """
        for (index, track) in tracks.enumerated() {
            out += "    <Placemark>\n"
            out += "      <name>\((track.name ?? "Track \(index + 1)").xmlEscaped)</name>\n"
            out += "      <gx:Track>\n        <altitudeMode>absolute</altitudeMode>\n"
            for fix in track.fixes {
                out += "        <when>\(TrackTime.format(fix.time))</when>\n"
            }
            for fix in track.fixes {
                out += "        <gx:coord>\(TrackNumbers.fixed(fix.longitude, digits: 9)) \(TrackNumbers.fixed(fix.latitude, digits: 9))"
                if let altitude = fix.altitude, altitude.isFinite {
                    out += " \(TrackNumbers.fixed(altitude, digits: 3))"
                }
                out += "</gx:coord>\n"
            }
            out += "      </gx:Track>\n    </Placemark>\n"
        }
        out += "  </Document>\n</kml>\n"
        return Data(out.utf8)
    }
}
