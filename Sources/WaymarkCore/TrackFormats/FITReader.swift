import Foundation

/// Reads Garmin FIT activity files: the `record` messages (global message 20).
///
/// - The file header (12 or 14 bytes, ".FIT" at bytes 8–11) is checked, with its CRC when it
///   has one, and so is the CRC-16 at the end of the data: a file that was cut off or altered
///   is refused, never half read.
/// - Definition messages of either byte order and with developer fields (skipped by their
///   declared size) are understood; so are compressed-timestamp headers (a 5-bit offset from
///   the last full timestamp of any message).
/// - A record's time is field 253 (seconds since 1989-12-31T00:00:00Z), its position fields 0
///   and 1 (semicircles: degrees × 2³¹/180); a record without a position (0x7FFFFFFF, indoors
///   or before the first fix) is skipped. Altitude is enhanced_altitude (78) when present,
///   else altitude (2), both `value / 5 − 500` metres.
/// - Tracks: one per session (split at each `session` message's start_time) and one per FIT
///   file when several are chained in one file. Timer stops and starts (auto-pause) do not
///   split a track: a device pauses when its rider stands still, which is when photos are
///   taken, and correlation's max-gap rule already refuses to bridge long gaps.
/// - Every length read from the file is checked against the bytes that remain before use.
enum FITReader {
    /// Seconds from 1970-01-01 to the FIT epoch, 1989-12-31T00:00:00Z.
    static let epochOffset: TimeInterval = 631_065_600
    /// FIT timestamps below this count seconds since the device powered on, not a date.
    static let minimumAbsoluteTimestamp: UInt32 = 0x1000_0000

    /// Whether the data starts with a FIT file header.
    static func hasSignature(_ data: Data) -> Bool {
        guard data.count >= 12 else { return false }
        let start = data.startIndex
        return data[start] >= 12 && data[start + 8] == 0x2E && data[start + 9] == 0x46
            && data[start + 10] == 0x49 && data[start + 11] == 0x54
    }

    static func read(_ data: Data, fileName: String) throws -> [Track] {
        var parser = FITParser(bytes: [UInt8](data), fileName: fileName)
        return try parser.read()
    }

    /// The FIT SDK's CRC-16 (polynomial 0xA001, nibble-wise) of `bytes[range]`, continuing from `crc`.
    static func crc(_ bytes: [UInt8], _ range: Range<Int>, startingAt crc: UInt16 = 0) -> UInt16 {
        let table: [UInt16] = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
                               0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]
        var crc = crc
        for index in range {
            let byte = bytes[index]
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte >> 4)]
        }
        return crc
    }
}

/// One pass over the bytes of a FIT file (or several chained FIT files).
private struct FITParser {
    /// How to read the data messages of one local message type.
    struct Definition {
        var globalMessage: UInt16
        var bigEndian: Bool
        /// Field number, offset within the message, size.
        var fields: [(number: UInt8, offset: Int, size: Int)]
        /// Bytes of one data message: fields plus developer fields.
        var size: Int
    }

    /// A position read from a record, and the track it belongs to is decided later.
    struct Record {
        var time: UInt32
        var latitude: Double
        var longitude: Double
        var altitude: Double?
    }

    let bytes: [UInt8]
    let fileName: String
    private var tracks: [Track] = []
    private var recordCount = 0
    private var recordsWithoutPosition = 0
    private var recordsWithoutTime = 0

    init(bytes: [UInt8], fileName: String) {
        self.bytes = bytes
        self.fileName = fileName
    }

    mutating func read() throws -> [Track] {
        var start = 0
        var fileCount = 0
        while start < bytes.count {
            if fileCount > 0 && bytes[start...].allSatisfy({ $0 == 0 }) { break }   // padding after the last file
            guard bytes.count - start >= 12, FITReader.hasSignature(Data(bytes[start..<(start + 12)])) else {
                let what = fileCount == 0 ? "does not start with a FIT header" : "has \((bytes.count - start).groupedForMessage) bytes after its FIT data that are not another FIT file (at byte \(start.groupedForMessage))"
                throw damaged(what)
            }
            start = try readFile(at: start)
            fileCount += 1
        }
        let result = tracks.filter { !$0.fixes.isEmpty }
        guard !result.isEmpty else {
            var reasons: [String] = []
            if recordCount == 0 {
                reasons.append("it holds no record messages (is it a course, workout or settings file rather than a recorded activity?)")
            }
            if recordsWithoutPosition > 0 {
                reasons.append("\(recordsWithoutPosition.groupedForMessage) records have no position (an indoor activity, or GPS was off)")
            }
            if recordsWithoutTime > 0 {
                reasons.append("\(recordsWithoutTime.groupedForMessage) records have no date and time")
            }
            throw TrackFormatError(file: fileName, message: "contains no positions with a time: \(reasons.joined(separator: "; ")) — record the activity with GPS on, or export it as GPX")
        }
        return result
    }

