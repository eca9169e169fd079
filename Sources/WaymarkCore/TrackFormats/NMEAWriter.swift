import Foundation

/// Writes NMEA 0183: a `$GPRMC` and a `$GPGGA` sentence per fix, with checksums and CR LF.
///
/// Tracks run together (NMEA has no tracks); accuracy becomes HDOP (`accuracy / 5 m`).
/// Positions keep six decimals of minutes (about 2 mm), times milliseconds.
enum NMEAWriter {
    static func write(_ tracks: [Track]) -> Data {
        var out = ""
        for track in tracks {
            for fix in track.fixes {
                let millis = Int((fix.time.timeIntervalSince1970 * 1000).rounded())
                let (seconds, ms) = millis.floorDivided(by: 1000)
                let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
                let (year, month, day) = TrackTime.civilFromDays(days)
                let time = pad(secondOfDay / 3600) + pad(secondOfDay / 60 % 60) + pad(secondOfDay % 60) + "." + pad(ms, 3)
                let date = pad(day) + pad(month) + pad(year % 100)
                let lat = angle(fix.latitude, degreeDigits: 2) + (fix.latitude < 0 ? ",S" : ",N")
                let lon = angle(fix.longitude, degreeDigits: 3) + (fix.longitude < 0 ? ",W" : ",E")
                out += sentence("GPRMC,\(time),A,\(lat),\(lon),,,\(date),,,A")
                let hdop = DilutionOfPrecision.hdop(accuracy: fix.accuracy).map { TrackNumbers.fixed($0, digits: 4) } ?? ""
                let altitude = fix.altitude.map { TrackNumbers.fixed($0, digits: 3) } ?? ""
                out += sentence("GPGGA,\(time),\(lat),\(lon),1,,\(hdop),\(altitude),M,,M,,")
            }
        }
        return Data(out.utf8)
    }

    private static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count < 2 ? "0" + hex : hex) + "\r\n"
    }

    /// `ddmm.mmmmmm` / `dddmm.mmmmmm` of the magnitude of `value`.
    private static func angle(_ value: Double, degreeDigits: Int) -> String {
        let microMinutes = Int((value.magnitude * 60_000_000).rounded())
        let (degrees, rest) = microMinutes.floorDivided(by: 60_000_000)
        let (minutes, fraction) = rest.floorDivided(by: 1_000_000)
        return pad(degrees, degreeDigits) + pad(minutes) + "." + pad(fraction, 6)
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
