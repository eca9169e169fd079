import Foundation

/// Seeds for the `tiff`, `jpeg` and `bmff` readers, made here: small files of each kind laid out
/// as cameras lay them out (a TIFF with Exif, GPS and IFD1 thumbnail directories in both byte
/// orders; JPEGs with and without Exif, with a Multi-Picture index and a second image; a CR3 and
/// a HEIF with an Exif item and an image size), each also after the append-only GPS edit; and,
/// from the shared fixtures' camera files when `fixtures` is given, their Exif blocks (with the
/// makers' notes) as TIFF seeds and the JPEGs after the edit. scripts/fuzz adds the fixture
/// files themselves.
extension MediaFuzz {
    public static func seeds(fixtures: URL?) -> [(reader: String, name: String, data: Data)] {
        var seeds: [(reader: String, name: String, data: Data)] = []
        func add(_ reader: String, _ name: String, _ bytes: [UInt8]) {
            seeds.append((reader, name, Data(bytes)))
            if reader != "bmff", let edited = edited(bytes) { seeds.append((reader, "gps-" + name, Data(edited))) }
        }
        for bigEndian in [false, true] {
            let order = bigEndian ? "mm" : "ii"
            let tiff = TIFFBuilder(bigEndian: bigEndian)
            add("tiff", "camera-\(order).tif", tiff.camera(thumbnail: SeedJPEG.minimal, gps: false))
            add("tiff", "camera-gps-\(order).tif", tiff.camera(thumbnail: SeedJPEG.minimal, gps: true))
            add("jpeg", "exif-\(order).jpg", SeedJPEG.withExif(tiff.camera(thumbnail: SeedJPEG.minimal, gps: false)))
        }
        add("jpeg", "jfif.jpg", SeedJPEG.minimal)
        add("jpeg", "mpf.jpg", SeedJPEG.multiPicture())
        let big = TIFFBuilder(bigEndian: true)
        add("bmff", "small.cr3", SeedBMFF.cr3(cmt1: big.single(big.ifd0Entries(exifPointer: nil)), cmt2: big.single(big.exifEntries()),
                                              cmt4: big.single(big.gpsEntries()), thumbnail: SeedJPEG.minimal, preview: SeedJPEG.minimal))
        add("bmff", "small.heic", SeedBMFF.heif(exif: big.camera(thumbnail: nil, gps: true)))

        if let fixtures {
            let photos = fixtures.appendingPathComponent("photos")
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: photos.path)) ?? []).sorted()
            for name in names where name.hasSuffix(".jpg") {
                guard let data = try? Data(contentsOf: photos.appendingPathComponent(name)) else { continue }
                let bytes = [UInt8](data.prefix(65_536))
                if let edited = edited(bytes) { seeds.append(("jpeg", "gps-" + name, Data(edited))) }
                if let block = exifBlock(bytes) {
                    seeds.append(("tiff", "exif-" + name.replacingOccurrences(of: ".jpg", with: ".tif"), Data(block)))
                    if name == "GPS.jpg" { seeds.append(("bmff", "gps-exif.heic", Data(SeedBMFF.heif(exif: block)))) }
                }
            }
        }
        return seeds
    }

    /// The file after the append-only GPS edit, when the edit is planned.
    static func edited(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBytes { file in
            (try? AppendOnlyEdit.plan(file, tags: tags)).map { [UInt8]($0.applied(to: file)) }
        }
    }

    /// The TIFF block of a JPEG's Exif segment.
    static func exifBlock(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBytes { file in
            guard let layout = try? JPEGLayout.parse(file), let segment = layout.exifSegment(in: file) else { return nil }
            return Array(file[(segment.payload.lowerBound + JPEGLayout.exifSignature.count)..<segment.end])
        }
    }
}

/// Writes TIFF blocks: directories with their out-of-line values after each table.
struct TIFFBuilder {
    typealias Entry = (tag: UInt16, type: UInt16, count: UInt32, value: [UInt8])
    var bigEndian: Bool

