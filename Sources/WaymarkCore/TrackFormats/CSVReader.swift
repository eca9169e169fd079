import Foundation

/// Reads tracks from delimited text with a header line, as GPSLogger for Android and most
/// loggers write them.
///
/// - The header names the columns, case-insensitively, with any unit in brackets ignored:
///   time (`time`, `date`, `datetime`, `date time`, `timestamp`, `utc`, …), `lat`/`latitude`,
///   `lon`/`lng`/`long`/`longitude`, and optionally `alt`/`altitude`/`elevation`/`ele` and
///   `accuracy`. Separate `date` and `time` columns are joined.
/// - The separator is the first line's most frequent of comma, semicolon and tab; fields may be
///   quoted as RFC 4180 says. With a semicolon or tab separator a decimal comma is accepted.
/// - Times are ISO 8601 with a zone (`Z` or an offset). A time without a zone is refused, as a
///   track time must be absolute, unless the column says it is UTC (`time (UTC)`, `utc`, `gmt`).
///   Unix times (seconds, or milliseconds when above 10¹¹) are accepted in a time column, and a
///   `timestamp_ms`-like column is used when there is no other time column.
/// - Rows whose position is empty are skipped; garbage in a number or time column is an error
///   naming the line. The file is one `Track`.
enum CSVReader {
    /// What a column holds.
    enum Role: Equatable {
        case time, date, epochMilliseconds, latitude, longitude, altitude, accuracy
    }

    /// The columns of a header line, and whether its time column is marked as UTC.
    struct Header {
        var separator: UInt8
        var columns: [Role: Int] = [:]
        var timeIsUTC = false

        /// Whether the header names a time (or date and time, or Unix milliseconds), a latitude and a longitude.
        var isComplete: Bool {
            columns[.latitude] != nil && columns[.longitude] != nil
                && (columns[.time] != nil || columns[.date] != nil || columns[.epochMilliseconds] != nil)
        }
    }

