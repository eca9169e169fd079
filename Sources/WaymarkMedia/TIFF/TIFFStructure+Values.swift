import Foundation

/// Reading tag values out of a parsed TIFF block, bounds-checked: ASCII, SHORT/LONG and RATIONAL.
///
/// A value of the wrong type, or one that lies outside the block, reads as nil; nothing here traps.
extension TIFFStructure {
    /// More values than any tag Waymark reads has; a hostile count is not materialised.
    static let maxValuesRead = 4096

    /// The directory a pointer tag of `directory` (e.g. the Exif IFD pointer 0x8769 of IFD0) leads to.
    func directory(pointedToBy tag: UInt16, in directory: TIFFDirectory, bytes: UnsafeRawBufferPointer) -> TIFFDirectory? {
        guard let entry = directory.entries.first(where: { $0.tag == tag }), entry.count == 1, entry.type == 4 || entry.type == 13 else {
            return nil
        }
        let reader = TIFFReader(bytes: bytes, order: byteOrder)
        let offset = Int(reader.u32(field: entry.field))
        guard directoryOffsets.contains(offset), let count = try? reader.u16(at: offset), count > 0,
              Int(count) <= Self.maxEntries else { return nil }
        let end = offset + 2 + 12 * Int(count) + 4
        guard end <= bytes.count else { return nil }
        var entries: [TIFFEntry] = []
        for i in 0..<Int(count) {
            let at = offset + 2 + 12 * i
            guard let tag = try? reader.u16(at: at), let type = try? reader.u16(at: at + 2), let count = try? reader.u32(at: at + 4) else { return nil }
            entries.append(TIFFEntry(tag: tag, type: type, count: count, field: Array(bytes[(at + 8)..<(at + 12)])))
        }
        return TIFFDirectory(offset: offset, entries: entries, next: (try? reader.u32(at: end - 4)) ?? 0)
    }

    /// The raw bytes of a tag's value (in the entry itself when they fit, else where it points), nil when outside the block.
    func valueBytes(of tag: UInt16, in directory: TIFFDirectory, bytes: UnsafeRawBufferPointer) -> (entry: TIFFEntry, bytes: [UInt8])? {
        guard let entry = directory.entries.first(where: { $0.tag == tag }), let size = entry.valueSize,
              entry.count <= UInt32(Self.maxValuesRead) else { return nil }
        if size <= 4 { return (entry, Array(entry.field.prefix(size))) }
        let offset = Int(TIFFReader(bytes: bytes, order: byteOrder).u32(field: entry.field))
        guard offset >= 0, offset <= bytes.count, size <= bytes.count - offset else { return nil }
        return (entry, Array(bytes[offset..<(offset + size)]))
    }

    /// An ASCII value up to its first NUL, with surrounding spaces trimmed; nil when absent, empty or not ASCII-typed.
    func string(_ tag: UInt16, in directory: TIFFDirectory, bytes: UnsafeRawBufferPointer) -> String? {
        guard let (entry, raw) = valueBytes(of: tag, in: directory, bytes: bytes), entry.type == 2 || entry.type == 7 else { return nil }
        let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// The SHORT or LONG values of a tag; nil when absent or of another type.
    func integers(_ tag: UInt16, in directory: TIFFDirectory, bytes: UnsafeRawBufferPointer) -> [Int]? {
        guard let (entry, raw) = valueBytes(of: tag, in: directory, bytes: bytes), entry.type == 3 || entry.type == 4 else { return nil }
        let unit = entry.type == 3 ? 2 : 4
        return stride(from: 0, to: raw.count - unit + 1, by: unit).map { Int(decode(raw[$0..<($0 + unit)])) }
    }

    /// The RATIONAL (or SRATIONAL) values of a tag as numbers; nil when absent, of another type, or a denominator is 0.
    func rationals(_ tag: UInt16, in directory: TIFFDirectory, bytes: UnsafeRawBufferPointer) -> [Double]? {
        guard let (entry, raw) = valueBytes(of: tag, in: directory, bytes: bytes), entry.type == 5 || entry.type == 10 else { return nil }
        var values: [Double] = []
        for at in stride(from: 0, to: raw.count - 7, by: 8) {
            let numerator = decode(raw[at..<(at + 4)]), denominator = decode(raw[(at + 4)..<(at + 8)])
            guard denominator != 0 else { return nil }
            if entry.type == 10 {
                values.append(Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator)))
            } else {
                values.append(Double(numerator) / Double(denominator))
            }
        }
        return values
    }

    /// A latitude or longitude from its degrees/minutes/seconds tag and its reference tag ("S"/"W" negative).
    func coordinate(_ tag: UInt16, reference: UInt16, in directory: TIFFDirectory, bytes: UnsafeRawBufferPointer) -> Double? {
        guard let parts = rationals(tag, in: directory, bytes: bytes), parts.count == 3 else { return nil }
        let value = parts[0] + parts[1] / 60 + parts[2] / 3600
        guard value.isFinite else { return nil }
        let ref = string(reference, in: directory, bytes: bytes)
        return ref == "S" || ref == "W" ? -value : value
    }

    /// A 2- or 4-byte unsigned number in this structure's byte order.
    private func decode(_ raw: ArraySlice<UInt8>) -> UInt32 {
        let ordered = byteOrder == .littleEndian ? Array(raw.reversed()) : Array(raw)
        return ordered.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
}
