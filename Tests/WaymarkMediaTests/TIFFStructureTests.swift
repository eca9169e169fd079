import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

@Suite("The strict TIFF reader and the append-only edit")
struct TIFFStructureTests {
    static let tags = GPSTags(latitude: 46.378_9, longitude: 13.836_1, altitude: 2864, accuracy: 3, time: Date(timeIntervalSince1970: 1_717_236_000))

    func parse(_ bytes: [UInt8]) throws -> TIFFStructure {
        try bytes.withUnsafeBytes { try TIFFStructure.parse($0) }
    }

    func refusal(_ bytes: [UInt8]) -> TIFFStructureError? {
        do { _ = try parse(bytes); return nil } catch let error as TIFFStructureError { return error } catch { return nil }
    }

    @Test("both byte orders read the same directories")
    func byteOrders() throws {
        for order in [TIFFByteOrder.littleEndian, .bigEndian] {
            let file = RandomTIFF(seed: 7, order: order).bytes
            let structure = try parse(file)
            #expect(structure.byteOrder == order)
            #expect(structure.ifd0.entries.contains { $0.tag == TIFFStructure.exifPointerTag })
            #expect(structure.directoryOffsets.count >= 3)
        }
    }

    @Test("hostile structures are refused, never read out of bounds")
    func hostile() throws {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] { le16(tag) + le16(type) + le32(count) + le32(value) }
        let header = Array("II".utf8) + le16(42) + le32(8)
        // IFD0 whose next link points back to itself.
        #expect(refusal(header + le16(1) + entry(0x0100, 3, 1, 640) + le32(8)) == .loop(offset: 8))
        // IFD1 inside IFD0's table (its entry count read from the high half of the first entry's value).
        #expect(refusal(header + le16(2) + entry(0x0100, 4, 1, 0x1_0000) + entry(0x0101, 3, 1, 1) + le32(20)) == .overlap(offset: 20))
        // An IFD0 value beyond the end.
        if case .outOfBounds = refusal(header + le16(1) + entry(0x010F, 2, 100, 4000) + le32(0)) {} else { Issue.record("value beyond the end accepted") }
        // A huge count whose size overflows.
        #expect(refusal(header + le16(1) + entry(0x010F, 12, 0x7FFF_FFFF, 8) + le32(0)) != nil)
        // An unknown value type in IFD0.
        #expect(refusal(header + le16(1) + entry(0x010F, 99, 1, 0) + le32(0)) == .unknownType(tag: 0x010F, type: 99))
        // An Exif pointer into itself (a loop through a sub-directory).
        #expect(refusal(header + le16(1) + entry(0x8769, 4, 1, 8) + le32(0)) == .loop(offset: 8))
        // IFD0 with 60,000 entries declared in a tiny file.
        if case .outOfBounds = refusal(header + le16(60_000) + entry(0x0100, 3, 1, 1) + le32(0)) {} else { Issue.record("absurd entry count accepted") }
        // Not TIFF, BigTIFF, and Panasonic's RW2 variant.
        #expect(refusal(Array("XX".utf8) + le16(42) + le32(8)) == .notTIFF)
        #expect(refusal(Array("II".utf8) + le16(43) + le32(8) + le32(0)) == .unsupportedVariant(magic: 43))
        #expect(refusal(Array("II".utf8) + le16(0x55) + le32(8) + le32(0)) == .unsupportedVariant(magic: 0x55))
        #expect(refusal(Array("II".utf8)) == .tooShort)
    }

    @Test("every truncation and every flipped byte of real files is refused or read, never a crash",
          arguments: ["ExifTool.tif", "Nikon.jpg"])
    func truncatedAndFlipped(name: String) throws {
        let original = [UInt8](try Fixtures.data("photos/\(name)"))
        let limit = min(original.count, 4096)
        for length in 0..<limit {
            _ = try? AppendOnlyEdit.plan(original[..<length].withUnsafeBytes { UnsafeRawBufferPointer($0) }, tags: Self.tags)
            _ = try? parse(Array(original[..<length]))
        }
        var generator = SplitMix64(seed: 1)
        for _ in 0..<3000 {
            var mutated = original
            let at = Int(generator.next() % UInt64(min(original.count, 4096)))
            mutated[at] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            _ = mutated.withUnsafeBytes { try? AppendOnlyEdit.plan($0, tags: Self.tags) }
        }
    }

    @Test("property: on random TIFF layouts with maker notes, thumbnails and strips, no original byte moves",
          arguments: 0..<200)
    func noByteMoves(seed: Int) throws {
        let tiff = RandomTIFF(seed: UInt64(seed), order: seed % 2 == 0 ? .littleEndian : .bigEndian)
        let original = tiff.bytes
        let written = try original.withUnsafeBytes { bytes -> [UInt8] in
            let edit = try AppendOnlyEdit.plan(bytes, tags: Self.tags)
            #expect(edit.kind == .tiffAppended)
            let out = [UInt8](edit.applied(to: bytes))
            try out.withUnsafeBytes { try edit.verify(written: $0, original: bytes, tags: Self.tags) }
            return out
        }
        // Every original byte but the IFD0 offset is where it was.
        #expect(Array(written[0..<4]) == Array(original[0..<4]))
        #expect(Array(written[8..<original.count]) == Array(original[8...]))
        // Every directory of the original is still reachable, at the same offset, with the same entries.
        let before = try parse(original), after = try parse(written)
        #expect(Set(before.directoryOffsets).subtracting([before.ifd0.offset]).isSubset(of: Set(after.directoryOffsets)))
        #expect(after.ifd0.entries.filter { $0.tag != TIFFStructure.gpsPointerTag } == before.ifd0.entries.filter { $0.tag != TIFFStructure.gpsPointerTag })
        #expect(after.ifd0.next == before.ifd0.next)
        // The maker note's own directory, addressed from the TIFF header, still finds its values.
        for (offset, value) in tiff.makerNoteValues {
            #expect(Array(written[offset..<(offset + value.count)]) == value)
        }
        #expect(try AppendOnlyEdit.plan(written.withUnsafeBytes { $0 }, tags: Self.tags).kind == .tiffAppended, "the written file can be written again")
    }
}