    private func damaged(_ what: String) -> TrackFormatError {
        TrackFormatError(file: fileName, message: "\(what) — the FIT file is damaged or truncated; copy it from the device again")
    }

    /// Reads the FIT file whose header starts at `start`; returns where the next one would start.
    private mutating func readFile(at start: Int) throws -> Int {
        let headerSize = Int(bytes[start])
        let dataSize = Int(readUInt32(start + 4, bigEndian: false))
        guard bytes.count - start >= headerSize else {
            throw damaged("ends inside its \(headerSize)-byte FIT header")
        }
        if headerSize >= 14 {
            let stored = readUInt16(start + 12, bigEndian: false)
            if stored != 0 && stored != FITReader.crc(bytes, start..<(start + 12)) {
                throw damaged("has a FIT header whose checksum does not match (at byte \(start.groupedForMessage))")
            }
        }
        let dataStart = start + headerSize
        let available = bytes.count - dataStart
        guard dataSize <= available - 2 else {
            throw damaged("is cut off: its header announces \(dataSize.groupedForMessage) bytes of data and a checksum, but only \(max(available, 0).groupedForMessage) bytes follow")
        }
        let dataEnd = dataStart + dataSize
        let storedCRC = readUInt16(dataEnd, bigEndian: false)
        guard storedCRC == FITReader.crc(bytes, start..<dataEnd) else {
            throw damaged("has a checksum that does not match its contents (the file was altered or cut off)")
        }
        try readMessages(dataStart..<dataEnd)
        return dataEnd + 2
    }