    func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }
    func short(_ tag: UInt16, _ v: UInt16) -> Entry { (tag, 3, 1, u16(v) + [0, 0]) }
    func long(_ tag: UInt16, _ v: UInt32) -> Entry { (tag, 4, 1, u32(v)) }
    func ascii(_ tag: UInt16, _ text: String) -> Entry { let b = Array(text.utf8) + [0]; return (tag, 2, UInt32(b.count), b) }
    func rationals(_ tag: UInt16, _ pairs: [(UInt32, UInt32)]) -> Entry {
        (tag, 5, UInt32(pairs.count), pairs.flatMap { u32($0.0) + u32($0.1) })
    }

    func ifd0Entries(exifPointer: UInt32?, gpsPointer: UInt32? = nil) -> [Entry] {
        var entries = [short(0x0100, 64), short(0x0101, 48), ascii(0x010F, "Canon"), ascii(0x0110, "Canon EOS R5"), short(0x0112, 6),
                       rationals(0x011A, [(72, 1)]), rationals(0x011B, [(72, 1)]), short(0x0128, 2), ascii(0x0132, "2024:06:01 12:03:04")]
        if let exifPointer { entries.append(long(0x8769, exifPointer)) }
        if let gpsPointer { entries.append(long(0x8825, gpsPointer)) }
        return entries
    }

    func exifEntries() -> [Entry] {
        [(0x9000, 7, 4, Array("0231".utf8)), ascii(0x9003, "2024:06:01 12:03:04"), ascii(0x9004, "2024:06:01 12:03:04"),
         ascii(0x9011, "+02:00"), ascii(0x9291, "25"), short(0xA002, 64), short(0xA003, 48)]
    }

    func gpsEntries() -> [Entry] {
        [(0x0000, 1, 4, [2, 3, 0, 0]), ascii(0x0001, "N"), rationals(0x0002, [(46, 1), (22, 1), (440_400, 10_000)]),
         ascii(0x0003, "E"), rationals(0x0004, [(13, 1), (50, 1), (99_600, 10_000)]), ascii(0x0012, "WGS-84")]
    }

    /// The bytes a directory takes: its table, then its values of more than 4 bytes (each even).
    func size(_ entries: [Entry]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.value.count > 4 ? $1.value.count + $1.value.count % 2 : 0) }
    }

    func directory(_ entries: [Entry], at offset: Int, next: UInt32) -> [UInt8] {
        var table = u16(UInt16(entries.count)), values: [UInt8] = []
        let valuesStart = offset + 2 + 12 * entries.count + 4
        for entry in entries.sorted(by: { $0.tag < $1.tag }) {
            table += u16(entry.tag) + u16(entry.type) + u32(entry.count)
            if entry.value.count <= 4 {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                table += u32(UInt32(valuesStart + values.count))
                values += entry.value + (entry.value.count % 2 == 1 ? [0] : [])
            }
        }
        return table + u32(next) + values
    }

    func header() -> [UInt8] { Array((bigEndian ? "MM" : "II").utf8) + u16(42) + u32(8) }

    /// A block whose IFD0 holds `entries`, nothing else (CR3's CMT blocks).
    func single(_ entries: [Entry]) -> [UInt8] { header() + directory(entries, at: 8, next: 0) }

    /// IFD0 → Exif IFD (→ GPS IFD), then IFD1 with a JPEG thumbnail, as a camera writes them.
    func camera(thumbnail: [UInt8]?, gps: Bool) -> [UInt8] {
        let placeholder = ifd0Entries(exifPointer: 0, gpsPointer: gps ? 0 : nil)
        let exifAt = 8 + size(placeholder)
        let gpsAt = exifAt + size(exifEntries())
        let ifd1At = gpsAt + (gps ? size(gpsEntries()) : 0)
        let ifd1Placeholder = [long(0x0201, 0), long(0x0202, 0), short(0x0103, 6)]
        let thumbnailAt = ifd1At + size(ifd1Placeholder)
        var out = header()
        out += directory(ifd0Entries(exifPointer: UInt32(exifAt), gpsPointer: gps ? UInt32(gpsAt) : nil), at: 8,
                         next: thumbnail == nil ? 0 : UInt32(ifd1At))
        out += directory(exifEntries(), at: exifAt, next: 0)
        if gps { out += directory(gpsEntries(), at: gpsAt, next: 0) }
        if let thumbnail {
            out += directory([long(0x0201, UInt32(thumbnailAt)), long(0x0202, UInt32(thumbnail.count)), short(0x0103, 6)], at: ifd1At, next: 0)
            out += thumbnail
        }
        return out
    }
}

