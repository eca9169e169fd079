import Foundation

/// What one receiver epoch (one instant) reported, merged over its sentences.
struct NMEAEpoch: Sendable {
    var millisecondOfDay: Int
    var latitude: Double
    var longitude: Double
    var altitude: Double?
    var hdop: Double?
    /// Days since 1970-01-01, from RMC.
    var day: Int?

    /// Fills what this epoch lacks from another sentence of the same instant.
    mutating func merge(_ other: NMEAEpoch) {
        altitude = altitude ?? other.altitude
        hdop = hdop ?? other.hdop
        day = day ?? other.day
    }

    /// The fix of this epoch on `day` (days since 1970-01-01); accuracy is `hdop × 5 m`.
    func fix(day: Int) -> Fix {
        let seconds = Double(day) * 86_400 + Double(millisecondOfDay) / 1000
        return Fix(latitude: latitude, longitude: longitude, altitude: altitude,
                   accuracy: DilutionOfPrecision.accuracy(hdop: hdop),
                   time: Date(timeIntervalSince1970: seconds))
    }
}

/// One NMEA 0183 sentence, as far as Waymark uses it.
enum NMEASentence: Sendable {
    /// The position sentences Waymark reads.
    enum Kind: Sendable { case rmc, gga, gns, pmgntrk }

    /// RMC, GGA, GNS or Magellan PMGNTRK with a valid fix. RMC carries the date, and so does
    /// PMGNTRK when its device writes the date field.
    case position(NMEAEpoch, Kind)
    /// RMC status `V` or mode `N`/`S`, GGA quality 0/7/8, GNS without a valid mode letter.
    case noFix(Kind, millisecondOfDay: Int?)
    /// RMC, GGA or GNS whose time or position cannot be read.
    case malformed(Kind)
    /// GSA: fix type (1 none, 2 2D, 3 3D) and HDOP.
    case gsa(fixType: Int?, hdop: Double?)
    /// A well-formed sentence Waymark does not use (GSV, VTG, proprietary, …).
    case other
    /// A sentence whose `*hh` checksum is wrong or cut off.
    case badChecksum
}

/// Reads single NMEA 0183 lines; shared by the whole-log reader and the streaming parser.
///
/// Keeps a field buffer between calls so that scanning millions of lines does not allocate.
struct NMEASentenceScanner {
    private var fields: [Range<Int>] = []

    init() {
        fields.reserveCapacity(24)
    }

