import Foundation

/// Writes GPX 1.1: one `<trk>` with one `<trkseg>` per `Track`.
///
/// Times are UTC with milliseconds; accuracy is written as `<hdop>` (`accuracy / 5 m`),
/// which `GPXReader` turns back into the same accuracy.
enum GPXWriter {
    static func write(_ tracks: [Track]) -> Data {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Waymark" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
          <trk>

        """
        let names = Set(tracks.compactMap(\.name))
        if names.count == 1, let name = names.first {
            out += "    <name>\(name.xmlEscaped)</name>\n"
        }
        for track in tracks {
            out += "    <trkseg>\n"
            for fix in track.fixes {
                out += "      <trkpt lat=\"\(TrackNumbers.fixed(fix.latitude, digits: 9))\" lon=\"\(TrackNumbers.fixed(fix.longitude, digits: 9))\">"
                if let altitude = fix.altitude, altitude.isFinite {
                    out += "<ele>\(TrackNumbers.fixed(altitude, digits: 3))</ele>"
                }
                out += "<time>\(TrackTime.format(fix.time))</time>"
                if let hdop = DilutionOfPrecision.hdop(accuracy: fix.accuracy) {
                    out += "<hdop>\(TrackNumbers.fixed(hdop, digits: 4))</hdop>"
                }
                out += "</trkpt>\n"
            }
            out += "    </trkseg>\n"
        }
        out += "  </trk>\n</gpx>\n"
        return Data(out.utf8)
    }
}
