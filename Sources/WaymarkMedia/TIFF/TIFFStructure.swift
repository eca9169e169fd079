import Foundation

/// The byte order of a TIFF structure ("II" little-endian, "MM" big-endian).
enum TIFFByteOrder: Sendable, Equatable {
    case littleEndian
    case bigEndian
}

/// One 12-byte IFD entry exactly as it is in the file: the 4-byte value field is kept raw, so a
/// copy of the entry written back in the same byte order is byte-identical.
struct TIFFEntry: Sendable, Equatable {
    var tag: UInt16
    var type: UInt16
    var count: UInt32
    /// The value (when it fits in 4 bytes) or the offset of the value, as the 4 bytes in the file.
    var field: [UInt8]

    /// Bytes per value of each TIFF 6 / Exif type (1 BYTE … 13 IFD), nil for a type TIFF does not define.
    static func unitSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// The size of the whole value in bytes, nil for an unknown type or a size that overflows.
    var valueSize: Int? {
        guard let unit = Self.unitSize(type) else { return nil }
        let (size, overflow) = Int(count).multipliedReportingOverflow(by: unit)
        return overflow ? nil : size
    }
}

/// One image file directory: where its table is and the entries in it.
struct TIFFDirectory: Sendable, Equatable {
    /// Offset of the entry count, from the start of the TIFF header.
    var offset: Int
    var entries: [TIFFEntry]
    /// The raw link to the next IFD (0 when there is none).
    var next: UInt32

    /// The bytes the directory's table occupies: count, entries, next link.
    var tableSize: Int { 2 + 12 * entries.count + 4 }
}

/// Why a TIFF structure was refused. Every case means "this file is not safe to edit in place".
enum TIFFStructureError: Error, Equatable, CustomStringConvertible {
    case tooShort
    case notTIFF
    case unsupportedVariant(magic: UInt16)
    case outOfBounds(String)
    case loop(offset: Int)
    case overlap(offset: Int)
    case unknownType(tag: UInt16, type: UInt16)
    case tooManyDirectories

    var description: String {
        switch self {
        case .tooShort: "the TIFF structure is shorter than its 8-byte header"
        case .notTIFF: "the TIFF header is neither \"II\" nor \"MM\""
        case .unsupportedVariant(let magic): "the TIFF variant \(String(format: "0x%04X", magic)) is not plain TIFF"
        case .outOfBounds(let what): "\(what) points outside the file"
        case .loop(let offset): "the directories form a loop (at offset \(offset))"
        case .overlap(let offset): "two directories overlap (at offset \(offset))"
        case .unknownType(let tag, let type): "IFD0 tag \(String(format: "0x%04X", tag)) has the unknown value type \(type)"
        case .tooManyDirectories: "the file has more directories than any camera writes"
        }
    }
}

/// A small, strict reader of the directory structure of a TIFF block (a TIFF-based file, or the
/// Exif block of a JPEG): enough to append a new IFD0 and GPS IFD without moving a byte.
///
/// It reads both byte orders, follows the IFD chain and the Exif, GPS, Interoperability and
/// SubIFD pointers, and refuses anything that is not safe to build on: tables or IFD0 values
/// outside the block, loops, overlapping tables, unknown value types in IFD0, BigTIFF and the
/// TIFF-like variants whose structure is not plain TIFF (RW2). Maker notes are not parsed: the
/// writer never moves them, whatever their offset base.
struct TIFFStructure: Sendable, Equatable {
    static let gpsPointerTag: UInt16 = 0x8825
    static let exifPointerTag: UInt16 = 0x8769
    static let interopPointerTag: UInt16 = 0xA005
    static let subIFDsTag: UInt16 = 0x014A
    /// More than any camera writes; a bound so that a hostile file cannot make the walk expensive.
    static let maxDirectories = 256
    static let maxEntries = 4096

    var byteOrder: TIFFByteOrder
    /// 42, or Olympus' 0x4F52/0x5352 (ORF), whose structure is otherwise plain TIFF.
    var magic: UInt16
    var ifd0: TIFFDirectory
    /// Offsets of every directory found, IFD0 included.
    var directoryOffsets: [Int]
    /// The GPS IFD IFD0 points to, if any.
    var gps: TIFFDirectory?

