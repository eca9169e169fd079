import Foundation

/// The text encodings of XML track files, and their conversion to the UTF-8 that `XMLParser` needs.
///
/// swift-corelibs-foundation's `XMLParser` traps (SIGILL) when libxml2 hands it an element
/// name, attribute name, comment or processing instruction that is not valid UTF-8 — one
/// stray Latin-1 byte in an old GPX file was enough — and it reads NULL pointers as C strings
/// for a few constructs of well-formed XML. So the readers never give it the file's own bytes:
/// ``XMLSupport/utf8Document(_:)`` decodes them first and hands over valid UTF-8 whose XML
/// declaration says `encoding="UTF-8"`, so libxml2 cannot re-interpret them, with every
/// processing instruction given data and any DOCTYPE with declarations of its own refused.
extension XMLSupport {
    /// An encoding Waymark reads XML in.
    enum TextEncoding: Equatable {
        /// UTF-8, with or without a byte-order mark; any byte that is not part of a valid
        /// UTF-8 sequence is read as Windows-1252 (see ``XMLSupport/utf8Document(_:)``).
        case utf8
        /// UTF-16, little or big endian, told by a byte-order mark (or by `<?` at the start).
        case utf16(bigEndian: Bool)
        /// ISO-8859-1 as it is written in practice: Windows-1252, as browsers read it.
        case latin1
        /// Windows-1252 (cp1252).
        case windows1252
    }

    /// Why a document is refused before `XMLParser` sees it.
    enum Refusal: Error, Equatable {
        /// Written in an encoding Waymark does not read, named as the file names it.
        case encoding(String)
        /// Holds a DOCTYPE with an internal subset (`<!DOCTYPE x [ … ]>`), on this 1-based line.
        case internalSubset(line: Int)
    }

    /// The document as valid UTF-8 with its XML declaration naming UTF-8, or why it is refused.
    ///
    /// - A byte-order mark decides: UTF-8, UTF-16 LE or BE; UTF-32 is refused. Without one,
    ///   `<?` written in UTF-16 (`3C 00 3F 00` or `00 3C 00 3F`) means UTF-16.
    /// - Otherwise the declaration's `encoding=` decides: UTF-8 (and ASCII), ISO-8859-1 and
    ///   Windows-1252 are read; any other name is refused (``Refusal/encoding(_:)``).
    /// - Without a declared encoding the file is UTF-8, as XML prescribes.
    /// - **Invalid UTF-8 is not an error**: in a file declared (or defaulting to) UTF-8, every
    ///   byte that is not part of a valid UTF-8 sequence is read as the Windows-1252 character
    ///   it stands for (the 5 bytes Windows-1252 leaves undefined become U+FFFD). Old GPX files
    ///   written in Latin-1 usually carry no declaration or a wrong one, and only names and
    ///   descriptions hold such bytes — positions and times are ASCII — so a user expects the
    ///   track to be read, not refused; valid UTF-8 in the same file stays as it is.
    static func utf8Document(_ data: Data) -> Result<Data, Refusal> {
        let bytes = [UInt8](data)
        let encoding: TextEncoding
        var body = bytes[...]
        switch detectEncoding(data) {
        case .failure(let error): return .failure(error)
        case .success(let (detected, bomLength)):
            encoding = detected
            body = bytes.dropFirst(bomLength)
        }
        var utf8: [UInt8]
        switch encoding {
        case .utf8: utf8 = repairedUTF8(body)
        case .utf16(let bigEndian): utf8 = utf16ToUTF8(body, bigEndian: bigEndian)
        case .latin1, .windows1252: utf8 = windows1252ToUTF8(body)
        }
        relabelDeclaration(&utf8)
        giveInstructionsData(&utf8)
        if let line = internalSubsetLine(utf8) { return .failure(.internalSubset(line: line)) }
        return .success(Data(utf8))
    }