    /// Reads the data records of one FIT file and appends its tracks.
    private mutating func readMessages(_ range: Range<Int>) throws {
        var definitions = [Definition?](repeating: nil, count: 16)
        var lastTimestamp: UInt32?
        var records: [Record] = []
        var sessionStarts: [UInt32] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let header = bytes[index]
            let messageStart = index
            index += 1
            let local: Int
            var compressedTime: UInt32?
            if header & 0x80 != 0 {
                // Compressed timestamp header: local type in bits 5–6, time offset in bits 0–4.
                local = Int((header >> 5) & 0x03)
                guard let last = lastTimestamp else {
                    throw damaged("has a compressed timestamp at byte \(messageStart.groupedForMessage) before any full timestamp")
                }
                let offset = UInt32(header & 0x1F)
                var time = (last & ~0x1F) + offset
                if offset < last & 0x1F { time &+= 0x20 }
                compressedTime = time
                lastTimestamp = time
            } else if header & 0x40 != 0 {
                definitions[Int(header & 0x0F)] = try readDefinition(at: &index, end: range.upperBound, developerData: header & 0x20 != 0)
                continue
            } else {
                local = Int(header & 0x0F)
            }
            guard let definition = definitions[local] else {
                throw damaged("has a data message at byte \(messageStart.groupedForMessage) for local message type \(local), which was never defined")
            }
            guard range.upperBound - index >= definition.size else {
                throw damaged("ends inside a data message at byte \(messageStart.groupedForMessage)")
            }
            let body = index
            index += definition.size
            var timestamp = compressedTime
            if let field = definition.fields.first(where: { $0.number == 253 && $0.size == 4 }) {
                let value = readUInt32(body + field.offset, bigEndian: definition.bigEndian)
                if value != 0xFFFF_FFFF {
                    timestamp = value
                    lastTimestamp = value
                }
            }
            switch definition.globalMessage {
            case 20:
                if let record = readRecord(in: definition, at: body, time: timestamp) { records.append(record) }
            case 18:
                // session: start_time is field 2.
                if let field = definition.fields.first(where: { $0.number == 2 && $0.size == 4 }) {
                    let value = readUInt32(body + field.offset, bigEndian: definition.bigEndian)
                    if value != 0xFFFF_FFFF && value >= FITReader.minimumAbsoluteTimestamp { sessionStarts.append(value) }
                }
            default:
                break
            }
        }
        appendTracks(records, sessionStarts: sessionStarts)
    }

    private func readDefinition(at index: inout Int, end: Int, developerData: Bool) throws -> FITParser.Definition {
        let start = index - 1
        guard end - index >= 5 else { throw damaged("ends inside a definition message at byte \(start.groupedForMessage)") }
        let architecture = bytes[index + 1]
        guard architecture <= 1 else {
            throw damaged("has a definition message at byte \(start.groupedForMessage) with an unknown byte order (\(architecture))")
        }
        let bigEndian = architecture == 1
        let global = readUInt16(index + 2, bigEndian: bigEndian)
        let fieldCount = Int(bytes[index + 4])
        index += 5
        guard end - index >= fieldCount * 3 else {
            throw damaged("has a definition message at byte \(start.groupedForMessage) declaring \(fieldCount) fields that do not fit in the file")
        }
        var fields: [(number: UInt8, offset: Int, size: Int)] = []
        fields.reserveCapacity(fieldCount)
        var size = 0
        for k in 0..<fieldCount {
            let fieldSize = Int(bytes[index + 3 * k + 1])
            fields.append((bytes[index + 3 * k], size, fieldSize))
            size += fieldSize
        }
        index += fieldCount * 3
        if developerData {
            guard end - index >= 1 else { throw damaged("ends inside a definition message at byte \(start.groupedForMessage)") }
            let developerCount = Int(bytes[index])
            index += 1
            guard end - index >= developerCount * 3 else {
                throw damaged("has a definition message at byte \(start.groupedForMessage) declaring \(developerCount) developer fields that do not fit in the file")
            }
            for k in 0..<developerCount { size += Int(bytes[index + 3 * k + 1]) }
            index += developerCount * 3
        }
        return Definition(globalMessage: global, bigEndian: bigEndian, fields: fields, size: size)
    }

    /// The position of a `record` message, or `nil` (counted) when it has no position or time.
    private mutating func readRecord(in definition: Definition, at body: Int, time: UInt32?) -> Record? {
        recordCount += 1
        var latitude: Int32 = .max, longitude: Int32 = .max
        var altitude: Double?, enhancedAltitude: Double?
        for field in definition.fields {
            let at = body + field.offset
            switch (field.number, field.size) {
            case (0, 4): latitude = Int32(bitPattern: readUInt32(at, bigEndian: definition.bigEndian))
            case (1, 4): longitude = Int32(bitPattern: readUInt32(at, bigEndian: definition.bigEndian))
            case (2, 2):
                let raw = readUInt16(at, bigEndian: definition.bigEndian)
                if raw != 0xFFFF { altitude = Double(raw) / 5 - 500 }
            case (78, 4):
                let raw = readUInt32(at, bigEndian: definition.bigEndian)
                if raw != 0xFFFF_FFFF { enhancedAltitude = Double(raw) / 5 - 500 }
            default:
                break
            }
        }
        let degreesPerSemicircle = 180.0 / 2_147_483_648.0
        let lat = Double(latitude) * degreesPerSemicircle, lon = Double(longitude) * degreesPerSemicircle
        guard latitude != .max, longitude != .max, (-90...90).contains(lat), (-180...180).contains(lon) else {
            recordsWithoutPosition += 1
            return nil
        }
        guard let time, time >= FITReader.minimumAbsoluteTimestamp else {
            recordsWithoutTime += 1
            return nil
        }
        return Record(time: time, latitude: lat, longitude: lon, altitude: enhancedAltitude ?? altitude)
    }

    /// One track per session of this file: a record belongs to the last session started at or before it.
    private mutating func appendTracks(_ records: [Record], sessionStarts: [UInt32]) {
        let starts = Array(Set(sessionStarts)).sorted().dropFirst()   // the first session takes everything before the second
        var groups = [[Fix]](repeating: [], count: starts.count + 1)
        for record in records {
            // The number of later session starts at or before the record: a binary search.
            var low = starts.startIndex, high = starts.endIndex
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= record.time { low = middle + 1 } else { high = middle }
            }
            let group = low - starts.startIndex
            let time = Date(timeIntervalSince1970: FITReader.epochOffset + TimeInterval(record.time))
            groups[group].append(Fix(latitude: record.latitude, longitude: record.longitude, altitude: record.altitude, time: time))
        }
        tracks += groups.map { Track(name: nil, fixes: $0) }
    }

    private func readUInt16(_ at: Int, bigEndian: Bool) -> UInt16 {
        let a = UInt16(bytes[at]), b = UInt16(bytes[at + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private func readUInt32(_ at: Int, bigEndian: Bool) -> UInt32 {
        let a = UInt32(bytes[at]), b = UInt32(bytes[at + 1]), c = UInt32(bytes[at + 2]), d = UInt32(bytes[at + 3])
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }
}