    /// The sentence on `line` of `bytes` (without its line end), or `nil` when the line is a
    /// comment, blank, or holds nothing that looks like a sentence.
    ///
    /// Anything before the last `$` of a line (gpsd or logger prefixes) is ignored. A sentence
    /// without a checksum is accepted.
    mutating func scan(_ bytes: [UInt8], _ line: Range<Int>) -> NMEASentence? {
        var start = line.lowerBound
        while start < line.upperBound && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        guard start < line.upperBound, bytes[start] != 0x23 else { return nil }   // '#': comment
        // The sentence starts at the last '$' (junk before it is a logger's prefix or a cut-off sentence).
        var dollar = line.upperBound - 1
        while dollar >= start && bytes[dollar] != 0x24 { dollar -= 1 }
        guard dollar >= start else { return nil }
        var end = line.upperBound
        while end > dollar && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x00) { end -= 1 }
        let bodyStart = dollar + 1
        var bodyEnd = end
        var star = bodyStart
        var checksum: UInt8 = 0
        while star < end && bytes[star] != 0x2A {
            checksum ^= bytes[star]
            star += 1
        }
        if star < end {
            // Has a checksum: exactly two hex digits must follow and match.
            guard star + 3 == end, let high = Self.hexValue(bytes[star + 1]), let low = Self.hexValue(bytes[star + 2]),
                  high << 4 | low == checksum else {
                return .badChecksum
            }
            bodyEnd = star
        }
        // Address: talker + type, e.g. GPRMC; proprietary sentences start with P.
        var comma = bodyStart
        while comma < bodyEnd && bytes[comma] != 0x2C { comma += 1 }
        let addressLength = comma - bodyStart
        if addressLength == 7 && comma < bodyEnd && bytes[bodyStart..<comma].elementsEqual(Self.magellanTrackAddress) {
            splitFields(bytes, comma + 1, bodyEnd)
            return magellanTrack(bytes)
        }
        guard addressLength >= 3, addressLength <= 6, comma < bodyEnd else { return nil }
        for k in bodyStart..<comma where !(Self.isUpperAlnum(bytes[k])) { return nil }
        guard addressLength == 5, bytes[bodyStart] != 0x50 else { return .other }
        let t0 = bytes[comma - 3], t1 = bytes[comma - 2], t2 = bytes[comma - 1]
        switch (t0, t1, t2) {
        case (0x52, 0x4D, 0x43):   // RMC
            splitFields(bytes, comma + 1, bodyEnd)
            return rmc(bytes)
        case (0x47, 0x47, 0x41):   // GGA
            splitFields(bytes, comma + 1, bodyEnd)
            return gga(bytes, kind: .gga)
        case (0x47, 0x4E, 0x53):   // GNS
            splitFields(bytes, comma + 1, bodyEnd)
            return gga(bytes, kind: .gns)
        case (0x47, 0x53, 0x41):   // GSA
            splitFields(bytes, comma + 1, bodyEnd)
            return gsa(bytes)
        default:
            return .other
        }
    }

    private mutating func splitFields(_ bytes: [UInt8], _ from: Int, _ to: Int) {
        fields.removeAll(keepingCapacity: true)
        var start = from
        var i = from
        while i < to {
            if bytes[i] == 0x2C {
                fields.append(start..<i)
                start = i + 1
            }
            i += 1
        }
        fields.append(start..<to)
    }

    private func field(_ bytes: [UInt8], _ n: Int) -> ArraySlice<UInt8> {
        n < fields.count ? bytes[fields[n]] : []
    }

    /// RMC: time, status, lat, N/S, lon, E/W, speed, course, date, magvar, E/W, mode, …
    private func rmc(_ bytes: [UInt8]) -> NMEASentence {
        let status = field(bytes, 1)
        let mode = field(bytes, 11)
        guard status.first == 0x41, mode.first != 0x4E, mode.first != 0x53 else {   // 'A'; mode not 'N'/'S'
            return .noFix(.rmc, millisecondOfDay: Self.millisecondOfDay(field(bytes, 0)))
        }
        guard let time = Self.millisecondOfDay(field(bytes, 0)),
              let (lat, lon) = Self.position(field(bytes, 2), field(bytes, 3), field(bytes, 4), field(bytes, 5)),
              let day = Self.day(field(bytes, 8)) else {
            return .malformed(.rmc)
        }
        return .position(NMEAEpoch(millisecondOfDay: time, latitude: lat, longitude: lon, altitude: nil, hdop: nil, day: day), .rmc)
    }

    /// GGA: time, lat, N/S, lon, E/W, quality, satellites, HDOP, altitude, M, …
    /// GNS: time, lat, N/S, lon, E/W, mode letters, satellites, HDOP, altitude, …
    private func gga(_ bytes: [UInt8], kind: NMEASentence.Kind) -> NMEASentence {
        let status = field(bytes, 5)
        let valid: Bool
        if kind == .gns {
            valid = status.contains { [0x41, 0x44, 0x50, 0x52, 0x46, 0x45].contains($0) }   // A D P R F E
        } else {
            valid = status.count == 1 && (0x31...0x36).contains(status[status.startIndex])  // quality 1–6
        }
        guard valid else {
            return .noFix(kind, millisecondOfDay: Self.millisecondOfDay(field(bytes, 0)))
        }
        guard let time = Self.millisecondOfDay(field(bytes, 0)),
              let (lat, lon) = Self.position(field(bytes, 1), field(bytes, 2), field(bytes, 3), field(bytes, 4)) else {
            return .malformed(kind)
        }
        let hdop = TrackNumbers.decimal(field(bytes, 7))
        let altitude = TrackNumbers.decimal(field(bytes, 8))
        return .position(NMEAEpoch(millisecondOfDay: time, latitude: lat, longitude: lon, altitude: altitude, hdop: hdop, day: nil), kind)
    }

    /// "PMGNTRK", the address of Magellan's track-log sentence.
    static let magellanTrackAddress: [UInt8] = Array("PMGNTRK".utf8)

    /// PMGNTRK: lat, N/S, lon, E/W, altitude, M/F, time, A/V, track name[, date].
    ///
    /// Altitude in feet (`F`) is converted to metres. Without the date field (older devices),
    /// the date comes from the log's RMC sentences.
    private func magellanTrack(_ bytes: [UInt8]) -> NMEASentence {
        guard field(bytes, 7).first == 0x41 else {   // 'A'
            return .noFix(.pmgntrk, millisecondOfDay: Self.millisecondOfDay(field(bytes, 6)))
        }
        guard let time = Self.millisecondOfDay(field(bytes, 6)),
              let (lat, lon) = Self.position(field(bytes, 0), field(bytes, 1), field(bytes, 2), field(bytes, 3)) else {
            return .malformed(.pmgntrk)
        }
        var altitude = TrackNumbers.decimal(field(bytes, 4))
        switch field(bytes, 5).first {
        case 0x46, 0x66: altitude = altitude.map { $0 * 0.3048 }   // feet
        case 0x4D, 0x6D, nil: break
        default: altitude = nil
        }
        let dateField = field(bytes, 9)
        var day: Int?
        if !dateField.isEmpty {
            guard let known = Self.day(dateField) else { return .malformed(.pmgntrk) }
            day = known
        }
        return .position(NMEAEpoch(millisecondOfDay: time, latitude: lat, longitude: lon, altitude: altitude, hdop: nil, day: day), .pmgntrk)
    }

    /// GSA: selection mode, fix type, 12 satellite ids, PDOP, HDOP, VDOP[, system id].
    private func gsa(_ bytes: [UInt8]) -> NMEASentence {
        let type = field(bytes, 1)
        let fixType = type.count == 1 && (0x30...0x39).contains(type[type.startIndex]) ? Int(type[type.startIndex] - 0x30) : nil
        return .gsa(fixType: fixType, hdop: TrackNumbers.decimal(field(bytes, 15)))
    }

    // MARK: - Fields

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    private static func isUpperAlnum(_ c: UInt8) -> Bool {
        (0x41...0x5A).contains(c) || (0x30...0x39).contains(c)
    }

    /// `hhmmss[.sss]` → milliseconds since midnight.
    static func millisecondOfDay(_ text: ArraySlice<UInt8>) -> Int? {
        guard text.count >= 6 else { return nil }
        let s = text.startIndex
        var whole = 0
        for k in s..<(s + 6) {
            let c = text[k]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            whole = whole * 10 + Int(c - 0x30)
        }
        let hours = whole / 10_000, minutes = whole / 100 % 100, seconds = whole % 100
        guard hours < 24, minutes < 60, seconds < 61 else { return nil }
        var millis = 0
        if text.count > 6 {
            guard text[s + 6] == 0x2E else { return nil }
            var scale = 100
            for k in (s + 7)..<text.endIndex {
                let c = text[k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                millis += Int(c - 0x30) * scale
                scale /= 10
            }
        }
        return (hours * 3600 + minutes * 60 + seconds) * 1000 + millis
    }

    /// `ddmmyy` → days since 1970-01-01; two-digit years are 1980–2079.
    static func day(_ text: ArraySlice<UInt8>) -> Int? {
        guard text.count == 6, text.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let digits = text.map { Int($0 - 0x30) }
        let day = digits[0] * 10 + digits[1], month = digits[2] * 10 + digits[3], yy = digits[4] * 10 + digits[5]
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        let year = yy < 80 ? 2000 + yy : 1900 + yy
        return CivilTime.daysSinceEpoch(year: year, month: month, day: day)
    }

    /// `ddmm.mmmm`, `N|S`, `dddmm.mmmm`, `E|W` → signed degrees.
    static func position(_ lat: ArraySlice<UInt8>, _ ns: ArraySlice<UInt8>, _ lon: ArraySlice<UInt8>, _ ew: ArraySlice<UInt8>) -> (Double, Double)? {
        guard let latValue = TrackNumbers.decimal(lat), let lonValue = TrackNumbers.decimal(lon),
              latValue >= 0, lonValue >= 0, ns.count == 1, ew.count == 1 else { return nil }
        let latDegrees = (latValue / 100).rounded(.down), lonDegrees = (lonValue / 100).rounded(.down)
        let latMinutes = latValue - latDegrees * 100, lonMinutes = lonValue - lonDegrees * 100
        guard latMinutes < 60, lonMinutes < 60 else { return nil }
        var latitude = latDegrees + latMinutes / 60
        var longitude = lonDegrees + lonMinutes / 60
        switch ns.first {
        case 0x4E: break
        case 0x53: latitude = -latitude
        default: return nil
        }
        switch ew.first {
        case 0x45: break
        case 0x57: longitude = -longitude
        default: return nil
        }
        guard latitude <= 90, longitude <= 180 else { return nil }
        return (latitude, longitude)
    }
}
