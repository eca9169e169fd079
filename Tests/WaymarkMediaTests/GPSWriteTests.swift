import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

@Suite("Writing GPS tags with exiv2, checked with exiftool")
struct GPSWriteTests {
    static let writable = ["Canon.jpg", "CanonRaw.cr2", "DNG.dng", "ExifTool.tif", "FujiFilm.jpg", "GPS.jpg", "Nikon.jpg",
                           "Olympus.jpg", "Panasonic.jpg", "Pentax.jpg", "Sony.jpg"]
    static let tags = GPSTags(latitude: -33.856_784_5, longitude: 151.215_297_3, altitude: -12.345, accuracy: 4.5,
                              time: Date(timeIntervalSince1970: 1_564_650_590.25))

    /// Tags that legitimately change when GPS is written: the file's own facts, the GPS group, and
    /// addresses of embedded images, which move when the Exif block grows (their content is compared instead).
    static func isExpectedChange(_ key: String) -> Bool {
        let name = key.split(separator: ":").last.map(String.init) ?? key
        return key.hasPrefix("System:") || key.hasPrefix("File:") || key.hasPrefix("GPS:") || key.hasPrefix("Composite:")
            || key.hasPrefix("ExifTool:") || key == "SourceFile"
            || ["StripOffsets", "TileOffsets", "ThumbnailOffset", "PreviewImageStart", "JpgFromRawStart"].contains(name)
    }

    /// The embedded images exiftool can extract, by tag: their bytes must not change.
    static func embeddedImages(_ url: URL) throws -> [String: Data] {
        var images: [String: Data] = [:]
        for tag in ["ThumbnailImage", "PreviewImage", "JpgFromRaw"] {
            let data = try ExternalTool.run(["exiftool", "-b", "-\(tag)", url.path], allowFailure: true)
            if !data.isEmpty { images[tag] = data }
        }
        return images
    }

