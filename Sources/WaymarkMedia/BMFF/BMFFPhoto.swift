// For the QR search: `BMFFPhoto.embeddedJPEGs(_:)` lists the JPEGs a CR3 embeds (THMB, then PRVW), smallest first.
import Foundation

/// What Waymark reads from an ISO-BMFF camera file — a Canon CR3 or a HEIF/HEIC image — with a
/// small strict box walker (``BMFFReader``) feeding the TIFF reader (``TIFFStructure``).
///
/// exiv2 0.27, the version Debian ships, cannot read ISO-BMFF at all, and LibRaw would add a
/// large dependency for four boxes; the boxes Waymark needs are few and simply laid out:
/// - CR3 (`ftyp` brand `crx `): `moov` → `uuid` 85c0b687-820f-11e0-8111-f4ce462b6a48 → `CMT1`
///   (a TIFF block whose IFD0 is IFD0), `CMT2` (… the Exif IFD), `CMT4` (… the GPS IFD) and `THMB`
///   (a 160×120 JPEG after a 16-byte header); the top-level `uuid`
///   eaf42b5e-1c98-4b88-b9fb-b7dc406e4d16 → `PRVW` (a ~1620-px JPEG after a 16-byte header).
/// - HEIF (`ftyp` brands heic, heix, mif1, …): `meta` → `iinf`/`infe` names the `Exif` item,
///   `iloc` says where its bytes are: a 4-byte offset to the TIFF header, then the TIFF block.
struct BMFFPhoto: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case cr3
        case heif
    }

    var kind: Kind
    var mimeType: String
    var exif = BMFFExif()
    /// The JPEG thumbnail (CR3 THMB) and preview (CR3 PRVW), as ranges of the file.
    var thumbnail: Range<Int>?
    var preview: Range<Int>?

    static let canonUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
    static let canonPreviewUUID: [UInt8] = [0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16]
    /// Major or compatible brands of HEIF still images (HEVC, AVC, AV1 and the generic `mif1`).
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis", "avci"]

    /// Whether the bytes are an ISO-BMFF file: an `ftyp` box at offset 4.
    static func isBMFF(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 8 && bytes[4] == 0x66 && bytes[5] == 0x74 && bytes[6] == 0x79 && bytes[7] == 0x70
    }

    /// The JPEG images embedded in an ISO-BMFF camera file, smallest first (CR3: THMB then PRVW).
    ///
    /// `kind` is "thumbnail" or "preview"; each range starts with a JPEG's SOI marker and lies in
    /// `bytes`. A HEIF file has none (its images are HEVC; see ``HEIFImage``); a damaged or
    /// unreadable file yields an empty list, never an error.
    static func embeddedJPEGs(_ bytes: UnsafeRawBufferPointer) -> [(kind: String, jpeg: Range<Int>)] {
        guard let photo = try? parse(bytes) else { return [] }
        var found: [(kind: String, jpeg: Range<Int>)] = []
        if let thumbnail = photo.thumbnail { found.append(("thumbnail", thumbnail)) }
        if let preview = photo.preview { found.append(("preview", preview)) }
        return found.sorted { $0.jpeg.count < $1.jpeg.count }
    }

    /// Reads a CR3 or HEIF file; throws when it is another ISO-BMFF file or its boxes are broken.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(BMFFError) -> BMFFPhoto {
        let reader = BMFFReader(bytes: bytes)
        let top = try reader.boxes(in: reader.whole, depth: 0, container: "file")
        guard let ftyp = top.first, ftyp.type == "ftyp" else { throw .missing("file type box (ftyp) at its start") }
        let major = try reader.fourCC(at: ftyp.payload.lowerBound, in: ftyp.payload, "the ftyp box")
        var brands = [major]
        var at = ftyp.payload.lowerBound + 8
        while at + 4 <= ftyp.payload.upperBound, brands.count < 64 {
            brands.append(try reader.fourCC(at: at, in: ftyp.payload, "the ftyp box"))
            at += 4
        }
        if major == "crx " { return try parseCR3(reader, top: top) }
        if heifBrands.contains(major) || brands.contains(where: heifBrands.contains) {
            let mime = brands.contains("avif") ? "image/avif" : (brands.contains("heic") || brands.contains("heix") ? "image/heic" : "image/heif")
            return try parseHEIF(reader, top: top, mimeType: mime)
        }
        throw .unsupported("it is an ISO-BMFF file of brand \"\(major)\" (a video?), not a CR3 or HEIF photo")
    }

    /// The metadata geotagging needs, in the form the rest of Waymark uses.
    var metadata: PhotoMetadata {
        PhotoMetadata(
            dateTimeOriginal: exif.dateTimeOriginal, subSecTimeOriginal: exif.subSecTimeOriginal,
            offsetTimeOriginal: exif.offsetTimeOriginal, createDate: exif.createDate,
            subSecTimeDigitized: exif.subSecTimeDigitized, offsetTimeDigitized: exif.offsetTimeDigitized,
            make: exif.make, model: exif.model, mimeType: mimeType,
            existingPosition: exif.latitude.flatMap { lat in exif.longitude.map { (lat, $0) } },
            isJPEG: false, pixelWidth: exif.pixelWidth, pixelHeight: exif.pixelHeight
        )
    }
}

/// Whether `range` of `bytes` starts like a JPEG (the SOI marker and another marker).
func startsWithJPEG(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
    range.count >= 4 && range.lowerBound >= 0 && range.upperBound <= bytes.count
        && bytes[range.lowerBound] == 0xFF && bytes[range.lowerBound + 1] == 0xD8 && bytes[range.lowerBound + 2] == 0xFF
}
