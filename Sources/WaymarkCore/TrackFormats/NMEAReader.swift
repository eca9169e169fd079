import Foundation

/// Reads NMEA 0183 logs: RMC, GGA and GNS sentences from any talker (GP, GN, GL, GA, BD, GB, …).
///
/// - Checksums (`*hh`) are verified; a sentence with a wrong or cut-off checksum is skipped
///   and counted. A sentence without a checksum is accepted.
/// - Sentences without a fix are skipped: RMC status `V` or mode `N`/`S` (simulator),
///   GGA quality 0, 7 (manual) or 8 (simulator), GNS with no valid mode letter.
/// - RMC, GGA and GNS sentences of the same epoch (same time of day, next to each other)
///   merge into one `Fix`: the date comes from RMC, altitude and HDOP from GGA/GNS;
///   accuracy is estimated as `hdop × 5 m`.
/// - Only RMC carries the date. Fixes logged before the first RMC are back-filled from it;
///   after that the last RMC date carries on, and a time of day that jumps back by more than
///   12 hours starts the next day (midnight rollover).
/// - Lines starting with `#` are comments; anything before the last `$` of a line (gpsd or
///   logger prefixes) is ignored; LF, CR LF and CR line ends are accepted.
/// - The whole log is one `Track`; pauses are left to correlation's max-gap rule.
enum NMEAReader {
    static func read(_ data: Data, fileName: String) throws -> [Track] {
        var parser = NMEALogParser()
        let bytes = [UInt8](data)
        parser.parse(bytes)
        let fixes = parser.fixes()
        guard !fixes.isEmpty else { throw parser.noFixError(fileName: fileName) }
        return [Track(name: nil, fixes: fixes)]
    }
}

/// The state of one pass over an NMEA log.
struct NMEALogParser {
    /// What one epoch (one instant of the receiver) reported, merged over its sentences.
    struct Epoch {
        var millisecondOfDay: Int
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var hdop: Double?
        /// Days since 1970-01-01, from RMC.
        var day: Int?
    }

    private(set) var sentenceCount = 0
    private(set) var positionSentenceCount = 0
    private(set) var badChecksumCount = 0
    private(set) var noFixCount = 0
    private(set) var malformedCount = 0
    private(set) var epochs: [Epoch] = []
    private var current: Epoch?
    private var fields: [Range<Int>] = []

    mutating func parse(_ bytes: [UInt8]) {
        fields.reserveCapacity(24)
        var lineStart = 0
        var index = 0
        let count = bytes.count
        while index <= count {
            if index == count || bytes[index] == 0x0A || bytes[index] == 0x0D {
                if index > lineStart { handleLine(bytes, lineStart..<index) }
                if index < count && bytes[index] == 0x0D && index + 1 < count && bytes[index + 1] == 0x0A { index += 1 }
                lineStart = index + 1
            }
            index += 1
        }
        flush()
    }

    /// The fixes in log order, with their dates resolved.
    func fixes() -> [Fix] {
        guard let firstDated = epochs.firstIndex(where: { $0.day != nil }), var day = epochs[firstDated].day else { return [] }
        let halfDay = 43_200_000
        var days = [Int](repeating: 0, count: epochs.count)
        // Back-fill the epochs logged before the first date.
        days[firstDated] = day
        var next = epochs[firstDated].millisecondOfDay
        var backDay = day
        for i in stride(from: firstDated - 1, through: 0, by: -1) {
            if epochs[i].millisecondOfDay > next + halfDay { backDay -= 1 }
            days[i] = backDay
            next = epochs[i].millisecondOfDay
        }
        var previous = epochs[firstDated].millisecondOfDay
        for i in firstDated..<epochs.count {
            if let known = epochs[i].day {
                day = known
            } else if epochs[i].millisecondOfDay < previous - halfDay {
                day += 1
            }
            days[i] = day
            previous = epochs[i].millisecondOfDay
        }
        return epochs.indices.map { i in
            let epoch = epochs[i]
            let seconds = Double(days[i]) * 86_400 + Double(epoch.millisecondOfDay) / 1000
            return Fix(latitude: epoch.latitude, longitude: epoch.longitude, altitude: epoch.altitude,
                       accuracy: DilutionOfPrecision.accuracy(hdop: epoch.hdop),
                       time: Date(timeIntervalSince1970: seconds))
        }
    }

