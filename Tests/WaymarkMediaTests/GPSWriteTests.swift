import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

@Suite("Append-only GPS writing, checked with exiftool and exiv2")
struct GPSWriteTests {
    /// Every fixture whose structure is plain JPEG or TIFF: all are written in place.
    static let inPlace = ["Canon.jpg", "CanonRaw.cr2", "DNG.dng", "ExifTool.tif", "FujiFilm.jpg", "GPS.jpg", "JVC.jpg", "Nikon.jpg",
                          "Nikon.nef", "Olympus.jpg", "Panasonic.jpg", "Pentax.jpg", "Sanyo.jpg", "Sony.jpg"]
    static let tags = GPSTags(latitude: -33.856_784_5, longitude: 151.215_297_3, altitude: -12.345, accuracy: 4.5,
                              time: Date(timeIntervalSince1970: 1_564_650_590.25))

    /// What may differ after writing GPS: the file's own facts, the GPS group and what is computed from it.
    static func isExpectedChange(_ key: String) -> Bool {
        ["System:", "File:", "GPS:", "Composite:", "ExifTool:"].contains { key.hasPrefix($0) } || key == "SourceFile"
    }

    @Test("every maker-note tag and every other tag exiftool reads is unchanged; exiv2 reads the position; no new warning",
          arguments: inPlace)
    func fixtureUnchangedButGPS(name: String) async throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/\(name)")
        let original = try Data(contentsOf: url)
        let before = try await ExternalTool.exiftoolTags(url).filter { !Self.isExpectedChange($0.key) }
        let warningsBefore = try await ExternalTool.validationWarnings(url)

        try Self.tags.write(intoPhotoAt: url, file: name)

        let after = try await ExternalTool.exiftoolTags(url).filter { !Self.isExpectedChange($0.key) }
        let changed = before.keys.filter { before[$0] != after[$0] }.sorted()
        let added = after.keys.filter { before[$0] == nil }.sorted()
        #expect(changed.isEmpty, "\(name) changed: \(changed.map { "\($0): \(before[$0] ?? "-") → \(after[$0] ?? "-")" })")
        #expect(added.isEmpty, "\(name) gained: \(added)")
        #expect(before.count > 20, "exiftool read only \(before.count) tags from \(name)")

