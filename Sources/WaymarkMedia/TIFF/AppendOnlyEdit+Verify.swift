import Foundation

/// The written file is not exactly what the edit meant; it must not replace the original.
struct AppendOnlyMismatch: Error, Equatable, CustomStringConvertible {
    var description: String
}

extension AppendOnlyEdit {
    /// Checks a written file against the original it was made from.
    ///
    /// Every original byte must be at its place (shifted only past the insertion, and only the
    /// patched header and length bytes different), IFD0 must hold every original entry unchanged
    /// plus the GPS pointer, the GPS IFD must hold exactly the values meant, and exiv2 — a reader
    /// independent of the one that planned the edit — must read back the position.
    func verify(written new: UnsafeRawBufferPointer, original: UnsafeRawBufferPointer, tags: GPSTags) throws(AppendOnlyMismatch) {
        guard new.count == original.count + inserted.count else {
            throw AppendOnlyMismatch(description: "the new file has \(new.count) bytes, not \(original.count + inserted.count)")
        }
        guard let newBase = new.baseAddress, let originalBase = original.baseAddress else {
            throw AppendOnlyMismatch(description: "the new file is empty")
        }
        var at = 0
        for piece in pieces(originalLength: original.count) {
            switch piece {
            case .original(let range):
                guard memcmp(newBase + at, originalBase + range.lowerBound, range.count) == 0 else {
                    throw AppendOnlyMismatch(description: "original bytes \(range) changed")
                }
                at += range.count
            case .new(let bytes):
                guard Array(UnsafeRawBufferPointer(start: newBase + at, count: bytes.count)) == bytes else {
                    throw AppendOnlyMismatch(description: "the new bytes at \(at) are not the ones written")
                }
                at += bytes.count
            }
        }
        try verifyDirectories(UnsafeRawBufferPointer(rebasing: new[tiffStart..<(tiffStart + tiffLength)]))
        try verifyWithExiv2(new, tags: tags)
    }

    private func verifyDirectories(_ tiff: UnsafeRawBufferPointer) throws(AppendOnlyMismatch) {
        let structure: TIFFStructure
        do { structure = try TIFFStructure.parse(tiff) } catch { throw AppendOnlyMismatch(description: "the new TIFF structure does not read back: \(error)") }
        guard structure.ifd0 == appendix.ifd0 else { throw AppendOnlyMismatch(description: "the new IFD0 is not the one meant") }
        if let originalIFD0 {
            let isPointer = { (entry: TIFFEntry) in entry.tag == TIFFStructure.gpsPointerTag }
            guard structure.ifd0.entries.filter({ !isPointer($0) }) == originalIFD0.entries.filter({ !isPointer($0) }),
                  structure.ifd0.next == originalIFD0.next else {
                throw AppendOnlyMismatch(description: "IFD0 lost or changed an entry")
            }
        }
        guard let gps = structure.gps, gps.offset == Int(appendix.gpsOffset), gps.entries.count == appendix.gpsValues.count else {
            throw AppendOnlyMismatch(description: "the GPS IFD is not where it was written")
        }
        let reader = TIFFReader(bytes: tiff, order: structure.byteOrder)
        for (entry, value) in zip(gps.entries, appendix.gpsValues) {
            guard entry.tag == value.tag, entry.type == value.type, entry.count == value.count else {
                throw AppendOnlyMismatch(description: String(format: "GPS tag 0x%04X reads back differently", value.tag))
            }
            let start = value.bytes.count <= 4 ? nil : Int(reader.u32(field: entry.field))
            let stored: [UInt8]
            if let start {
                guard start >= 0, start + value.bytes.count <= tiff.count else { throw AppendOnlyMismatch(description: "a GPS value points outside the file") }
                stored = Array(tiff[start..<(start + value.bytes.count)])
            } else {
                stored = Array(entry.field.prefix(value.bytes.count))
            }
            guard stored == value.bytes else { throw AppendOnlyMismatch(description: String(format: "GPS tag 0x%04X holds other bytes", value.tag)) }
        }
    }

    private func verifyWithExiv2(_ new: UnsafeRawBufferPointer, tags: GPSTags) throws(AppendOnlyMismatch) {
        let metadata: PhotoMetadata
        do { metadata = try PhotoMetadata.read(new, file: "").0 } catch { throw AppendOnlyMismatch(description: "exiv2 cannot read the new file: \(error)") }
        guard let position = metadata.existingPosition,
              abs(position.latitude - tags.latitude) < 1e-7, abs(position.longitude - tags.longitude) < 1e-7 else {
            throw AppendOnlyMismatch(description: "exiv2 reads back another position than the one written")
        }
    }
}
