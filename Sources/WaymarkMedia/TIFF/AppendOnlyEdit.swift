import Foundation

/// An edit that adds GPS to a photo without moving any byte of its TIFF structure: a few bytes
/// replaced in place (the IFD0 offset in the TIFF header, a JPEG segment length) and one run of
/// new bytes inserted (at the end of the Exif block or of the file).
struct AppendOnlyEdit {
    enum Kind: Equatable {
        /// A JPEG's Exif APP1 segment grew by the appended directories.
        case jpegExifExtended
        /// A JPEG without Exif got a new Exif APP1 segment.
        case jpegExifAdded
        /// A TIFF-based file (TIFF, DNG, CR2, NEF, ARW, ORF, PEF …) got the directories at its end.
        case tiffAppended
    }

    var kind: Kind
    /// Same-length replacements, at offsets of the original file.
    var patches: [(offset: Int, bytes: [UInt8])]
    /// Where the new bytes go, as an offset of the original file.
    var insertAt: Int
    var inserted: [UInt8]
    /// Where the TIFF header is in the new file, and the new TIFF block's length.
    var tiffStart: Int
    var tiffLength: Int
    /// IFD0 as it was (nil for a JPEG that had no Exif) and what was appended.
    var originalIFD0: TIFFDirectory?
    var appendix: TIFFAppendix

    /// The new file as runs of the original and new bytes, in order.
    enum Piece {
        case original(Range<Int>)
        case new([UInt8])
    }

    func pieces(originalLength: Int) -> [Piece] {
        // Each cut puts new bytes at an offset in place of `replacing` original bytes.
        var cuts = patches.map { (offset: $0.offset, bytes: $0.bytes, replacing: $0.bytes.count) }
        cuts.append((insertAt, inserted, 0))
        var pieces: [Piece] = []
        var position = 0
        for cut in cuts.sorted(by: { ($0.offset, $0.replacing) < ($1.offset, $1.replacing) }) {
            if position < cut.offset { pieces.append(.original(position..<cut.offset)) }
            pieces.append(.new(cut.bytes))
            position = cut.offset + cut.replacing
        }
        if position < originalLength { pieces.append(.original(position..<originalLength)) }
        return pieces
    }

    /// The new file, assembled in memory from the original's bytes.
    func applied(to original: UnsafeRawBufferPointer) -> Data {
        var result = Data(capacity: original.count + inserted.count)
        for piece in pieces(originalLength: original.count) {
            switch piece {
            case .original(let range): result.append(contentsOf: UnsafeRawBufferPointer(rebasing: original[range]))
            case .new(let bytes): result.append(contentsOf: bytes)
            }
        }
        return result
    }
}

/// Why a photo cannot be edited in place; the GPS goes into an XMP sidecar instead.
struct AppendOnlyRefusal: Error, Equatable, CustomStringConvertible {
    var description: String
}

extension AppendOnlyEdit {
    /// The largest payload of a JPEG marker segment (its 16-bit length counts itself).
    static let maxSegmentPayload = 65_533

    /// Plans the edit that adds `tags` to the photo in `file`, or says why the photo cannot be edited safely.
    static func plan(_ file: UnsafeRawBufferPointer, tags: GPSTags) throws(AppendOnlyRefusal) -> AppendOnlyEdit {
        guard file.count >= 8 else { throw AppendOnlyRefusal(description: "the file is too short to be a photo") }
        if file[0] == 0xFF, file[1] == 0xD8 { return try planJPEG(file, tags: tags) }
        if (file[0] == 0x49 && file[1] == 0x49) || (file[0] == 0x4D && file[1] == 0x4D) { return try planTIFF(file, tags: tags) }
        throw AppendOnlyRefusal(description: "its structure is not plain TIFF or JPEG")
    }

    private static func planTIFF(_ file: UnsafeRawBufferPointer, tags: GPSTags) throws(AppendOnlyRefusal) -> AppendOnlyEdit {
        let structure = try parseTIFF(file)
        if let trailer = EndOfFileTrailer.find(in: file) {
            throw AppendOnlyRefusal(description: "it ends with a \(trailer) trailer, which readers look for at the end of the file")
        }
        let appendix = try makeAppendix(structure, tags: tags, blockLength: file.count)
        return AppendOnlyEdit(kind: .tiffAppended, patches: [(4, GPSTags.encode(appendix.ifd0Offset, structure.byteOrder))],
                              insertAt: file.count, inserted: appendix.bytes, tiffStart: 0, tiffLength: file.count + appendix.bytes.count,
                              originalIFD0: structure.ifd0, appendix: appendix)
    }