    /// Whether the first line of a file is a header naming time, latitude and longitude columns.
    static func looksLikeCSV(_ head: String) -> Bool {
        guard let line = head.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return false }
        return header(Array(line.utf8))?.isComplete == true
    }

    /// The header of a first line, or `nil` when no separator splits it into columns.
    static func header(_ line: [UInt8]) -> Header? {
        let separators: [UInt8] = [0x2C, 0x3B, 0x09]
        let counts = separators.map { separator in line.reduce(0) { $0 + ($1 == separator ? 1 : 0) } }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }), counts[best] > 0 else { return nil }
        var header = Header(separator: separators[best])
        var index = 0
        guard let names = Self.record(line, at: &index, separator: header.separator, line: 1)?.fields else { return nil }
        for (column, raw) in names.enumerated() {
            let (name, unit) = normalized(raw)
            guard let role = Self.role(of: name), header.columns[role] == nil else { continue }
            header.columns[role] = column
            if role == .time && (["utc", "gmt", "z"].contains(unit) || name.contains("utc") || name.contains("gmt")) {
                header.timeIsUTC = true
            }
        }
        // "date" alone may hold a whole date and time; with a "time" column it is the date part.
        if header.columns[.time] == nil, let date = header.columns[.date] {
            header.columns[.time] = date
            header.columns[.date] = nil
            if let unit = normalized(names[date]).unit, ["utc", "gmt", "z"].contains(unit) { header.timeIsUTC = true }
        }
        return header
    }

    /// A header name in lower case without quotes, spaces around it or a bracketed unit; and that unit.
    private static func normalized(_ raw: String) -> (name: String, unit: String?) {
        var name = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        var unit: String?
        if let open = name.firstIndex(where: { $0 == "(" || $0 == "[" }) {
            unit = name[name.index(after: open)...].trimmingCharacters(in: CharacterSet(charactersIn: ")] "))
            name = name[..<open].trimmingCharacters(in: .whitespaces)
        }
        return (name, unit)
    }

    private static func role(of name: String) -> Role? {
        switch name {
        case "time", "datetime", "date time", "date_time", "date/time", "date-time", "timestamp", "utc",
             "time utc", "time_utc", "utc time", "utc_time", "gps time", "gps_time", "gmt", "time_iso", "iso time":
            return .time
        case "date", "utc date", "utc_date": return .date
        case "timestamp_ms", "time_ms", "unix_ms", "epoch_ms", "unixtime_ms": return .epochMilliseconds
        case "lat", "latitude": return .latitude
        case "lon", "lng", "long", "longitude": return .longitude
        case "alt", "altitude", "elevation", "ele", "height": return .altitude
        case "accuracy", "acc", "hacc", "horizontal accuracy", "horizontal_accuracy": return .accuracy
        default: return nil
        }
    }

    static func read(_ data: Data, fileName: String) throws -> [Track] {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var index = 0
        var lineNumber = 1
        // Skip blank lines before the header.
        while index < bytes.count && TrackNumbers.isSpace(bytes[index]) {
            if bytes[index] == 0x0A { lineNumber += 1 }
            index += 1
        }
        var lineEnd = index
        while lineEnd < bytes.count && bytes[lineEnd] != 0x0A && bytes[lineEnd] != 0x0D { lineEnd += 1 }
        let firstLine = Array(bytes[index..<lineEnd])
        guard let header = Self.header(firstLine), header.isComplete else {
            let shown = String(decoding: firstLine.prefix(120), as: UTF8.self)
            throw TrackFormatError(file: fileName, line: lineNumber, message: "has no header line naming time, latitude and longitude columns (the first line is \"\(shown)\") — export the CSV with a header such as time,lat,lon,elevation and UTC times, or export the track as GPX")
        }
        // Skip the header line itself through the record reader, so that quoted line breaks count.
        guard let first = Self.record(bytes, at: &index, separator: header.separator, line: lineNumber) else { return [] }
        lineNumber = first.nextLine
        var fixes: [Fix] = []
        var keep = [Bool](repeating: false, count: (header.columns.values.max() ?? 0) + 1)
        for column in header.columns.values { keep[column] = true }
        keep[0] = true   // a blank line is told by its first field
        while let row = Self.record(bytes, at: &index, separator: header.separator, line: lineNumber, keep: keep) {
            defer { lineNumber = row.nextLine }
            if row.fields.count == 1 && row.fields[0].allSatisfy(\.isWhitespace) { continue }   // blank line
            if let fix = try Self.fix(row.fields, header: header, fileName: fileName, line: row.line) { fixes.append(fix) }
        }
        guard !fixes.isEmpty else {
            throw TrackFormatError(file: fileName, message: "has a header but no row with a position and a time — record the track again, or export it as GPX")
        }
        return [Track(name: nil, fixes: fixes)]
    }

    /// The fix of one row, `nil` when its position is empty; throws on garbage.
    private static func fix(_ fields: [String], header: Header, fileName: String, line: Int) throws -> Fix? {
        func value(_ role: Role) -> String? {
            guard let column = header.columns[role], column < fields.count else { return nil }
            var text = Substring(fields[column])
            while text.first == " " || text.first == "\t" { text = text.dropFirst() }
            while text.last == " " || text.last == "\t" { text = text.dropLast() }
            return text.isEmpty ? nil : String(text)
        }
        func number(_ role: Role, _ label: String) throws -> Double? {
            guard var text = value(role) else { return nil }
            if header.separator != 0x2C && text.utf8.contains(0x2C) { text = text.replacingOccurrences(of: ",", with: ".") }
            guard let parsed = TrackNumbers.decimal(text: text), parsed.isFinite else {
                throw TrackFormatError(file: fileName, line: line, message: "has \(label) \"\(text.prefix(40))\", which is not a number — the file is damaged; export it again")
            }
            return parsed
        }
        let latitude = try number(.latitude, "latitude"), longitude = try number(.longitude, "longitude")
        guard let latitude, let longitude else { return nil }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw TrackFormatError(file: fileName, line: line, message: "has latitude \(latitude) and longitude \(longitude), which are not between -90 and 90 and -180 and 180 — are the columns named right? Export the file again")
        }
        let altitude = try number(.altitude, "altitude")
        let accuracy = try number(.accuracy, "accuracy")
        guard let time = try Self.time(of: value, header: header, fileName: fileName, line: line) else {
            throw TrackFormatError(file: fileName, line: line, message: "has a position but no time — every row needs a time; export the file again")
        }
        return Fix(latitude: latitude, longitude: longitude, altitude: altitude, accuracy: accuracy.flatMap { $0 > 0 ? $0 : nil }, time: time)
    }

    private static func time(of value: (Role) -> String?, header: Header, fileName: String, line: Int) throws -> Date? {
        if var text = value(.time) {
            if let date = value(.date), header.columns[.date] != nil { text = date + "T" + text }
            if let epoch = epochTime(text) { return epoch }
            let iso = isoForm(text)
            guard let time = TrackTime.parse(iso) else {
                throw TrackFormatError(file: fileName, line: line, message: "has the time \"\(text.prefix(40))\", which is not an ISO 8601 time like 2024-05-01T12:34:56Z or Unix seconds — export the file again with ISO 8601 times")
            }
            guard header.timeIsUTC || hasZone(iso) else {
                throw TrackFormatError(file: fileName, line: line, message: "has the time \"\(text.prefix(40))\" without a time zone, so it is not known when it was — export the times in UTC (ending in Z) or with an offset such as +02:00, or, if they are UTC, name the column \"time (UTC)\"")
            }
            return time
        }
        if let millis = value(.epochMilliseconds) {
            guard let number = TrackNumbers.decimal(text: millis), (0..<maximumUnixSeconds).contains(number / 1000) else {
                throw TrackFormatError(file: fileName, line: line, message: "has the Unix time \"\(millis.prefix(40))\", which is not a number of milliseconds since 1970 — the file is damaged; export it again")
            }
            return Date(timeIntervalSince1970: number / 1000)
        }
        return nil
    }

    /// Unix times beyond this (the year 5138) are garbage, not times, and would overflow later arithmetic.
    static let maximumUnixSeconds = 1e11

    /// Unix seconds (or milliseconds, above 10¹¹) written as a plain number.
    private static func epochTime(_ text: String) -> Date? {
        guard text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }), let number = TrackNumbers.decimal(text: text) else { return nil }
        let seconds = number >= maximumUnixSeconds ? number / 1000 : number
        guard seconds < maximumUnixSeconds else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// `YYYY/MM/DD` dates as `YYYY-MM-DD`; everything else unchanged.
    private static func isoForm(_ text: String) -> String {
        guard text.utf8.count >= 10, text.utf8.dropFirst(4).first == 0x2F else { return text }
        var utf8 = Array(text.utf8)
        if utf8[7] == 0x2F {
            utf8[4] = 0x2D
            utf8[7] = 0x2D
            return String(decoding: utf8, as: UTF8.self)
        }
        return text
    }

    /// Whether an ISO 8601 date and time ends with `Z` or a `±hh[:mm]` offset.
    private static func hasZone(_ iso: String) -> Bool {
        let timePart = iso.utf8.dropFirst(10)
        return timePart.contains { $0 == 0x5A || $0 == 0x7A || $0 == 0x2B || $0 == 0x2D }
    }

    /// One record of RFC 4180 text starting at `index` (which it advances past the line end),
    /// with the line it starts on and the line after it; `nil` at the end of the data.
    ///
    /// Only the columns marked in `keep` (all when `nil`) are decoded; the others are left empty.
    static func record(_ bytes: [UInt8], at index: inout Int, separator: UInt8, line: Int, keep: [Bool]? = nil) -> (fields: [String], line: Int, nextLine: Int)? {
        guard index < bytes.count else { return nil }
        var fields: [String] = []
        var field: [UInt8] = []
        func finishField() {
            let column = fields.count
            let wanted = keep.map { column < $0.count && $0[column] } ?? true
            fields.append(wanted ? String(decoding: field, as: UTF8.self) : "")
            field.removeAll(keepingCapacity: true)
        }
        var quoted = false
        var lines = line
        while index < bytes.count {
            let c = bytes[index]
            if quoted {
                if c == 0x22 {
                    if index + 1 < bytes.count && bytes[index + 1] == 0x22 {
                        field.append(0x22)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if c == 0x0A { lines += 1 }
                    field.append(c)
                }
            } else if c == 0x22 && field.allSatisfy({ $0 == 0x20 }) {
                field.removeAll()
                quoted = true
            } else if c == separator {
                finishField()
            } else if c == 0x0A || c == 0x0D {
                if c == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A { index += 1 }
                index += 1
                finishField()
                return (fields, line, lines + 1)
            } else {
                field.append(c)
            }
            index += 1
        }
        finishField()
        return (fields, line, lines + 1)
    }
}