/// A deterministic random number generator for reproducible property tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random but valid TIFF: IFD0 with random tags and out-of-line values, strips, an Exif IFD with a
/// maker note whose inner directory addresses its values from the TIFF header (as JVC, Sanyo,
/// Ricoh and FLIR do), and IFD1 with a thumbnail — every block at a random place.
struct RandomTIFF {
    let order: TIFFByteOrder
    private(set) var bytes: [UInt8] = []
    /// (offset, bytes) of the values the maker note's inner directory points to.
    private(set) var makerNoteValues: [(Int, [UInt8])] = []

    init(seed: UInt64, order: TIFFByteOrder) {
        self.order = order
        var rng = SplitMix64(seed: seed)
        func random(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        func randomBytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) } }

        // The blocks, sized first; placed in random order with random gaps; filled in second.
        struct Entry { var tag: UInt16; var type: UInt16; var count: UInt32; var value: [UInt8]; var pointsTo: String? }
        var ifd0: [Entry] = []
        var tags = Set<UInt16>()
        for _ in 0..<random(3...12) {
            var tag = UInt16(random(0x0100...0x0200))
            // Not the tags this builder sets itself, nor SubIFDs (a pointer).
            while tags.contains(tag) || [0x0111, 0x0117, 0x014A].contains(tag) { tag += 1 }
            tags.insert(tag)
            let type = [1, 2, 3, 4, 5, 7].randomElement(using: &rng) ?? 1
            let count = random(1...24)
            ifd0.append(Entry(tag: tag, type: UInt16(type), count: UInt32(count), value: randomBytes(count * (TIFFEntry.unitSize(UInt16(type)) ?? 1)), pointsTo: nil))
        }
        let strips = random(1...4)
        let stripSizes = (0..<strips).map { _ in random(16...400) }
        ifd0.append(Entry(tag: 0x0111, type: 4, count: UInt32(strips), value: [], pointsTo: "strips"))
        ifd0.append(Entry(tag: 0x0117, type: 4, count: UInt32(strips), value: stripSizes.flatMap { GPSTags.encode(UInt32($0), order) }, pointsTo: nil))
        ifd0.append(Entry(tag: 0x8769, type: 4, count: 1, value: [], pointsTo: "exif"))
        ifd0.sort { $0.tag < $1.tag }
        let makerNoteData = randomBytes(random(8...200))
        let thumbnail = randomBytes(random(100...2000))
        let exifEntries = 3
        let makerNoteLength = 2 + 12 * 2 + 4

        var sizes: [String: Int] = [
            "ifd0": 2 + 12 * ifd0.count + 4, "strips-table": 4 * strips, "exif": 2 + 12 * exifEntries + 4,
            "makernote": makerNoteLength, "makernote-data": makerNoteData.count, "ifd1": 2 + 12 * 2 + 4, "thumbnail": thumbnail.count,
        ]
        for (i, entry) in ifd0.enumerated() where entry.value.count > 4 { sizes["ifd0-value-\(i)"] = entry.value.count }
        for i in 0..<strips { sizes["strip-\(i)"] = stripSizes[i] }
        var positions: [String: Int] = [:]
        var cursor = 8
        for name in sizes.keys.sorted().shuffled(using: &rng) {
            cursor += random(0...3) * 2
            positions[name] = cursor
            cursor += (sizes[name] ?? 0) + (sizes[name] ?? 0) % 2
        }
        bytes = randomBytes(cursor)
        func put(_ at: Int, _ data: [UInt8]) { bytes.replaceSubrange(at..<(at + data.count), with: data) }
        func u16(_ v: UInt16) -> [UInt8] { GPSTags.encode(v, order) }
        func u32(_ v: Int) -> [UInt8] { GPSTags.encode(UInt32(v), order) }
        func table(_ at: Int, _ entries: [(UInt16, UInt16, UInt32, [UInt8])], next: Int) {
            var data = u16(UInt16(entries.count))
            for e in entries { data += u16(e.0) + u16(e.1) + GPSTags.encode(e.2, order) + e.3 }
            put(at, data + u32(next))
        }
        put(0, Array((order == .littleEndian ? "II" : "MM").utf8) + u16(42) + u32(positions["ifd0"] ?? 0))
        var ifd0Table: [(UInt16, UInt16, UInt32, [UInt8])] = []
        for (i, entry) in ifd0.enumerated() {
            var field: [UInt8]
            switch entry.pointsTo {
            case "strips": field = strips == 1 ? u32(positions["strip-0"] ?? 0) : u32(positions["strips-table"] ?? 0)
            case "exif": field = u32(positions["exif"] ?? 0)
            default:
                if entry.value.count > 4 {
                    let at = positions["ifd0-value-\(i)"] ?? 0
                    put(at, entry.value)
                    field = u32(at)
                } else {
                    field = entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                }
            }
            ifd0Table.append((entry.tag, entry.type, entry.count, field))
        }
        table(positions["ifd0"] ?? 0, ifd0Table, next: positions["ifd1"] ?? 0)
        put(positions["strips-table"] ?? 0, (0..<strips).flatMap { u32(positions["strip-\($0)"] ?? 0) })
        let makerNote = positions["makernote"] ?? 0
        table(positions["exif"] ?? 0, [(0x927C, 7, UInt32(makerNoteLength), u32(makerNote)),
                                        (0xA002, 4, 1, u32(640)), (0xA003, 4, 1, u32(480))], next: 0)
        // The maker note: an IFD whose values are addressed from the TIFF header.
        let dataAt = positions["makernote-data"] ?? 0
        table(makerNote, [(0x0001, 7, UInt32(makerNoteData.count), u32(dataAt)), (0x0002, 3, 1, u16(7) + [0, 0])], next: 0)
        put(dataAt, makerNoteData)
        makerNoteValues = [(dataAt, makerNoteData)]
        table(positions["ifd1"] ?? 0, [(0x0201, 4, 1, u32(positions["thumbnail"] ?? 0)), (0x0202, 4, 1, u32(thumbnail.count))], next: 0)
        put(positions["thumbnail"] ?? 0, thumbnail)
    }
}