    /// The line of a `<!DOCTYPE … [` — a DOCTYPE with declarations of its own — if there is one.
    ///
    /// swift-corelibs-foundation's `XMLParser` reads a NULL pointer as a C string for an
    /// `<!ATTLIST>` without a default value, a `<!NOTATION>` and an unparsed `<!ENTITY … NDATA>`
    /// (a segmentation fault on well-formed XML), and parameter entities can build such
    /// declarations, so no text rewrite is safe: the document is refused. No GPS track format
    /// uses an internal subset, and refusing it also keeps entity expansion out.
    /// Searched anywhere in the file (a `<!DOCTYPE` in a comment counts too), so that no
    /// recovery of libxml2 can reach one this scan missed.
    static func internalSubsetLine(_ utf8: [UInt8]) -> Int? {
        let keyword: [UInt8] = Array("<!DOCTYPE".utf8)
        var index = 0
        while index + keyword.count <= utf8.count {
            guard utf8[index] == 0x3C, utf8[index + 1] == 0x21,
                  zip(utf8[index..<(index + keyword.count)], keyword).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else {
                index += 1
                continue
            }
            var cursor = index + keyword.count
            var quote: UInt8?
            scan: while cursor < utf8.count {
                let byte = utf8[cursor]
                if let open = quote {
                    if byte == open { quote = nil }
                } else {
                    switch byte {
                    case 0x22, 0x27: quote = byte
                    case 0x5B: return 1 + utf8[..<index].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                    case 0x3E: break scan
                    default: break
                    }
                }
                cursor += 1
            }
            index = cursor
        }
        return nil
    }

