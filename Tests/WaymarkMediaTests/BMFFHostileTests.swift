import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

/// The ISO-BMFF walker on broken and hostile files: never a crash, never a read outside the file,
/// and what it does hand out (embedded JPEG ranges) always lies inside the file.
@Suite("The ISO-BMFF walker on broken and hostile input")
struct BMFFHostileTests {
    typealias B = BMFFBuilder

    /// Reads `file` every way Waymark does; returns whether the metadata read succeeded.
    @discardableResult
    static func exercise(_ file: [UInt8]) -> Bool {
        file.withUnsafeBytes { bytes in
            for (kind, range) in BMFFPhoto.embeddedJPEGs(bytes) {
                #expect(range.lowerBound >= 0 && range.upperBound <= bytes.count, "\(kind) range \(range) outside \(bytes.count) bytes")
                #expect(range.count >= 4 && bytes[range.lowerBound] == 0xFF && bytes[range.lowerBound + 1] == 0xD8)
            }
            return (try? PhotoMetadata.read(bytes, file: "hostile", wantPreview: true)) != nil
        }
    }

    static func heic() async throws -> (TemporaryFolder, [UInt8]) {
        let folder = try TemporaryFolder()
        let url = try await BMFFPhotoTests.makeHEIC(in: folder, assignments: ["-DateTimeOriginal=2024:06:01 12:03:04", "-GPSLatitude=1", "-GPSLongitude=2"])
        return (folder, [UInt8](try Data(contentsOf: url)))
    }

    @Test("every truncation of the CR3's first 12 KB (its whole metadata) and of a HEIC: an error, never a crash")
    func truncations() async throws {
        let cr3 = [UInt8](try Fixtures.data("photos/CanonRaw.cr3"))
        #expect(Self.exercise(cr3))
        for length in 0..<min(cr3.count, 12_288) { Self.exercise(Array(cr3[..<length])) }
        for length in stride(from: 12_288, to: cr3.count, by: 97) { Self.exercise(Array(cr3[..<length])) }
        let (folder, heic) = try await Self.heic()
        _ = folder
        #expect(Self.exercise(heic))
        var readable = 0
        for length in 0..<heic.count where Self.exercise(Array(heic[..<length])) { readable += 1 }
        // Truncating inside the meta box must fail; only cuts in the image data after the Exif item may still read.
        #expect(readable < heic.count / 2)
    }

    @Test("thousands of seeded byte flips in the CR3 and a HEIC: no crash, ranges inside the file")
    func byteFlips() async throws {
        let cr3 = [UInt8](try Fixtures.data("photos/CanonRaw.cr3"))
        let (folder, heic) = try await Self.heic()
        _ = folder
        var generator = SplitMix64(seed: 17)
        for (original, region) in [(cr3, 12_288), (heic, heic.count)] {
            for _ in 0..<3_000 {
                var file = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let at = Int.random(in: 0..<min(region, file.count), using: &generator)
                    file[at] = Bool.random(using: &generator) ? UInt8.random(in: 0...255, using: &generator) : file[at] ^ 0x80
                }
                Self.exercise(file)
            }
        }
    }

    @Test("a box claiming 2^63 (or 2^64 - 1) bytes is refused as outside the file")
    func absurdSizes() throws {
        for size: UInt64 in [1 << 63, .max, 1 << 32] {
            let file = B.ftyp("heic", ["mif1"]) + B.be32(1) + Array("meta".utf8) + B.be64(size) + [UInt8](repeating: 0, count: 32)
            #expect(throws: BMFFError.self) { try file.withUnsafeBytes { try BMFFPhoto.parse($0) } }
            #expect(!Self.exercise(file))
        }
        // A 64-bit size smaller than its own 16-byte header.
        let tiny = B.ftyp("heic", ["mif1"]) + B.be32(1) + Array("meta".utf8) + B.be64(9)
        #expect(throws: BMFFError.self) { try tiny.withUnsafeBytes { try BMFFPhoto.parse($0) } }
    }

    @Test("a box that claims to contain itself, and sizes below the header, are refused")
    func selfContaining() throws {
        // moov's child claims the size of moov itself: it would reach past its parent.
        let inner = B.be32(8 + 8 + 16) + Array("moov".utf8) + B.be32(8 + 8 + 16) + Array("uuid".utf8) + B.canonUUID
        let file = B.ftyp("crx ", ["crx "]) + B.be32(UInt32(8 + inner.count)) + Array("moov".utf8) + inner
        #expect(throws: BMFFError.self) { try file.withUnsafeBytes { try BMFFPhoto.parse($0) } }
        let small = B.ftyp("crx ", ["crx "]) + B.be32(4) + Array("moov".utf8)
        #expect(throws: BMFFError.self) { try small.withUnsafeBytes { try BMFFPhoto.parse($0) } }
        // A long chain of nested empty-looking boxes is only walked where the format says; it cannot recurse.
        var nested: [UInt8] = []
        for _ in 0..<10_000 { nested = B.box("moov", nested) }
        #expect(throws: BMFFError.self) { try (B.ftyp("crx ", ["crx "]) + nested).withUnsafeBytes { try BMFFPhoto.parse($0) } }
    }

    @Test("an iloc with absurd item and extent counts, odd field sizes or a far-away extent is refused quickly")
    func hostileIloc() throws {
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42] + B.be32(8) + B.be16(0) + B.be32(0)
        func read(_ iloc: [UInt8]) -> String? {
            let file = B.heif(exif: tiff, iloc: iloc)
            do {
                _ = try file.withUnsafeBytes { try BMFFPhoto.parse($0) }
                return nil
            } catch {
                return "\(error)"
            }
        }
        // Version 2, 2^32 - 1 items.
        #expect(read([2, 0, 0, 0, 0x44, 0x00] + B.be32(.max))?.contains("more boxes or items") == true)
        // One item with 65,535 extents of 4+4 bytes in a box that holds none of them.
        #expect(read([1, 0, 0, 0, 0x44, 0x00] + B.be16(1) + B.be16(1) + B.be16(0) + B.be16(0) + B.be16(0xFFFF))?.contains("ends inside") == true)
        // Many items whose 65,535 extents take no bytes at all (offset and length sizes 0).
        var zeroSized: [UInt8] = [1, 0, 0, 0, 0x00, 0x00] + B.be16(0xFFFF)
        for id in 0..<0xFFFF { zeroSized += B.be16(UInt16(truncatingIfNeeded: id + 2)) + B.be16(0) + B.be16(0) + B.be16(0xFFFF) }
        #expect(read(zeroSized)?.contains("more boxes or items") == true)
        // Field sizes ISO-BMFF does not allow.
        #expect(read([1, 0, 0, 0, 0x24, 0x00] + B.be16(1))?.contains("2-byte fields") == true)
        // An extent of the Exif item 2^63 bytes into the file, with a base offset that overflows when added.
        let far: [UInt8] = [1, 0, 0, 0, 0x88, 0x80] + B.be16(1) + B.be16(1) + B.be16(0) + B.be16(0) + B.be64(.max) + B.be16(1) + B.be64(1 << 63) + B.be64(16)
        #expect(read(far)?.contains("outside") == true)
        // An unknown iloc version.
        #expect(read([3, 0, 0, 0, 0x44, 0x00])?.contains("version 3") == true)
    }
}