    /// Parses the TIFF block in `bytes`; offsets in the result are relative to its start.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> TIFFStructure {
        guard bytes.count >= 8 else { throw TIFFStructureError.tooShort }
        let order: TIFFByteOrder
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): order = .littleEndian
        case (0x4D, 0x4D): order = .bigEndian
        default: throw TIFFStructureError.notTIFF
        }
        let reader = TIFFReader(bytes: bytes, order: order)
        let magic = try reader.u16(at: 2)
        guard magic == 42 || magic == 0x4F52 || magic == 0x5352 else { throw TIFFStructureError.unsupportedVariant(magic: magic) }
        var walk = DirectoryWalk(reader: reader)
        let ifd0 = try walk.directory(at: Int(try reader.u32(at: 4)), what: "IFD0")
        // The chain: IFD1 (the thumbnail) and whatever follows.
        var next = ifd0.next
        while next != 0 {
            let directory = try walk.directory(at: Int(next), what: "a linked IFD")
            try walk.children(of: directory, depth: 1)
            next = directory.next
        }
        try walk.children(of: ifd0, depth: 1)
        for offset in walk.order {
            if let directory = walk.visited[offset] { try checkValues(of: directory, isIFD0: offset == ifd0.offset, reader: reader) }
        }
        var gps: TIFFDirectory?
        if let pointer = ifd0.entries.first(where: { $0.tag == gpsPointerTag }) {
            gps = walk.visited[Int(reader.u32(field: pointer.field))]
        }
        return TIFFStructure(byteOrder: order, magic: magic, ifd0: ifd0, directoryOffsets: walk.order, gps: gps)
    }

    /// Tags whose value is the offset of data elsewhere, with the tag that gives its length.
    static let dataPointers: [UInt16: UInt16] = [0x0201: 0x0202, 0x0111: 0x0117, 0x0144: 0x0145]

    /// Every value that does not fit in its entry, and every strip, tile and thumbnail, lies inside
    /// the block: the new IFD0 points to the same bytes, and in a JPEG nothing the structure
    /// addresses may lie after the Exif block, where it would move. Unknown value types are refused
    /// in IFD0, which is copied, and skipped elsewhere.
    private static func checkValues(of directory: TIFFDirectory, isIFD0: Bool, reader: TIFFReader) throws {
        let name = isIFD0 ? "IFD0" : "the directory at \(directory.offset)"
        for entry in directory.entries {
            guard let size = entry.valueSize else {
                if isIFD0 { throw TIFFStructureError.unknownType(tag: entry.tag, type: entry.type) }
                continue
            }
            guard size > 4 else { continue }
            let offset = Int(reader.u32(field: entry.field))
            guard offset >= 8, offset <= reader.bytes.count, size <= reader.bytes.count - offset else {
                throw TIFFStructureError.outOfBounds(String(format: "the value of tag 0x%04X in ", entry.tag) + name)
            }
        }
        for (pointerTag, lengthTag) in dataPointers {
            guard let pointer = directory.entries.first(where: { $0.tag == pointerTag }),
                  let length = directory.entries.first(where: { $0.tag == lengthTag }),
                  pointer.count == length.count, pointer.count <= 1 << 16,
                  let starts = try? values(of: pointer, reader: reader), let sizes = try? values(of: length, reader: reader) else { continue }
            for (start, size) in zip(starts, sizes) where start > reader.bytes.count || size > reader.bytes.count - start {
                throw TIFFStructureError.outOfBounds(String(format: "the data of tag 0x%04X in ", pointerTag) + name)
            }
        }
    }

    /// The SHORT or LONG values of an entry.
    private static func values(of entry: TIFFEntry, reader: TIFFReader) throws -> [Int] {
        guard entry.type == 3 || entry.type == 4, let size = entry.valueSize else { return [] }
        let unit = entry.type == 3 ? 2 : 4
        let base: Int
        if size <= 4 {
            return (0..<Int(entry.count)).map { i in
                let b = entry.field[(i * unit)..<(i * unit + unit)].map(Int.init)
                if unit == 2 { return reader.order == .littleEndian ? (b[1] << 8 | b[0]) : (b[0] << 8 | b[1]) }
                return Int(reader.u32(field: entry.field))
            }
        }
        base = Int(reader.u32(field: entry.field))
        return try (0..<Int(entry.count)).map { i in
            unit == 2 ? Int(try reader.u16(at: base + 2 * i)) : Int(try reader.u32(at: base + 4 * i))
        }
    }
}

