import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

/// Every input that once crashed one of the photo-structure readers of `make fuzz` (scripts/fuzz
/// copies them to `FuzzRegressions/<reader>/`: `tiff`, `jpeg`, `bmff`), replayed through the
/// same entry points as the harness (Fuzz/Sources/WaymarkMediaReaders/MediaFuzz.swift), with
/// the real exiv2 read-back in the edit's verification.
@Suite("Inputs that once crashed a photo-structure reader")
struct MediaFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzRegressions")
    static let readers = ["tiff", "jpeg", "bmff"]
    /// The tags the harness's planned edits write.
    static let tags = GPSTags(latitude: 46.378_9, longitude: -13.836_1, altitude: 2864, accuracy: 3,
                              time: Date(timeIntervalSince1970: 1_717_236_000.25))

    /// `reader/file` for every regression input.
    static func inputs() -> [String] {
        readers.flatMap { reader in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(reader).path)) ?? [])
                .filter { !$0.hasPrefix(".") }.sorted().map { "\(reader)/\($0)" }
        }
    }

    static func inBounds(_ range: Range<Int>, _ bytes: UnsafeRawBufferPointer) -> Bool {
        range.lowerBound >= 0 && range.upperBound <= bytes.count && range.count >= 4
            && bytes[range.lowerBound] == 0xFF && bytes[range.lowerBound + 1] == 0xD8
    }

    /// Reads `data` as the harness's `reader` does; returns whether its structure was read.
    @discardableResult
    static func replay(_ reader: String, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var read = false
            switch reader {
            case "tiff":
                read = (try? TIFFStructure.parse(bytes)) != nil
                for role in [BMFFExif.Role.wholeBlock, .ifd0, .exifIFD, .gpsIFD] {
                    var exif = BMFFExif()
                    try? exif.read(tiff: bytes, as: role)
                }
                for range in TIFFStructure.embeddedJPEGs(in: bytes) {
                    #expect(inBounds(range, bytes), "embedded JPEG \(range) of \(bytes.count) bytes")
                    _ = JPEGLayout.decodableFrame(bytes, range)
                }
            case "jpeg":
                if let layout = try? JPEGLayout.parse(bytes) {
                    read = true
                    #expect(layout.imageEnd <= bytes.count)
                    if let thumbnail = layout.exifThumbnail(in: bytes) { #expect(inBounds(thumbnail, bytes)) }
                    for image in MultiPicture.images(bytes, layout: layout) { #expect(image.upperBound <= bytes.count) }
                }
                _ = JPEGLayout.decodableFrame(bytes, 0..<bytes.count)
            default:
                read = (try? BMFFPhoto.parse(bytes)) != nil
                for (kind, range) in BMFFPhoto.embeddedJPEGs(bytes) { #expect(inBounds(range, bytes), "\(kind) \(range)") }
            }
            if reader != "bmff", let edit = try? AppendOnlyEdit.plan(bytes, tags: tags) {
                let written = edit.applied(to: bytes)
                #expect(written.count == bytes.count + edit.inserted.count)
                written.withUnsafeBytes { new in
                    #expect(throws: Never.self, "a planned \(edit.kind) edit does not verify") {
                        try edit.verify(written: new, original: bytes, tags: tags)
                    }
                }
            }
            return read
        }
    }

    @Test("each reader has its folder, and the fixtures' camera files read through the replay")
    func foldersAndFixtures() throws {
        for reader in Self.readers {
            #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(reader).path), "FuzzRegressions/\(reader)")
        }
        #expect(Self.replay("jpeg", try Fixtures.data("photos/Nikon.jpg")))
        #expect(Self.replay("jpeg", try Fixtures.data("photos/GPS.jpg")))
        #expect(Self.replay("tiff", try Fixtures.data("photos/ExifTool.tif")))
        #expect(Self.replay("tiff", try Fixtures.data("photos/DNG.dng")))
        #expect(Self.replay("bmff", try Fixtures.data("photos/CanonRaw.cr3")))
        // Cut as scripts/fuzz cuts seeds, a JPEG has lost its end and is refused, never a crash.
        #expect(!Self.replay("jpeg", try Fixtures.data("photos/Nikon.jpg").prefix(600)))
    }

    @Test("each input is read or refused, never a crash; what is handed out lies in the file", arguments: inputs())
    func replaysWithoutCrash(input: String) throws {
        let reader = String(input.prefix(while: { $0 != "/" }))
        Self.replay(reader, try Data(contentsOf: Self.folder.appendingPathComponent(input)))
    }
}