        let exiv2 = try #require(try await ExternalTool.exiv2Position(url), "exiv2 reads no GPS in \(name)")
        #expect(abs(exiv2.latitude - Self.tags.latitude) < 1e-7 && abs(exiv2.longitude - Self.tags.longitude) < 1e-7,
                "\(name): exiv2 reads \(exiv2)")
        let newWarnings = try await ExternalTool.validationWarnings(url).subtracting(warningsBefore)
        #expect(newWarnings.isEmpty, "\(name): exiftool -validate warns \(newWarnings.sorted())")

        // No original byte moved: the image data, and for TIFF-based files every byte but the IFD0 offset.
        let written = try Data(contentsOf: url)
        if name.hasSuffix(".jpg") {
            #expect(jpegImageData(written) == jpegImageData(original), "\(name): the image data changed")
        } else {
            #expect(written.prefix(4) == original.prefix(4))
            #expect(written[8..<original.count] == original[8...], "\(name): bytes of the original moved or changed")
        }
    }

    @Test("exiftool reads back the position, altitude, accuracy, datum and UTC stamp", arguments: ["Nikon.jpg", "Nikon.nef", "ExifTool.tif"])
    func exiftoolReadsBack(name: String) async throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/\(name)")
        try Self.tags.write(intoPhotoAt: url, file: name)
        let read = try await ExternalTool.exiftoolTags(url)
        #expect(abs((Double(read["GPS:GPSLatitude"] ?? "") ?? 0) - 33.856_784_5) < 1e-7)
        #expect(read["GPS:GPSLatitudeRef"] == "S")
        #expect(abs((Double(read["GPS:GPSLongitude"] ?? "") ?? 0) - 151.215_297_3) < 1e-7)
        #expect(read["GPS:GPSLongitudeRef"] == "E")
        #expect(abs((Double(read["GPS:GPSAltitude"] ?? "") ?? 0) - 12.345) < 1e-3)
        #expect(read["GPS:GPSAltitudeRef"] == "1")
        #expect(read["GPS:GPSHPositioningError"] == "4.5")
        #expect(read["GPS:GPSDateStamp"] == "2019:08:01")
        #expect(read["GPS:GPSTimeStamp"] == "09:09:50.25")
        #expect(read["GPS:GPSMapDatum"] == "WGS-84")
        #expect(read["GPS:GPSVersionID"] == "2 3 0 0")
    }

    @Test("--overwrite's path: a second write replaces the GPS IFD, and only the new one is read")
    func replacesExistingGPS() async throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/GPS.jpg")
        let before = try await ExternalTool.exiftoolTags(url).filter { !Self.isExpectedChange($0.key) }
        try Self.tags.write(intoPhotoAt: url, file: "GPS.jpg")
        let moved = GPSTags(latitude: 47.5, longitude: -122.25, time: Self.tags.time)
        try moved.write(intoPhotoAt: url, file: "GPS.jpg")
        let read = try #require(try await ExternalTool.position(url))
        #expect(abs(read.latitude - 47.5) < 1e-7 && abs(read.longitude + 122.25) < 1e-7)
        #expect(try await ExternalTool.exiftoolTags(url)["GPS:GPSAltitude"] == nil, "the first write's altitude is still read")
        #expect(try await ExternalTool.exiftoolTags(url).filter { !Self.isExpectedChange($0.key) } == before)
    }

    @Test("a JPEG without Exif gets a new Exif block that exiftool validates")
    func jpegWithoutExif() async throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/Canon.jpg")
        try await ExternalTool.run(["exiftool", "-q", "-overwrite_original", "-all=", url.path])
        let original = try Data(contentsOf: url)
        #expect(try await ExternalTool.exiftoolTags(url)["IFD0:Make"] == nil)
        let warningsBefore = try await ExternalTool.validationWarnings(url)
        let method = try Self.tags.write(intoPhotoAt: url, file: "Canon.jpg")
        #expect(method == .exifBlockAdded)
        let read = try #require(try await ExternalTool.position(url))
        #expect(abs(read.latitude - Self.tags.latitude) < 1e-7)
        #expect(try await ExternalTool.validationWarnings(url).subtracting(warningsBefore).isEmpty)
        #expect(jpegImageData(try Data(contentsOf: url)) == jpegImageData(original))
    }

    @Test("a Multi-Picture JPEG keeps its second image readable: it moves together with its index")
    func multiPictureJPEG() async throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("mpf.jpg")
        try MultiPictureFixture.make(primary: Fixtures.data("photos/Sony.jpg"), second: Fixtures.data("photos/Canon.jpg")).write(to: url)
        // exiftool names a second image of this type PreviewImage, in its MPImage2 group.
        let secondBefore = try await ExternalTool.run(["exiftool", "-b", "-MPImage2:PreviewImage", url.path])
        #expect(secondBefore == (try Fixtures.data("photos/Canon.jpg")), "the test file is not a Multi-Picture file exiftool reads")
        #expect(try Self.tags.write(intoPhotoAt: url, file: "mpf.jpg") == .exifBlockExtended)
        #expect(try await ExternalTool.run(["exiftool", "-b", "-MPImage2:PreviewImage", url.path]) == secondBefore)
        #expect(try await ExternalTool.position(url) != nil)
    }

    @Test("data after the image that is not a Multi-Picture image is left alone: sidecar, photo untouched")
    func unknownTrailer() throws {
        let original = try Fixtures.data("photos/Sony.jpg") + Data("some camera's preview, addressed from the Exif block".utf8)
        let error = #expect(throws: MediaError.self) { try Self.tags.written(into: original, file: "trailer.jpg") }
        #expect(error?.wouldDamageMetadata == true)
        #expect(error?.message.contains("after the image") == true, "\(error?.message ?? "")")
    }

    @Test("a thumbnail the Exif block addresses beyond its own end (it would move) is refused: sidecar")
    func pointerBeyondExifBlock() throws {
        var bytes = [UInt8](try Fixtures.data("photos/Sony.jpg"))
        let tiffStart = 2 + 4 + 6  // Sony.jpg: SOI, then APP1 "Exif\0\0"
        let entry = try bytes.withUnsafeBytes { file -> Int in
            let tiff = UnsafeRawBufferPointer(rebasing: file[tiffStart...])
            let structure = try TIFFStructure.parse(tiff)
            let reader = TIFFReader(bytes: tiff, order: structure.byteOrder)
            let ifd1 = Int(structure.ifd0.next)
            let count = Int(try reader.u16(at: ifd1))
            let index = try #require((0..<count).first { (try? reader.u16(at: ifd1 + 2 + 12 * $0)) == 0x0201 })
            return tiffStart + ifd1 + 2 + 12 * index + 8
        }
        let segmentEnd = 4 + (Int(bytes[4]) << 8 | Int(bytes[5]))
        let beyond = UInt32(segmentEnd - tiffStart + 100)  // a thumbnail in the image data, as no camera should
        let little = bytes[tiffStart] == 0x49
        let encoded = [UInt8(beyond >> 24 & 0xFF), UInt8(beyond >> 16 & 0xFF), UInt8(beyond >> 8 & 0xFF), UInt8(beyond & 0xFF)]
        bytes.replaceSubrange(entry..<(entry + 4), with: little ? encoded.reversed() : encoded)
        let error = #expect(throws: MediaError.self) { try Self.tags.written(into: Data(bytes), file: "Sony.jpg") }
        #expect(error?.wouldDamageMetadata == true)
        #expect(error?.message.contains("0x0201") == true, "\(error?.message ?? "")")
    }

    @Test("an Exif block that would pass 64 KB is refused: sidecar")
    func exifBlockTooLarge() async throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/Canon.jpg")
        // A long UserComment fills the Exif block to within 60 bytes of a segment's limit.
        func exifPayload() throws -> Int {
            let bytes = [UInt8](try Data(contentsOf: url))
            return (Int(bytes[4]) << 8 | Int(bytes[5])) - 2
        }
        try await ExternalTool.run(["exiftool", "-q", "-overwrite_original", "-UserComment=" + String(repeating: "x", count: 60_000), url.path])
        let length = 60_000 + AppendOnlyEdit.maxSegmentPayload - 60 - (try exifPayload())
        try await ExternalTool.run(["exiftool", "-q", "-overwrite_original", "-UserComment=" + String(repeating: "x", count: length), url.path])
        #expect(try exifPayload() > AppendOnlyEdit.maxSegmentPayload - 100)
        let error = #expect(throws: MediaError.self) { try Self.tags.written(into: try Data(contentsOf: url), file: "Canon.jpg") }
        #expect(error?.wouldDamageMetadata == true)
        #expect(error?.message.contains("64 KB") == true, "\(error?.message ?? "")")
    }

    @Test("formats whose structure is not plain TIFF or JPEG are refused without touching the bytes",
          arguments: ["Panasonic.rw2", "CanonRaw.cr3", "QuickTime.heic"])
    func refusesOtherFormats(name: String) throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/\(name)")
        let error = #expect(throws: MediaError.self) { try Self.tags.write(intoPhotoAt: url, file: name) }
        #expect(error?.wouldDamageMetadata == true)
        #expect(try Data(contentsOf: url) == Fixtures.data("photos/\(name)"))
    }

    @Test("a new file that does not check out never replaces the photo, and no temporary file is left")
    func failedCheckLeavesOriginal() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/Sony.jpg")
        let original = try Data(contentsOf: url)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try Data("not a photo".utf8).withUnsafeBytes { bytes in
                try SafeFile.write(chunks: [bytes], to: url, preservingAttributesOf: url) { _ in throw Refused() }
            }
        }
        #expect(try Data(contentsOf: url) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["Sony.jpg"])
    }

    @Test("an XMP sidecar carries the position, and exiftool reads it")
    func sidecar() async throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("Panasonic.rw2.xmp")
        try SafeFile.write(try Self.tags.sidecar(updating: nil, file: "Panasonic.rw2"), to: url)
        let read = try await ExternalTool.exiftoolTags(url)
        #expect(abs((Double(read["XMP-exif:GPSLatitude"] ?? "") ?? 0) + 33.856_784_5) < 1e-6)
        #expect(abs((Double(read["XMP-exif:GPSLongitude"] ?? "") ?? 0) - 151.215_297_3) < 1e-6)
        // Updating a sidecar keeps what else it says.
        let withRating = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            .replacingOccurrences(of: "xmlns:exif=", with: "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:Rating=\"4\" xmlns:exif=")
        let moved = GPSTags(latitude: 10, longitude: 20, time: Self.tags.time)
        try SafeFile.write(try moved.sidecar(updating: Data(withRating.utf8), file: "Panasonic.rw2"), to: url)
        let again = try await ExternalTool.exiftoolTags(url)
        #expect(again["XMP-xmp:Rating"] == "4")
        #expect(abs((Double(again["XMP-exif:GPSLatitude"] ?? "") ?? 0) - 10) < 1e-6)
    }

    @Test("safe writing keeps permissions and the modification time")
    func keepsAttributes() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/Sony.jpg")
        let old = Date(timeIntervalSince1970: 1_500_000_000)
        try FileManager.default.setAttributes([.posixPermissions: 0o640, .modificationDate: old], ofItemAtPath: url.path)
        try Self.tags.write(intoPhotoAt: url, file: "Sony.jpg")
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect((attributes[.modificationDate] as? Date) == old)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(SafeFile.temporaryMarker) }
        #expect(leftovers.isEmpty)
    }
}

