import Foundation

extension BMFFPhoto {
    /// Canon CR3: the TIFF blocks CMT1 (IFD0), CMT2 (Exif IFD) and CMT4 (GPS IFD) and the THMB
    /// thumbnail in `moov` → Canon `uuid`, and the PRVW preview in a top-level `uuid`.
    ///
    /// A broken TIFF block is an error (a capture time must not silently go missing); a broken
    /// or absent thumbnail or preview only means there is none.
    static func parseCR3(_ reader: BMFFReader, top: [BMFFBox]) throws(BMFFError) -> BMFFPhoto {
        var photo = BMFFPhoto(kind: .cr3, mimeType: "image/x-canon-cr3")
        guard let moov = BMFFReader.first("moov", in: top) else { throw .missing("movie box (moov), where a CR3 keeps its metadata") }
        let movie = try reader.boxes(in: moov.payload, depth: 1, container: "moov")
        guard let canon = movie.first(where: { $0.type == "uuid" && $0.uuid == canonUUID }) else {
            throw .missing("Canon metadata box (moov/uuid 85c0b687-…)")
        }
        let children = try reader.boxes(in: canon.payload, depth: 2, container: "Canon uuid")
        let blocks: [(String, BMFFExif.Role)] = [("CMT1", .ifd0), ("CMT2", .exifIFD), ("CMT4", .gpsIFD)]
        for (name, role) in blocks {
            guard let box = BMFFReader.first(name, in: children) else { continue }
            do {
                try photo.exif.read(tiff: UnsafeRawBufferPointer(rebasing: reader.bytes[box.payload]), as: role)
            } catch {
                throw .unsupported("its \(name) metadata block is broken: \(error)")
            }
        }
        if let thmb = BMFFReader.first("THMB", in: children) { photo.thumbnail = thumbnailJPEG(reader, thmb) }
        for box in top where box.type == "uuid" && box.uuid == canonPreviewUUID {
            photo.preview = previewJPEG(reader, box)
        }
        return photo
    }

    /// THMB: version (1 byte), flags (3), width and height (2 each), JPEG length (4), 4 bytes, then
    /// the JPEG. Later versions keep the JPEG at the same place; their length field is not trusted.
    private static func thumbnailJPEG(_ reader: BMFFReader, _ box: BMFFBox) -> Range<Int>? {
        let p = box.payload
        guard let version = try? reader.u8(at: p.lowerBound, in: p, "THMB"), p.count > 16 else { return nil }
        var jpeg = (p.lowerBound + 16)..<p.upperBound
        if version == 0 {
            guard let length = try? reader.u32(at: p.lowerBound + 8, in: p, "THMB"), Int(length) <= jpeg.count else { return nil }
            jpeg = jpeg.lowerBound..<(jpeg.lowerBound + Int(length))
        }
        return startsWithJPEG(reader.bytes, jpeg) ? jpeg : nil
    }

    /// The preview uuid: 8 bytes (0 and 1), then a PRVW box: 4 bytes, 2 (1), width and height
    /// (2 each), 2 (1), the JPEG length (4), then the JPEG.
    private static func previewJPEG(_ reader: BMFFReader, _ box: BMFFBox) -> Range<Int>? {
        guard box.payload.count > 8,
              let children = try? reader.boxes(in: (box.payload.lowerBound + 8)..<box.payload.upperBound, depth: 1, container: "preview uuid"),
              let prvw = BMFFReader.first("PRVW", in: children) else { return nil }
        let p = prvw.payload
        guard let length = try? reader.u32(at: p.lowerBound + 12, in: p, "PRVW"), p.count >= 16, Int(length) <= p.count - 16 else { return nil }
        let jpeg = (p.lowerBound + 16)..<(p.lowerBound + 16 + Int(length))
        return startsWithJPEG(reader.bytes, jpeg) ? jpeg : nil
    }
}
