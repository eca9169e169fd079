import Foundation

/// What appending GPS to a TIFF block adds: bytes to put after its end, and the new IFD0's offset
/// to put in its header. Nothing else in the block changes.
struct TIFFAppendix: Equatable {
    /// The bytes to append at the end of the block (alignment padding first).
    var bytes: [UInt8]
    /// Where the new IFD0 starts, from the start of the TIFF header.
    var ifd0Offset: UInt32
    /// Where the new GPS IFD starts.
    var gpsOffset: UInt32
    /// The new IFD0: the original's entries with the GPSInfo pointer added or replaced.
    var ifd0: TIFFDirectory
    /// The GPS values written, as encoded.
    var gpsValues: [GPSDirectoryValue]
}

extension TIFFStructure {
    /// Builds a new GPS IFD and a copy of IFD0 that points to it, to be appended to a block of
    /// `blockLength` bytes.
    ///
    /// The copy has the same entries, byte for byte, with GPSInfo added (or, with an existing GPS
    /// IFD, replaced) and the same link to IFD1, so every value offset, the maker note, the
    /// thumbnail and the image data stay exactly where they were, whatever their offset base.
    func appendix(for tags: GPSTags, blockLength: Int) throws -> TIFFAppendix {
        let values = tags.directoryValues(order: byteOrder)
        let start = blockLength + blockLength % 2
        var out = [UInt8](repeating: 0, count: start - blockLength)

        // The GPS IFD: its table, then the values that do not fit in 4 bytes, each at an even offset.
        let gpsOffset = start
        let tableSize = 2 + 12 * values.count + 4
        var table = GPSTags.encode(UInt16(values.count), byteOrder)
        var valueArea: [UInt8] = []
        for value in values {
            table += GPSTags.encode(value.tag, byteOrder) + GPSTags.encode(value.type, byteOrder) + GPSTags.encode(value.count, byteOrder)
            if value.bytes.count <= 4 {
                table += value.bytes + [UInt8](repeating: 0, count: 4 - value.bytes.count)
            } else {
                table += GPSTags.encode(try Self.offset(gpsOffset + tableSize + valueArea.count), byteOrder)
                valueArea += value.bytes
                if value.bytes.count % 2 == 1 { valueArea.append(0) }
            }
        }
        table += [0, 0, 0, 0]  // no next IFD
        out += table + valueArea

        // The new IFD0.
        let pointer = TIFFEntry(tag: Self.gpsPointerTag, type: 4, count: 1, field: GPSTags.encode(try Self.offset(gpsOffset), byteOrder))
        var entries = ifd0.entries
        if let existing = entries.firstIndex(where: { $0.tag == Self.gpsPointerTag }) {
            entries[existing] = pointer
        } else {
            entries.insert(pointer, at: entries.firstIndex(where: { $0.tag > Self.gpsPointerTag }) ?? entries.endIndex)
        }
        let ifd0Offset = blockLength + out.count
        var directory = GPSTags.encode(UInt16(entries.count), byteOrder)
        for entry in entries {
            directory += GPSTags.encode(entry.tag, byteOrder) + GPSTags.encode(entry.type, byteOrder) + GPSTags.encode(entry.count, byteOrder) + entry.field
        }
        directory += GPSTags.encode(ifd0.next, byteOrder)
        out += directory
        _ = try Self.offset(blockLength + out.count)
        return TIFFAppendix(bytes: out, ifd0Offset: try Self.offset(ifd0Offset), gpsOffset: try Self.offset(gpsOffset),
                            ifd0: TIFFDirectory(offset: ifd0Offset, entries: entries, next: ifd0.next), gpsValues: values)
    }

    /// An offset as TIFF's 32 bits, or an error for a block that would pass 4 GiB.
    private static func offset(_ value: Int) throws -> UInt32 {
        guard value >= 0, value <= Int(UInt32.max) else { throw TIFFStructureError.outOfBounds("a new directory beyond 4 GiB") }
        return UInt32(value)
    }
}