    private static func planJPEG(_ file: UnsafeRawBufferPointer, tags: GPSTags) throws(AppendOnlyRefusal) -> AppendOnlyEdit {
        let layout: JPEGLayout
        do { layout = try JPEGLayout.parse(file) } catch { throw AppendOnlyRefusal(description: "\(error)") }
        try checkTrailer(file, layout: layout)
        let mpf = layout.mpfSegment(in: file)
        guard let exif = layout.exifSegment(in: file) else { return try planNewExif(file, layout: layout, mpf: mpf, tags: tags) }
        if let mpf, mpf.start < exif.start {
            throw AppendOnlyRefusal(description: "its multi-picture index comes before the Exif block, so growing the Exif block would break it")
        }
        let tiffStart = exif.payload.lowerBound + JPEGLayout.exifSignature.count
        let tiff = UnsafeRawBufferPointer(rebasing: file[tiffStart..<exif.end])
        let structure = try parseTIFF(tiff)
        let appendix = try makeAppendix(structure, tags: tags, blockLength: tiff.count)
        let payload = exif.payload.count + appendix.bytes.count
        guard payload <= maxSegmentPayload else {
            throw AppendOnlyRefusal(description: "its Exif block would pass the 64 KB a JPEG segment can hold")
        }
        let length = UInt16(payload + 2)
        return AppendOnlyEdit(kind: .jpegExifExtended,
                              patches: [(exif.start + 2, [UInt8(length >> 8), UInt8(length & 0xFF)]),
                                        (tiffStart + 4, GPSTags.encode(appendix.ifd0Offset, structure.byteOrder))],
                              insertAt: exif.end, inserted: appendix.bytes, tiffStart: tiffStart,
                              tiffLength: tiff.count + appendix.bytes.count, originalIFD0: structure.ifd0, appendix: appendix)
    }

    /// A JPEG without Exif gets a new APP1 segment after SOI and any APP0 (JFIF) segments.
    private static func planNewExif(_ file: UnsafeRawBufferPointer, layout: JPEGLayout, mpf: JPEGLayout.Segment?, tags: GPSTags) throws(AppendOnlyRefusal) -> AppendOnlyEdit {
        let insertAt = layout.segments.prefix { $0.marker == 0xE0 }.last?.end ?? 2
        if let mpf, mpf.start < insertAt {
            throw AppendOnlyRefusal(description: "its multi-picture index comes before where the Exif block must go")
        }
        // IFD0 with the resolution tags every JPEG's IFD0 must have, their two values right after the header.
        let order = TIFFByteOrder.bigEndian
        func entry(_ tag: UInt16, _ type: UInt16, _ field: [UInt8]) -> TIFFEntry { TIFFEntry(tag: tag, type: type, count: 1, field: field) }
        let (x, y, unit) = jfifResolution(file, layout: layout)
        let values = GPSTags.encode(x, order) + GPSTags.encode(UInt32(1), order) + GPSTags.encode(y, order) + GPSTags.encode(UInt32(1), order)
        let ifd0 = TIFFDirectory(offset: 0, entries: [
            entry(0x011A, 5, GPSTags.encode(UInt32(8), order)),
            entry(0x011B, 5, GPSTags.encode(UInt32(16), order)),
            entry(0x0128, 3, GPSTags.encode(unit, order) + [0, 0]),
            entry(0x0213, 3, GPSTags.encode(UInt16(1), order) + [0, 0]),
        ], next: 0)
        let structure = TIFFStructure(byteOrder: order, magic: 42, ifd0: ifd0, directoryOffsets: [], gps: nil)
        let appendix = try makeAppendix(structure, tags: tags, blockLength: 8 + values.count)
        let tiff = Array("MM".utf8) + [0, 42] + GPSTags.encode(appendix.ifd0Offset, order) + values + appendix.bytes
        let payload = JPEGLayout.exifSignature + tiff
        let length = UInt16(payload.count + 2)
        let segment = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return AppendOnlyEdit(kind: .jpegExifAdded, patches: [], insertAt: insertAt, inserted: segment,
                              tiffStart: insertAt + 4 + JPEGLayout.exifSignature.count, tiffLength: tiff.count,
                              originalIFD0: nil, appendix: appendix)
    }