/// Builds a Multi-Picture Format JPEG (CIPA DC-007): an APP2 "MPF" index after the Exif block and a
/// second image after the first one's EOI, addressed from the index.
enum MultiPictureFixture {
    static func make(primary: Data, second: Data) -> Data {
        let bytes = [UInt8](primary)
        // After SOI and the APP0/APP1 segments at the start.
        var insertAt = 2
        while insertAt + 4 <= bytes.count, bytes[insertAt] == 0xFF, bytes[insertAt + 1] == 0xE0 || bytes[insertAt + 1] == 0xE1 {
            insertAt += 2 + (Int(bytes[insertAt + 2]) << 8 | Int(bytes[insertAt + 3]))
        }
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        // Big-endian MP header; IFD with MPFVersion, NumberOfImages, MPEntry; entries right after the IFD.
        let ifdOffset = 8, entriesOffset = ifdOffset + 2 + 3 * 12 + 4
        let segmentLength = 2 + 4 + entriesOffset + 32
        let mpfBase = insertAt + 4 + 4  // marker, length, "MPF\0"
        let primaryLength = bytes.count + segmentLength + 2
        let secondOffset = primaryLength - mpfBase
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42] + u32(ifdOffset) + u16(3)
        tiff += u16(0xB000) + u16(7) + u32(4) + Array("0100".utf8)
        tiff += u16(0xB001) + u16(4) + u32(1) + u32(2)
        tiff += u16(0xB002) + u16(7) + u32(32) + u32(entriesOffset)
        tiff += u32(0)
        tiff += u32(0x2003_0000) + u32(primaryLength) + u32(0) + u16(0) + u16(0)
        tiff += u32(0x0001_0000) + u32(second.count) + u32(secondOffset) + u16(0) + u16(0)
        let segment: [UInt8] = [0xFF, 0xE2] + u16(segmentLength) + Array("MPF".utf8) + [0] + tiff
        return Data(bytes[..<insertAt] + segment + bytes[insertAt...]) + second
    }
}