    /// Why a log yielded no fix, in numbers the user can check.
    func noFixError(fileName: String) -> TrackFormatError {
        guard sentenceCount > 0 else {
            let badNote = badChecksumCount > 0 ? " (\(badChecksumCount.groupedForMessage) lines look like sentences but have a wrong checksum)" : ""
            return TrackFormatError(file: fileName, message: "contains no NMEA sentences (lines such as $GPRMC,… or $GNGGA,…)\(badNote) — is this an NMEA log? Export the track from the receiver's app as GPX or NMEA")
        }
        var reasons: [String] = []
        if noFixCount > 0 { reasons.append("\(noFixCount.groupedForMessage) position sentences reported no fix (or simulator mode)") }
        if badChecksumCount > 0 { reasons.append("\(badChecksumCount.groupedForMessage) sentences had a wrong checksum and were skipped") }
        if malformedCount > 0 { reasons.append("\(malformedCount.groupedForMessage) position sentences were malformed") }
        if !epochs.isEmpty { reasons.append("\(epochs.count.groupedForMessage) fixes came without any RMC sentence, the only one that carries the date") }
        if positionSentenceCount == 0 { reasons.append("none was an RMC, GGA or GNS position sentence") }
        return TrackFormatError(
            file: fileName,
            message: "has \(sentenceCount.groupedForMessage) NMEA sentences but no fix with a date: \(reasons.joined(separator: "; ")) — record again after the receiver shows a fix, and make sure it logs RMC sentences"
        )
    }

    // MARK: - Lines and sentences

    private mutating func handleLine(_ bytes: [UInt8], _ line: Range<Int>) {
        var start = line.lowerBound
        while start < line.upperBound && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
        guard start < line.upperBound, bytes[start] != 0x23 else { return }   // '#': comment
        // The sentence starts at the last '$' (junk before it is a logger's prefix or a cut-off sentence).
        var dollar = line.upperBound - 1
        while dollar >= start && bytes[dollar] != 0x24 { dollar -= 1 }
        guard dollar >= start else { return }
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
                badChecksumCount += 1
                return
            }
            bodyEnd = star
        }
        // Address: talker + type, e.g. GPRMC; proprietary sentences start with P.
        var comma = bodyStart
        while comma < bodyEnd && bytes[comma] != 0x2C { comma += 1 }
        let addressLength = comma - bodyStart
        guard addressLength >= 3, addressLength <= 6, comma < bodyEnd else { return }
        for k in bodyStart..<comma where !(Self.isUpperAlnum(bytes[k])) { return }
        sentenceCount += 1
        guard addressLength == 5, bytes[bodyStart] != 0x50 else { return }
        let t0 = bytes[comma - 3], t1 = bytes[comma - 2], t2 = bytes[comma - 1]
        let kind: UInt8
        switch (t0, t1, t2) {
        case (0x52, 0x4D, 0x43): kind = 0x52   // RMC
        case (0x47, 0x47, 0x41): kind = 0x47   // GGA
        case (0x47, 0x4E, 0x53): kind = 0x4E   // GNS
        default: return
        }
        positionSentenceCount += 1
        splitFields(bytes, comma + 1, bodyEnd)
        switch kind {
        case 0x52: handleRMC(bytes)
        case 0x47: handleGGA(bytes, isGNS: false)
        default: handleGGA(bytes, isGNS: true)
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
    private mutating func handleRMC(_ bytes: [UInt8]) {
        let status = field(bytes, 1)
        let mode = field(bytes, 11)
        guard status.first == 0x41, mode.first != 0x4E, mode.first != 0x53 else {   // 'A'; mode not 'N'/'S'
            noFixCount += 1
            return
        }
        guard let time = Self.millisecondOfDay(field(bytes, 0)),
              let (lat, lon) = Self.position(field(bytes, 2), field(bytes, 3), field(bytes, 4), field(bytes, 5)),
              let day = Self.day(field(bytes, 8)) else {
            malformedCount += 1
            return
        }
        merge(Epoch(millisecondOfDay: time, latitude: lat, longitude: lon, altitude: nil, hdop: nil, day: day))
    }

    /// GGA: time, lat, N/S, lon, E/W, quality, satellites, HDOP, altitude, M, …
    /// GNS: time, lat, N/S, lon, E/W, mode letters, satellites, HDOP, altitude, …
    private mutating func handleGGA(_ bytes: [UInt8], isGNS: Bool) {
        let status = field(bytes, 5)
        let valid: Bool
        if isGNS {
            valid = status.contains { [0x41, 0x44, 0x50, 0x52, 0x46, 0x45].contains($0) }   // A D P R F E
        } else {
            valid = status.count == 1 && (0x31...0x36).contains(status[status.startIndex])  // quality 1–6
        }
        guard valid else {
            noFixCount += 1
            return
        }
        guard let time = Self.millisecondOfDay(field(bytes, 0)),
              let (lat, lon) = Self.position(field(bytes, 1), field(bytes, 2), field(bytes, 3), field(bytes, 4)) else {
            malformedCount += 1
            return
        }
        let hdop = TrackNumbers.decimal(field(bytes, 7))
        let altitude = TrackNumbers.decimal(field(bytes, 8))
        merge(Epoch(millisecondOfDay: time, latitude: lat, longitude: lon, altitude: altitude, hdop: hdop, day: nil))
    }

    private mutating func merge(_ epoch: Epoch) {
        if var open = current, open.millisecondOfDay == epoch.millisecondOfDay {
            open.altitude = open.altitude ?? epoch.altitude
            open.hdop = open.hdop ?? epoch.hdop
            open.day = open.day ?? epoch.day
            current = open
        } else {
            flush()
            current = epoch
        }
    }

    private mutating func flush() {
        if let open = current { epochs.append(open) }
        current = nil
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