    /// The pixel density a JFIF segment states (dots per inch or per centimetre), else 72 dpi.
    private static func jfifResolution(_ file: UnsafeRawBufferPointer, layout: JPEGLayout) -> (UInt32, UInt32, UInt16) {
        let jfif = Array("JFIF".utf8) + [0]
        guard let app0 = layout.segments.first(where: { $0.marker == 0xE0 && JPEGLayout.starts(file, $0.payload, with: jfif) }),
              app0.payload.count >= 12 else { return (72, 72, 2) }
        let p = app0.payload.lowerBound
        let unit = file[p + 7]
        let x = UInt32(file[p + 8]) << 8 | UInt32(file[p + 9]), y = UInt32(file[p + 10]) << 8 | UInt32(file[p + 11])
        guard unit == 1 || unit == 2, x > 0, y > 0 else { return (72, 72, 2) }
        return (x, y, unit == 1 ? 2 : 3)
    }

    /// Bytes after the primary image move when the Exif block grows. Extra images of a Multi-Picture
    /// file move with their index, and padding is harmless; anything else may be data that a maker
    /// note addresses from the Exif block (as some cameras store their preview), which would break.
    private static func checkTrailer(_ file: UnsafeRawBufferPointer, layout: JPEGLayout) throws(AppendOnlyRefusal) {
        guard layout.imageEnd < file.count else { return }
        var covered = MultiPicture.images(file, layout: layout).sorted { $0.lowerBound < $1.lowerBound }
        covered.removeAll { $0.upperBound <= layout.imageEnd }
        var position = layout.imageEnd
        for range in covered where range.lowerBound >= position {
            if !isPadding(file, position..<range.lowerBound) { break }
            position = range.upperBound
        }
        guard position < file.count, !isPadding(file, position..<file.count) else { return }
        throw AppendOnlyRefusal(description: "it has \(file.count - position) bytes of data after the image that the Exif block may point to")
    }

    private static func isPadding(_ file: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        range.allSatisfy { file[$0] == 0 || file[$0] == 0xFF }
    }

    private static func parseTIFF(_ bytes: UnsafeRawBufferPointer) throws(AppendOnlyRefusal) -> TIFFStructure {
        do { return try TIFFStructure.parse(bytes) } catch { throw AppendOnlyRefusal(description: "its TIFF structure cannot be edited safely: \(error)") }
    }

    private static func makeAppendix(_ structure: TIFFStructure, tags: GPSTags, blockLength: Int) throws(AppendOnlyRefusal) -> TIFFAppendix {
        do { return try structure.appendix(for: tags, blockLength: blockLength) } catch { throw AppendOnlyRefusal(description: "\(error)") }
    }
}

/// The images a Multi-Picture Format index (CIPA DC-007) places after the primary image.
enum MultiPicture {
    static func images(_ file: UnsafeRawBufferPointer, layout: JPEGLayout) -> [Range<Int>] {
        guard let segment = layout.mpfSegment(in: file) else { return [] }
        let base = segment.payload.lowerBound + JPEGLayout.mpfSignature.count
        guard base < segment.end else { return [] }
        let block = UnsafeRawBufferPointer(rebasing: file[base..<segment.end])
        guard let structure = try? TIFFStructure.parse(block),
              let entry = structure.ifd0.entries.first(where: { $0.tag == 0xB002 && $0.type == 7 }) else { return [] }
        let reader = TIFFReader(bytes: block, order: structure.byteOrder)
        let start = Int(reader.u32(field: entry.field))
        var ranges: [Range<Int>] = []
        for i in 0..<Int(entry.count / 16) {
            guard let size = try? reader.u32(at: start + 16 * i + 4), let offset = try? reader.u32(at: start + 16 * i + 8) else { return ranges }
            guard offset != 0 else { continue }  // the primary image
            let lower = base + Int(offset), upper = lower + Int(size)
            if upper <= file.count { ranges.append(lower..<upper) }
        }
        return ranges
    }
}

/// Trailers that readers find by looking at the last bytes of a file: appending after them hides them.
enum EndOfFileTrailer {
    static func find(in file: UnsafeRawBufferPointer) -> String? {
        let tail = Array(file[max(0, file.count - 128)..<file.count])
        let signatures: [(String, [UInt8])] = [
            ("Canon DPP recipe (CanonVRD)", Array("CANON OPTIONAL DATA".utf8)),
            ("Photo Mechanic", Array("cbipcbbl".utf8)),
            ("AFCP", Array("AXS!".utf8)),
            ("MIE", Array("zmie~".utf8)),
        ]
        for (name, signature) in signatures where tail.count >= signature.count {
            for start in 0...(tail.count - signature.count) where Array(tail[start..<start + signature.count]) == signature { return name }
        }
        return nil
    }
}