/// Bounds-checked reads in one byte order.
struct TIFFReader {
    let bytes: UnsafeRawBufferPointer
    let order: TIFFByteOrder

    func u16(at offset: Int) throws -> UInt16 {
        guard offset >= 0, offset <= bytes.count - 2 else { throw TIFFStructureError.outOfBounds("a 2-byte value at \(offset)") }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return order == .littleEndian ? (b << 8 | a) : (a << 8 | b)
    }

    func u32(at offset: Int) throws -> UInt32 {
        guard offset >= 0, offset <= bytes.count - 4 else { throw TIFFStructureError.outOfBounds("a 4-byte value at \(offset)") }
        return u32(field: Array(bytes[offset..<offset + 4]))
    }

    /// The 4 raw bytes of a value field as a number in this byte order.
    func u32(field: [UInt8]) -> UInt32 {
        let b = field.map(UInt32.init)
        return order == .littleEndian ? (b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]) : (b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3])
    }
}

/// The walk over every directory reachable from IFD0, refusing loops and overlapping tables.
private struct DirectoryWalk {
    let reader: TIFFReader
    var visited: [Int: TIFFDirectory] = [:]
    var order: [Int] = []

    init(reader: TIFFReader) { self.reader = reader }

    mutating func directory(at offset: Int, what: String) throws -> TIFFDirectory {
        guard visited[offset] == nil else { throw TIFFStructureError.loop(offset: offset) }
        guard visited.count < TIFFStructure.maxDirectories else { throw TIFFStructureError.tooManyDirectories }
        guard offset >= 8 else { throw TIFFStructureError.outOfBounds("\(what) at offset \(offset)") }
        let count = Int(try reader.u16(at: offset))
        guard count > 0, count <= TIFFStructure.maxEntries else {
            throw TIFFStructureError.outOfBounds("\(what) (\(count) entries)")
        }
        let end = offset + 2 + 12 * count + 4
        guard end <= reader.bytes.count else { throw TIFFStructureError.outOfBounds("\(what) at offset \(offset)") }
        for other in visited.values where offset < other.offset + other.tableSize && other.offset < end {
            throw TIFFStructureError.overlap(offset: offset)
        }
        var entries: [TIFFEntry] = []
        entries.reserveCapacity(count)
        for i in 0..<count {
            let at = offset + 2 + 12 * i
            entries.append(TIFFEntry(tag: try reader.u16(at: at), type: try reader.u16(at: at + 2),
                                     count: try reader.u32(at: at + 4), field: Array(reader.bytes[at + 8..<at + 12])))
        }
        let directory = TIFFDirectory(offset: offset, entries: entries, next: try reader.u32(at: end - 4))
        visited[offset] = directory
        order.append(offset)
        return directory
    }

    /// Walks the Exif, GPS, Interoperability and SubIFD directories a directory points to.
    mutating func children(of parent: TIFFDirectory, depth: Int) throws {
        guard depth <= 4 else { return }
        for entry in parent.entries {
            var targets: [Int] = []
            switch entry.tag {
            case TIFFStructure.exifPointerTag, TIFFStructure.gpsPointerTag, TIFFStructure.interopPointerTag:
                guard entry.count == 1, entry.type == 4 || entry.type == 13 else {
                    throw TIFFStructureError.outOfBounds(String(format: "the directory pointer 0x%04X", entry.tag))
                }
                targets = [Int(reader.u32(field: entry.field))]
            case TIFFStructure.subIFDsTag where entry.type == 4 || entry.type == 13:
                guard entry.count >= 1, entry.count <= 64 else { throw TIFFStructureError.outOfBounds("the SubIFDs list") }
                if entry.count == 1 {
                    targets = [Int(reader.u32(field: entry.field))]
                } else {
                    let base = Int(reader.u32(field: entry.field))
                    for i in 0..<Int(entry.count) { targets.append(Int(try reader.u32(at: base + 4 * i))) }
                }
            default:
                continue
            }
            for target in targets {
                let child = try directory(at: target, what: String(format: "the directory of tag 0x%04X", entry.tag))
                try children(of: child, depth: depth + 1)
            }
        }
    }
}
