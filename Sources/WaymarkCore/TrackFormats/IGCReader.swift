import Foundation

/// Reads IGC files, as gliding and paragliding flight recorders write them.
///
/// - B records `BHHMMSSDDMMmmmNDDDMMmmmEVPPPPPGGGGG…` are the fixes; their times are UTC.
/// - The date comes from the `HFDTE` header, as `HFDTEDDMMYY` or `HFDTEDATE:DDMMYY,NN`
///   (two-digit years are 1980–2079); a B record whose time is earlier than the one before
///   starts the next day (a flight across midnight UTC).
/// - Validity `A` is a 3D fix; `V` (2D, or no GNSS altitude) keeps its position, which the
///   recorder still reports, but not its GNSS altitude.
/// - Altitude: the GNSS altitude of an `A` fix; otherwise the pressure altitude, when the
///   recorder has a pressure sensor (non-zero); otherwise none.
/// - A malformed B record is an error naming its line, as IGC files are signed and a broken
///   record means a damaged file. The file is one `Track`.
enum IGCReader {
    /// Whether the start of a file looks like IGC: a first line `A…` (the recorder's id) and
    /// a date header or a B record.
    static func looksLikeIGC(_ head: String) -> Bool {
        var lines = head.split(whereSeparator: \.isNewline).makeIterator()
        guard let first = lines.next(), first.hasPrefix("A"), first.count >= 4 else { return false }
        while let line = lines.next() {
            if line.count >= 5, line.hasPrefix("H"), line.dropFirst(2).hasPrefix("DTE") { return true }
            if line.hasPrefix("B"), line.count >= 35, line.dropFirst().prefix(6).allSatisfy(\.isASCIIDigit) { return true }
        }
        return false
    }

    /// One B record before its date is known.
    struct Record {
        var secondOfDay: Int
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    static func read(_ data: Data, fileName: String) throws -> [Track] {
        let bytes = [UInt8](data)
        var records: [Record] = []
        var day: Int?
        var lineNumber = 0
        var lineStart = 0
        var index = 0
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == 0x0A || bytes[index] == 0x0D {
                if index < bytes.count || index > lineStart { lineNumber += 1 }
                if index > lineStart {
                    let line = bytes[lineStart..<index]
                    switch line.first {
                    case 0x42:   // B
                        guard let record = bRecord(line) else {
                            let text = String(decoding: line.prefix(60), as: UTF8.self)
                            throw TrackFormatError(file: fileName, line: lineNumber, message: "has a B record that cannot be read (\"\(text)\"; expected BHHMMSSDDMMmmmNDDDMMmmmEVPPPPPGGGGG) — the file is damaged; download it from the recorder again")
                        }
                        records.append(record)
                    case 0x48:   // H
                        if day == nil, line.count >= 5, Array(line.dropFirst(2).prefix(3)) == [0x44, 0x54, 0x45] {   // "DTE"
                            guard let date = dateHeader(line.dropFirst(5)) else {
                                let text = String(decoding: line.prefix(60), as: UTF8.self)
                                throw TrackFormatError(file: fileName, line: lineNumber, message: "has a date header \"\(text)\" that is not HFDTEDDMMYY or HFDTEDATE:DDMMYY — the file is damaged; download it from the recorder again")
                            }
                            day = date
                        }
                    default:
                        break
                    }
                }
                if index < bytes.count && bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A { index += 1 }
                lineStart = index + 1
            }
            index += 1
        }
        guard !records.isEmpty else {
            throw TrackFormatError(file: fileName, message: "contains no B records (fixes) — is it the flight's IGC file? Download the flight from the recorder again")
        }
        guard var currentDay = day else {
            throw TrackFormatError(file: fileName, message: "has \(records.count.groupedForMessage) fixes but no HFDTE date header, so their times of day cannot be dated — download the flight from the recorder again, or add the line HFDTEDDMMYY with the flight's UTC date")
        }
        var previous = records[0].secondOfDay
        var fixes: [Fix] = []
        fixes.reserveCapacity(records.count)
        for record in records {
            if record.secondOfDay < previous { currentDay += 1 }
            previous = record.secondOfDay
            let time = Date(timeIntervalSince1970: TimeInterval(currentDay * 86_400 + record.secondOfDay))
            fixes.append(Fix(latitude: record.latitude, longitude: record.longitude, altitude: record.altitude, time: time))
        }
        return [Track(name: nil, fixes: fixes)]
    }

    /// `DDMMYY[,NN]` or `DATE:DDMMYY[,NN]` (after "HFDTE") → days since 1970-01-01.
    static func dateHeader(_ rest: ArraySlice<UInt8>) -> Int? {
        var text = rest
        if let colon = text.firstIndex(of: 0x3A) { text = text[(colon + 1)...] }   // "DATE:"
        while let first = text.first, first == 0x20 { text = text.dropFirst() }
        return NMEASentenceScanner.day(text.prefix(6))
    }

    /// `BHHMMSSDDMMmmmNDDDMMmmmEVPPPPPGGGGG` → a record, or `nil` when any part is malformed.
    static func bRecord(_ line: ArraySlice<UInt8>) -> Record? {
        guard line.count >= 35 else { return nil }
        let s = line.startIndex
        func number(_ offset: Int, _ count: Int) -> Int? {
            var value = 0
            for k in (s + offset)..<(s + offset + count) {
                let c = line[k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            return value
        }
        /// A 5-digit altitude that may be negative ("-0012").
        func altitude(_ offset: Int) -> Int? {
            if line[s + offset] == 0x2D { return number(offset + 1, 4).map { -$0 } }
            return number(offset, 5)
        }
        guard let hours = number(1, 2), let minutes = number(3, 2), let seconds = number(5, 2),
              hours < 24, minutes < 60, seconds < 60,
              let latDegrees = number(7, 2), let latMilliminutes = number(9, 5),
              let lonDegrees = number(15, 3), let lonMilliminutes = number(18, 5),
              latMilliminutes < 60_000, lonMilliminutes < 60_000,
              let pressure = altitude(25), let gnss = altitude(30) else { return nil }
        var latitude = Double(latDegrees) + Double(latMilliminutes) / 60_000
        var longitude = Double(lonDegrees) + Double(lonMilliminutes) / 60_000
        switch line[s + 14] {
        case 0x4E: break
        case 0x53: latitude = -latitude
        default: return nil
        }
        switch line[s + 23] {
        case 0x45: break
        case 0x57: longitude = -longitude
        default: return nil
        }
        guard latitude.magnitude <= 90, longitude.magnitude <= 180 else { return nil }
        let valid = line[s + 24]
        guard valid == 0x41 || valid == 0x56 else { return nil }   // A or V
        let altitude: Double?
        if valid == 0x41 && (gnss != 0 || pressure == 0) {
            altitude = Double(gnss)
        } else {
            altitude = pressure != 0 ? Double(pressure) : nil
        }
        return Record(secondOfDay: hours * 3600 + minutes * 60 + seconds, latitude: latitude, longitude: longitude, altitude: altitude)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