/// Small JPEGs: the marker segments a camera writes around a few bytes of image data.
enum SeedJPEG {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static let jfif = segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 1, 0, 72, 0, 72, 0, 0])
    /// DQT, SOF0 (8×8, one component), DHT, SOS, entropy-coded data with a stuffed byte and a restart marker, EOI.
    static let image: [UInt8] = segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        + segment(0xC0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])
        + segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
        + segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xD9]
    static let minimal: [UInt8] = [0xFF, 0xD8] + jfif + image

    static func withExif(_ tiff: [UInt8]) -> [UInt8] {
        [0xFF, 0xD8] + segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff) + image
    }

    /// A Multi-Picture file: the primary image's APP2 index names itself and a second JPEG after its EOI.
    static func multiPicture() -> [UInt8] {
        let tiff = TIFFBuilder(bigEndian: true)
        func index(secondAt: UInt32, secondSize: UInt32, primarySize: UInt32) -> [UInt8] {
            let entries = tiff.u32(0x2003_0000) + tiff.u32(primarySize) + tiff.u32(0) + tiff.u16(0) + tiff.u16(0)
                + tiff.u32(0x0001_0000) + tiff.u32(secondSize) + tiff.u32(secondAt) + tiff.u16(0) + tiff.u16(0)
            return Array("MPF".utf8) + [0] + tiff.single([(0xB000, 7, 4, Array("0100".utf8)), tiff.long(0xB001, 2), (0xB002, 7, 32, entries)])
        }
        let second = minimal
        let placeholder = segment(0xE2, index(secondAt: 0, secondSize: 0, primarySize: 0))
        let primarySize = 2 + jfif.count + placeholder.count + image.count
        let base = 2 + jfif.count + 4 + 4  // the MPF TIFF header, after APP2's marker, length and "MPF\0"
        let app2 = segment(0xE2, index(secondAt: UInt32(primarySize - base), secondSize: UInt32(second.count), primarySize: UInt32(primarySize)))
        return [0xFF, 0xD8] + jfif + app2 + image + second
    }
}

/// ISO-BMFF files box by box (as Tests/WaymarkMediaTests/BMFFTestSupport.swift builds them).
enum SeedBMFF {
    static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) } }
    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload }
    static func uuidBox(_ uuid: [UInt8], _ payload: [UInt8]) -> [UInt8] { be32(UInt32(24 + payload.count)) + Array("uuid".utf8) + uuid + payload }
    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        box("ftyp", Array(major.utf8) + be32(0) + compatible.flatMap { Array($0.utf8) })
    }

    /// ftyp, moov → Canon uuid (CMT1, CMT2, CMT4, THMB), the preview uuid (PRVW), mdat.
    static func cr3(cmt1: [UInt8], cmt2: [UInt8], cmt4: [UInt8], thumbnail: [UInt8], preview: [UInt8]) -> [UInt8] {
        let thmb = box("THMB", [0, 0, 0, 0] + be16(160) + be16(120) + be32(UInt32(thumbnail.count)) + be16(1) + be16(0) + thumbnail)
        let canon = box("CMT1", cmt1) + box("CMT2", cmt2) + box("CMT4", cmt4) + thmb
        let moov = box("moov", uuidBox(BMFFPhoto.canonUUID, canon))
        let prvw = box("PRVW", [0, 0, 0, 0] + be16(1) + be16(1620) + be16(1080) + be16(1) + be32(UInt32(preview.count)) + preview)
        return ftyp("crx ", ["crx ", "isom"]) + moov + uuidBox(BMFFPhoto.canonPreviewUUID, be32(0) + be32(1) + prvw)
            + box("mdat", Array("raw data".utf8))
    }

    /// ftyp, meta (hdlr, pitm, iinf naming an image and an Exif item, iloc for both, iprp with the image's ispe), mdat.
    static func heif(exif: [UInt8]) -> [UInt8] {
        let item = be32(6) + Array("Exif".utf8) + [0, 0] + exif
        let image: [UInt8] = Array("hevc bytes".utf8)
        func infe(_ id: UInt16, _ type: String) -> [UInt8] { box("infe", [2, 0, 0, 0] + be16(id) + be16(0) + Array(type.utf8) + [0]) }
        let iinf = box("iinf", [0, 0, 0, 0] + be16(2) + infe(1, "hvc1") + infe(2, "Exif"))
        let ispe = box("ispe", [0, 0, 0, 0] + be32(4032) + be32(3024))
        let iprp = box("iprp", box("ipco", ispe) + box("ipma", [0, 0, 0, 0] + be32(1) + be16(1) + [1, 0x81]))
        func meta(dataAt: UInt32) -> [UInt8] {
            var iloc: [UInt8] = [1, 0, 0, 0, 0x44, 0x00] + be16(2)
            iloc += be16(1) + be16(0) + be16(0) + be16(1) + be32(dataAt) + be32(UInt32(image.count))
            iloc += be16(2) + be16(0) + be16(0) + be16(1) + be32(dataAt + UInt32(image.count)) + be32(UInt32(item.count))
            let hdlr = box("hdlr", [0, 0, 0, 0] + be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
            return box("meta", [0, 0, 0, 0] + hdlr + box("pitm", [0, 0, 0, 0] + be16(1)) + iinf + box("iloc", iloc) + iprp)
        }
        let head = ftyp("heic", ["mif1", "heic"])
        let dataAt = UInt32(head.count + meta(dataAt: 0).count + 8)
        return head + meta(dataAt: dataAt) + box("mdat", image + item)
    }
}
