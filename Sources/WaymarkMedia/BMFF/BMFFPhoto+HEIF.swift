import Foundation

extension BMFFPhoto {
    /// More items or extents than any camera writes into one HEIF file.
    static let maxItems = 100_000
    static let maxExtents = 100_000
    /// An Exif item larger than this is not metadata any camera writes.
    static let maxExifSize = 16 << 20

    /// HEIF/HEIC: the `Exif` item named in `meta`/`iinf`, located by `meta`/`iloc`; the primary
    /// image's size from its `ispe` property. A file without an Exif item reads without a time.
    static func parseHEIF(_ reader: BMFFReader, top: [BMFFBox], mimeType: String) throws(BMFFError) -> BMFFPhoto {
        var photo = BMFFPhoto(kind: .heif, mimeType: mimeType)
        guard let meta = BMFFReader.first("meta", in: top) else { throw .missing("metadata box (meta), which every HEIF image has") }
        // meta is a full box: version and flags, then its children.
        guard meta.payload.count >= 4 else { throw .truncated("the meta box") }
        let children = try reader.boxes(in: (meta.payload.lowerBound + 4)..<meta.payload.upperBound, depth: 1, container: "meta")
        var primary: UInt32?
        if let pitm = BMFFReader.first("pitm", in: children) { primary = try primaryItem(reader, pitm) }
        if let primary, let size = try? imageSize(reader, children: children, item: primary) {
            (photo.exif.pixelWidth, photo.exif.pixelHeight) = size
        }
        guard let iinf = BMFFReader.first("iinf", in: children),
              let exifItem = try exifItemID(reader, iinf) else { return photo }
        guard let iloc = BMFFReader.first("iloc", in: children) else { throw .missing("item location box (iloc) for its Exif item") }
        let exif = try itemBytes(reader, iloc: iloc, item: exifItem)
        // The Exif item: a 4-byte big-endian offset to the TIFF header, counted after those 4 bytes.
        guard exif.count >= 4 else { throw .truncated("the Exif item") }
        let skip = exif[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard skip <= exif.count - 4 - 8 else { throw .outOfBounds("the TIFF header offset of the Exif item") }
        var fields = photo.exif
        let failure: (any Error)? = exif.withUnsafeBytes { all in
            do {
                try fields.read(tiff: UnsafeRawBufferPointer(rebasing: all[(4 + skip)...]), as: .wholeBlock)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw .unsupported("its Exif item is broken: \(failure)") }
        photo.exif = fields
        return photo
    }

    /// pitm: the primary item's ID (16-bit in version 0, 32-bit after).
    private static func primaryItem(_ reader: BMFFReader, _ box: BMFFBox) throws(BMFFError) -> UInt32 {
        let p = box.payload
        let version = try reader.u8(at: p.lowerBound, in: p, "the pitm box")
        return version == 0 ? UInt32(try reader.u16(at: p.lowerBound + 4, in: p, "the pitm box"))
            : try reader.u32(at: p.lowerBound + 4, in: p, "the pitm box")
    }

    /// iinf: the ID of the first item of type `Exif` (infe versions 2 and 3 carry the type; 0 and 1 are skipped).
    private static func exifItemID(_ reader: BMFFReader, _ iinf: BMFFBox) throws(BMFFError) -> UInt32? {
        let p = iinf.payload
        let version = try reader.u8(at: p.lowerBound, in: p, "the iinf box")
        let first = p.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard first <= p.upperBound else { throw .truncated("the iinf box") }
        for infe in try reader.boxes(in: first..<p.upperBound, depth: 2, container: "iinf") where infe.type == "infe" {
            let q = infe.payload
            let entryVersion = try reader.u8(at: q.lowerBound, in: q, "an infe box")
            guard entryVersion >= 2 else { continue }
            let id: UInt32, typeAt: Int
            if entryVersion == 2 {
                id = UInt32(try reader.u16(at: q.lowerBound + 4, in: q, "an infe box"))
                typeAt = q.lowerBound + 8
            } else {
                id = try reader.u32(at: q.lowerBound + 4, in: q, "an infe box")
                typeAt = q.lowerBound + 10
            }
            if try reader.fourCC(at: typeAt, in: q, "an infe box") == "Exif" { return id }
        }
        return nil
    }

    /// iloc (versions 0–2): the bytes of one item, its extents joined. Only construction method 0
    /// (offsets in this file) is read; the others are refused with a reason.
    static func itemBytes(_ reader: BMFFReader, iloc: BMFFBox, item wanted: UInt32) throws(BMFFError) -> [UInt8] {
        let p = iloc.payload
        let what = "the iloc box"
        let version = try reader.u8(at: p.lowerBound, in: p, what)
        guard version <= 2 else { throw .unsupported("its item location box has version \(version), which Waymark does not read") }
        let sizes = try reader.u8(at: p.lowerBound + 4, in: p, what), more = try reader.u8(at: p.lowerBound + 5, in: p, what)
        let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 0x0F), baseOffsetSize = Int(more >> 4)
        let indexSize = version == 0 ? 0 : Int(more & 0x0F)
        for size in [offsetSize, lengthSize, baseOffsetSize, indexSize] where ![0, 4, 8].contains(size) {
            throw .unsupported("its item location box uses \(size)-byte fields; ISO-BMFF allows 0, 4 or 8")
        }
        var at = p.lowerBound + 6
        let itemCount: Int
        if version < 2 {
            itemCount = Int(try reader.u16(at: at, in: p, what)); at += 2
        } else {
            itemCount = Int(try reader.u32(at: at, in: p, what)); at += 4
        }
        guard itemCount <= maxItems else { throw .tooManyBoxes("the item location box") }
        var extentsSeen = 0
        for _ in 0..<itemCount {
            let id: UInt32
            if version < 2 {
                id = UInt32(try reader.u16(at: at, in: p, what)); at += 2
            } else {
                id = try reader.u32(at: at, in: p, what); at += 4
            }
            var method = 0
            if version >= 1 { method = Int(try reader.u16(at: at, in: p, what) & 0x0F); at += 2 }
            let dataReference = try reader.u16(at: at, in: p, what); at += 2
            let base = try reader.number(at: at, size: baseOffsetSize, in: p, { what }); at += baseOffsetSize
            let extentCount = Int(try reader.u16(at: at, in: p, what)); at += 2
            extentsSeen += extentCount
            guard extentsSeen <= maxExtents else { throw .tooManyBoxes("the item location box") }
            var extents: [(offset: UInt64, length: UInt64)] = []
            for _ in 0..<extentCount {
                at += indexSize
                let offset = try reader.number(at: at, size: offsetSize, in: p, { what }); at += offsetSize
                let length = try reader.number(at: at, size: lengthSize, in: p, { what }); at += lengthSize
                if id == wanted { extents.append((offset, length)) }
            }
            guard id == wanted else { continue }
            guard method == 0 else {
                throw .unsupported("its Exif item is stored with construction method \(method) (\(method == 1 ? "inside the meta box" : "by reference to other items")), which Waymark does not read")
            }
            guard dataReference == 0 else { throw .unsupported("its Exif item is in another file (data reference \(dataReference))") }
            return try join(reader, extents: extents, base: base)
        }
        throw .missing("location for its Exif item in the item location box")
    }

    /// The bytes of an item's extents, each checked against the file; a length of 0 means "to the end of the file".
    private static func join(_ reader: BMFFReader, extents: [(offset: UInt64, length: UInt64)], base: UInt64) throws(BMFFError) -> [UInt8] {
        var bytes: [UInt8] = []
        let fileSize = UInt64(reader.bytes.count)
        for extent in extents {
            let (start, overflow) = base.addingReportingOverflow(extent.offset)
            guard !overflow, start <= fileSize else { throw .outOfBounds("the Exif item") }
            let length = extent.length == 0 ? fileSize - start : extent.length
            guard length <= fileSize - start, UInt64(bytes.count) + length <= UInt64(maxExifSize) else {
                throw .outOfBounds("the Exif item (\(length) bytes at \(start))")
            }
            bytes.append(contentsOf: reader.bytes[Int(start)..<Int(start + length)])
        }
        return bytes
    }

    /// The width and height of an item from its `ispe` property (iprp → ipco, associated by ipma).
    private static func imageSize(_ reader: BMFFReader, children: [BMFFBox], item: UInt32) throws(BMFFError) -> (Int, Int)? {
        guard let iprp = BMFFReader.first("iprp", in: children) else { return nil }
        let properties = try reader.boxes(in: iprp.payload, depth: 2, container: "iprp")
        guard let ipco = BMFFReader.first("ipco", in: properties), let ipma = BMFFReader.first("ipma", in: properties) else { return nil }
        let boxes = try reader.boxes(in: ipco.payload, depth: 3, container: "ipco")
        let p = ipma.payload, what = "the ipma box"
        let version = try reader.u8(at: p.lowerBound, in: p, what)
        let wide = try reader.u8(at: p.lowerBound + 3, in: p, what) & 1 == 1
        let count = try reader.u32(at: p.lowerBound + 4, in: p, what)
        guard count <= UInt32(maxItems) else { throw .tooManyBoxes(what) }
        var at = p.lowerBound + 8
        for _ in 0..<count {
            let id: UInt32
            if version < 1 {
                id = UInt32(try reader.u16(at: at, in: p, what)); at += 2
            } else {
                id = try reader.u32(at: at, in: p, what); at += 4
            }
            let associations = Int(try reader.u8(at: at, in: p, what)); at += 1
            for _ in 0..<associations {
                let index = wide ? Int(try reader.u16(at: at, in: p, what) & 0x7FFF) : Int(try reader.u8(at: at, in: p, what) & 0x7F)
                at += wide ? 2 : 1
                guard id == item, index >= 1, index <= boxes.count, boxes[index - 1].type == "ispe" else { continue }
                let q = boxes[index - 1].payload
                let width = try reader.u32(at: q.lowerBound + 4, in: q, "the ispe box"), height = try reader.u32(at: q.lowerBound + 8, in: q, "the ispe box")
                return (Int(width), Int(height))
            }
        }
        return nil
    }
}
