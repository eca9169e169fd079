import Foundation
import WaymarkTestSupport

/// Builds ISO-BMFF files box by box, for CR3 and HEIF files with real JPEGs and hostile structures.
enum BMFFBuilder {
    static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) } }
    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func be64(_ value: UInt64) -> [UInt8] { stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: value >> UInt64($0)) } }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func uuidBox(_ uuid: [UInt8], _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(24 + payload.count)) + Array("uuid".utf8) + uuid + payload
    }

    static let canonUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
    static let previewUUID: [UInt8] = [0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16]

    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        box("ftyp", Array(major.utf8) + be32(0) + compatible.flatMap { Array($0.utf8) })
    }

    /// A CR3 laid out as Canon's cameras do: ftyp, moov → Canon uuid (CMT1, CMT2, CMT4, THMB), the preview uuid, mdat.
    static func cr3(cmt1: [UInt8], cmt2: [UInt8], cmt4: [UInt8]? = nil, thumbnail: [UInt8], preview: [UInt8]) -> [UInt8] {
        let thmb = box("THMB", [0, 0, 0, 0] + be16(160) + be16(120) + be32(UInt32(thumbnail.count)) + be16(1) + be16(0) + thumbnail)
        var canon = box("CMT1", cmt1) + box("CMT2", cmt2)
        if let cmt4 { canon += box("CMT4", cmt4) }
        canon += thmb
        let moov = box("moov", uuidBox(canonUUID, canon))
        let prvw = box("PRVW", [0, 0, 0, 0] + be16(1) + be16(1620) + be16(1080) + be16(1) + be32(UInt32(preview.count)) + preview)
        let previewBox = uuidBox(previewUUID, be32(0) + be32(1) + prvw)
        return ftyp("crx ", ["crx ", "isom"]) + moov + previewBox + box("mdat", Array("raw data".utf8))
    }

    /// A HEIF with one Exif item whose bytes follow the meta box, located by an iloc of the given shape.
    static func heif(exif: [UInt8], ilocVersion: UInt8 = 1, constructionMethod: UInt16 = 0, iloc overrideIloc: [UInt8]? = nil) -> [UInt8] {
        let item = be32(6) + Array("Exif".utf8) + [0, 0] + exif  // offset 6 to the TIFF header, after "Exif\0\0"
        let infe = box("infe", [2, 0, 0, 0] + be16(1) + be16(0) + Array("Exif".utf8) + [0])
        let iinf = box("iinf", [0, 0, 0, 0] + be16(1) + infe)
        func meta(dataOffset: UInt32) -> [UInt8] {
            var iloc: [UInt8] = [ilocVersion, 0, 0, 0, 0x44, 0x00]
            iloc += ilocVersion < 2 ? be16(1) : be32(1)
            iloc += ilocVersion < 2 ? be16(1) : be32(1)
            if ilocVersion >= 1 { iloc += be16(constructionMethod) }
            iloc += be16(0) + be16(1) + be32(dataOffset) + be32(UInt32(item.count))
            let hdlr = box("hdlr", [0, 0, 0, 0] + be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
            return box("meta", [0, 0, 0, 0] + hdlr + box("pitm", [0, 0, 0, 0] + be16(1)) + iinf + box("iloc", overrideIloc ?? iloc))
        }
        let head = ftyp("heic", ["mif1", "heic"])
        let metaSize = meta(dataOffset: 0).count
        let mdatHeader = 8
        return head + meta(dataOffset: UInt32(head.count + metaSize + mdatHeader)) + box("mdat", item)
    }

    /// A small JPEG made by ImageMagick.
    static func jpeg(size: String, in folder: TemporaryFolder) async throws -> [UInt8] {
        let url = folder.url.appendingPathComponent("\(UUID().uuidString).jpg")
        try await ExternalTool.run(["convert", "-size", size, "gradient:white-navy", "-quality", "80", url.path])
        return [UInt8](try Data(contentsOf: url))
    }

    /// The TIFF block exiftool writes for the given tags (into a JPEG, read back with `-b -EXIF`).
    static func exifBlock(_ assignments: [String], in folder: TemporaryFolder) async throws -> [UInt8] {
        let url = folder.url.appendingPathComponent("\(UUID().uuidString).jpg")
        try await ExternalTool.run(["convert", "-size", "8x8", "xc:gray", url.path])
        try await ExternalTool.run(["exiftool", "-q", "-overwrite_original"] + assignments + [url.path])
        return [UInt8](try await ExternalTool.run(["exiftool", "-b", "-EXIF", url.path]))
    }
}