    /// Turns every processing instruction without data, `<?target?>`, into `<?target ?>`.
    ///
    /// libxml2 reports such an instruction with a NULL data pointer, which
    /// swift-corelibs-foundation's `XMLParser` reads as a C string: a segmentation fault on a
    /// well-formed document (found by `make fuzz`). With a blank the data is the empty string.
    /// A `<?` in a comment or CDATA section gets the blank too, which changes nothing a track
    /// reader uses.
    static func giveInstructionsData(_ utf8: inout [UInt8]) {
        var inserts: [Int] = []
        var index = 0
        while index + 1 < utf8.count {
            guard utf8[index] == 0x3C, utf8[index + 1] == 0x3F else { index += 1; continue }
            var end = index + 2
            while end < utf8.count, ![0x20, 0x09, 0x0A, 0x0D, 0x3F].contains(utf8[end]) { end += 1 }
            if end > index + 2, end + 1 < utf8.count, utf8[end] == 0x3F, utf8[end + 1] == 0x3E { inserts.append(end) }
            index = end
        }
        guard !inserts.isEmpty else { return }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count + inserts.count)
        var copied = 0
        for position in inserts {
            output.append(contentsOf: utf8[copied..<position])
            output.append(0x20)
            copied = position
        }
        output.append(contentsOf: utf8[copied...])
        utf8 = output
    }

    /// The encoding of `data` and the length of its byte-order mark, from its first 4 KiB.
    static func detectEncoding(_ data: Data) -> Result<(TextEncoding, Int), Refusal> {
        let bytes = [UInt8](data.prefix(4096))
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00])
            || bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00, 0x00, 0x00]) {
            return .failure(.encoding("UTF-32"))
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .success((.utf8, 3)) }
        if bytes.starts(with: [0xFF, 0xFE]) { return .success((.utf16(bigEndian: false), 2)) }
        if bytes.starts(with: [0xFE, 0xFF]) { return .success((.utf16(bigEndian: true), 2)) }
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return .success((.utf16(bigEndian: false), 0)) }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return .success((.utf16(bigEndian: true), 0)) }
        if bytes.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) { return .failure(.encoding("EBCDIC")) }
        guard let label = declaredEncoding(bytes[...]) else { return .success((.utf8, 0)) }
        switch label.lowercased() {
        case "utf-8", "utf8", "us-ascii", "ascii", "iso-646-us", "ansi_x3.4-1968":
            return .success((.utf8, 0))
        case "utf-16", "utf-16le", "utf-16be", "ucs-2", "unicode":
            // Declared UTF-16 but laid out one byte per character: the declaration is wrong.
            return .success((.utf8, 0))
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "iso-latin-1", "latin1", "latin-1", "l1", "iso-ir-100", "cp819", "ibm819":
            return .success((.latin1, 0))
        case "windows-1252", "cp1252", "x-cp1252", "cp-1252":
            return .success((.windows1252, 0))
        default:
            // The name as a message can show it: printable ASCII, at most 40 characters.
            let printable = String(label.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }.prefix(40).map(Character.init))
            return .failure(.encoding(printable.isEmpty ? "(unnamed)" : printable))
        }
    }

    /// The value of `encoding=` in the XML declaration at the start of `bytes`, if any.
    static func declaredEncoding(_ bytes: ArraySlice<UInt8>) -> String? {
        guard let range = declarationRange(bytes), let value = encodingValueRange(bytes[range]) else { return nil }
        return String(decoding: bytes[value], as: UTF8.self)
    }

    /// The bytes of `<?xml … ?>` when the document (after blanks) starts with it.
    private static func declarationRange(_ bytes: ArraySlice<UInt8>) -> Range<Int>? {
        var start = bytes.startIndex
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let opening: [UInt8] = Array("<?xml".utf8)
        guard bytes[start...].starts(with: opening), start + 5 < bytes.endIndex,
              [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start + 5]) else { return nil }
        let limit = min(bytes.endIndex, start + 1024)
        var index = start + 5
        while index + 1 < limit {
            if bytes[index] == 0x3F && bytes[index + 1] == 0x3E { return start..<(index + 2) }
            index += 1
        }
        return nil
    }

    /// The range of the quoted value of `encoding` inside a declaration.
    private static func encodingValueRange(_ declaration: ArraySlice<UInt8>) -> Range<Int>? {
        let key: [UInt8] = Array("encoding".utf8)
        var index = declaration.startIndex
        while index + key.count <= declaration.endIndex {
            if declaration[index...].starts(with: key) {
                var cursor = index + key.count
                func skipBlanks() { while cursor < declaration.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(declaration[cursor]) { cursor += 1 } }
                skipBlanks()
                guard cursor < declaration.endIndex, declaration[cursor] == 0x3D else { return nil }
                cursor += 1
                skipBlanks()
                guard cursor < declaration.endIndex, declaration[cursor] == 0x22 || declaration[cursor] == 0x27 else { return nil }
                let quote = declaration[cursor]
                let valueStart = cursor + 1
                guard let valueEnd = declaration[valueStart...].firstIndex(of: quote) else { return nil }
                return valueStart..<valueEnd
            }
            index += 1
        }
        return nil
    }

    /// Rewrites the declaration's `encoding` value to `UTF-8`, so libxml2 reads the bytes as they are.
    private static func relabelDeclaration(_ utf8: inout [UInt8]) {
        guard let range = declarationRange(utf8[...]), let value = encodingValueRange(utf8[range]) else { return }
        utf8.replaceSubrange(value, with: Array("UTF-8".utf8))
    }

    /// `bytes` unchanged if they are valid UTF-8; otherwise every byte outside a valid sequence
    /// replaced by the UTF-8 of its Windows-1252 character.
    static func repairedUTF8(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x80 {
                output.append(byte)
                index += 1
                continue
            }
            let length = validSequenceLength(bytes, at: index)
            if length > 0 {
                output.append(contentsOf: bytes[index..<(index + length)])
                index += length
            } else {
                appendUTF8(of: windows1252Scalar(byte), to: &output)
                index += 1
            }
        }
        return output
    }

    /// The length of the well-formed UTF-8 sequence (RFC 3629) starting at `index`, or 0.
    private static func validSequenceLength(_ bytes: ArraySlice<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF   // bounds of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F          // no surrogates
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F          // nothing above U+10FFFF
        default: return 0
        }
        guard index + length <= bytes.endIndex else { return 0 }
        guard (low...high).contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<max(length, 2) where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }

    /// Windows-1252 (and ISO-8859-1 as written in practice) to UTF-8.
    static func windows1252ToUTF8(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 { output.append(byte) } else { appendUTF8(of: windows1252Scalar(byte), to: &output) }
        }
        return output
    }

    /// UTF-16 to UTF-8; an unpaired surrogate or a lone last byte becomes U+FFFD.
    static func utf16ToUTF8(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2 + 1)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            units.append(bigEndian ? (a << 8 | b) : (b << 8 | a))
            index += 2
        }
        if index < bytes.endIndex { units.append(0xFFFD) }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// The character a Windows-1252 byte stands for; the five undefined bytes give U+FFFD.
    static func windows1252Scalar(_ byte: UInt8) -> UInt32 {
        guard (0x80...0x9F).contains(byte) else { return UInt32(byte) }
        return windows1252High[Int(byte - 0x80)]
    }

    /// Windows-1252 0x80–0x9F (U+FFFD where the code page defines nothing).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]

    private static func appendUTF8(of scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (scalar >> 6)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        default:   // every Windows-1252 character lies in the Basic Multilingual Plane
            output.append(UInt8(0xE0 | (scalar >> 12)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