    @Test("exiftool reads back the position, altitude, accuracy and UTC stamp", arguments: writable)
    func exiftoolReadsBack(name: String) throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/\(name)")
        try SafeFile.write(try Self.tags.written(into: try Data(contentsOf: url), file: name), to: url, preservingAttributesOf: url)
        let read = try ExternalTool.exiftoolTags(url)
        #expect(abs((Double(read["GPS:GPSLatitude"] ?? "") ?? 0) - 33.856_784_5) < 1e-6)
        #expect(read["GPS:GPSLatitudeRef"] == "S")
        #expect(abs((Double(read["GPS:GPSLongitude"] ?? "") ?? 0) - 151.215_297_3) < 1e-6)
        #expect(read["GPS:GPSLongitudeRef"] == "E")
        #expect(abs((Double(read["GPS:GPSAltitude"] ?? "") ?? 0) - 12.345) < 1e-3)
        #expect(read["GPS:GPSAltitudeRef"] == "1")
        #expect(read["GPS:GPSHPositioningError"] == "4.5")
        #expect(read["GPS:GPSDateStamp"] == "2019:08:01")
        #expect(read["GPS:GPSTimeStamp"] == "09:09:50.25")
        #expect(read["GPS:GPSMapDatum"] == "WGS-84")
        #expect(read["GPS:GPSVersionID"] == "2 3 0 0")
    }

    @Test("every other tag exiftool reports is unchanged", arguments: writable)
    func otherTagsUnchanged(name: String) throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/\(name)")
        let before = try ExternalTool.exiftoolTags(url).filter { !Self.isExpectedChange($0.key) }
        let imagesBefore = try Self.embeddedImages(url)
        try SafeFile.write(try Self.tags.written(into: try Data(contentsOf: url), file: name), to: url, preservingAttributesOf: url)
        let after = try ExternalTool.exiftoolTags(url).filter { !Self.isExpectedChange($0.key) }
        #expect(try Self.embeddedImages(url) == imagesBefore)
        let changed = before.keys.filter { before[$0] != after[$0] }.sorted()
        let added = after.keys.filter { before[$0] == nil }.sorted()
        #expect(changed.isEmpty, "changed: \(changed.map { "\($0): \(before[$0] ?? "-") → \(after[$0] ?? "-")" })")
        #expect(added.isEmpty, "added: \(added)")
    }

    @Test("the JPEG image data is byte-identical from the first SOS marker on",
          arguments: writable.filter { $0.hasSuffix(".jpg") })
    func imageDataUnchanged(name: String) throws {
        let original = try Fixtures.data("photos/\(name)")
        let tagged = try Self.tags.written(into: original, file: name)
        let before = try #require(jpegImageData(original))
        let after = try #require(jpegImageData(tagged))
        #expect(before == after)
    }

    @Test("exiv2's own CLI reads the written tags too")
    func exiv2ReadsBack() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/Nikon.jpg")
        try SafeFile.write(try Self.tags.written(into: try Data(contentsOf: url), file: "Nikon.jpg"), to: url, preservingAttributesOf: url)
        let output = String(decoding: try ExternalTool.run(["exiv2", "-q", "-Pkv", "-g", "GPSLatitude", url.path]), as: UTF8.self)
        #expect(output.contains("Exif.GPSInfo.GPSLatitudeRef") && output.contains("S"))
        #expect(output.contains("33/1 51/1"))
    }

    @Test("an XMP sidecar carries the position, and exiftool reads it")
    func sidecar() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("Panasonic.rw2.xmp")
        try SafeFile.write(try Self.tags.sidecar(updating: nil, file: "Panasonic.rw2"), to: url)
        let read = try ExternalTool.exiftoolTags(url)
        #expect(abs((Double(read["XMP-exif:GPSLatitude"] ?? "") ?? 0) + 33.856_784_5) < 1e-6)
        #expect(abs((Double(read["XMP-exif:GPSLongitude"] ?? "") ?? 0) - 151.215_297_3) < 1e-6)
        // Updating a sidecar keeps what else it says.
        let withRating = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            .replacingOccurrences(of: "xmlns:exif=", with: "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:Rating=\"4\" xmlns:exif=")
        let moved = GPSTags(latitude: 10, longitude: 20, time: Self.tags.time)
        try SafeFile.write(try moved.sidecar(updating: Data(withRating.utf8), file: "Panasonic.rw2"), to: url)
        let again = try ExternalTool.exiftoolTags(url)
        #expect(again["XMP-xmp:Rating"] == "4")
        #expect(abs((Double(again["XMP-exif:GPSLatitude"] ?? "") ?? 0) - 10) < 1e-6)
    }

    @Test("safe writing keeps permissions and the modification time")
    func keepsAttributes() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/Sony.jpg")
        let old = Date(timeIntervalSince1970: 1_500_000_000)
        try FileManager.default.setAttributes([.posixPermissions: 0o640, .modificationDate: old], ofItemAtPath: url.path)
        try SafeFile.write(try Self.tags.written(into: try Data(contentsOf: url), file: "Sony.jpg"), to: url, preservingAttributesOf: url)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect((attributes[.modificationDate] as? Date) == old)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(SafeFile.temporaryMarker) }
        #expect(leftovers.isEmpty)
    }

    @Test("a NEF whose maker note exiv2 cannot relocate is refused as unsafe, so a sidecar is written instead")
    func refusesDamagingWrite() throws {
        let original = try Fixtures.data("photos/Nikon.nef")
        let error = #expect(throws: MediaError.self) { try Self.tags.written(into: original, file: "Nikon.nef") }
        #expect(error?.wouldDamageMetadata == true)
        #expect(error?.message.contains("ScanIFD") == true)
    }

    @Test("a format exiv2 cannot write is refused without touching the bytes")
    func refusesReadOnlyFormat() throws {
        let original = try Fixtures.data("photos/Panasonic.rw2")
        let error = #expect(throws: MediaError.self) { try Self.tags.written(into: original, file: "Panasonic.rw2") }
        #expect(error?.message.contains("cannot write") == true)
    }
}
