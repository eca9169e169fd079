import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

/// What a photo store reads from a photo's EXIF: capture time and offset, position, orientation,
/// camera, pixel size — checked against exiftool.
@Suite("Photo metadata for the photo store")
struct ImageMetadataTests {
    @Test("the orientation exiv2 reads is exiftool's for every fixture", arguments: ImageDerivativeTests.expected.keys.sorted())
    func orientation(_ name: String) async throws {
        let url = Fixtures.url("photos/\(name)")
        let tags = try await ExternalTool.exiftoolTags(url)
        let reference = tags.first { $0.key.hasSuffix(":Orientation") && !$0.key.hasPrefix("Composite") && !$0.key.hasPrefix("MakerNotes") }
            .flatMap { Int($0.value) }
        let metadata: PhotoMetadata
        do {
            metadata = try PhotoMetadata.read(contentsOf: url)
        } catch {
            // exiv2 reads every fixture but the HEIC without Exif; then there is nothing to compare.
            #expect(reference == nil, "\(name): \(error)")
            return
        }
        #expect(metadata.orientation == reference, "\(name): exiftool says \(String(describing: reference))")
    }

    @Test("Pentax.jpg is stored turned (orientation 8): exiv2 and the probe both say so")
    func pentax() throws {
        let url = Fixtures.url("photos/Pentax.jpg")
        #expect(try PhotoMetadata.read(contentsOf: url).orientation == 8)
        #expect(try ImageProbe.probe(file: url).orientation == 8)
        #expect(try PhotoMetadata.read(contentsOf: Fixtures.url("photos/Canon.jpg")).orientation == 1)
    }

    @Test("GPS.jpg gives its position, camera, capture time and size as exiftool reads them")
    func gpsPhoto() async throws {
        let url = Fixtures.url("photos/GPS.jpg")
        let metadata = try PhotoMetadata.read(contentsOf: url)
        let tags = try await ExternalTool.exiftoolTags(url)
        let position = try #require(try await ExternalTool.position(url))
        let found = try #require(metadata.existingPosition)
        #expect(abs(found.latitude - position.latitude) < 1e-6 && abs(found.longitude - position.longitude) < 1e-6)
        #expect(metadata.make == tags["IFD0:Make"] && metadata.model == tags["IFD0:Model"])
        #expect(metadata.pixelWidth == 120 && metadata.pixelHeight == 80)
        #expect(metadata.dateTimeOriginal == tags["ExifIFD:DateTimeOriginal"])
        #expect(metadata.captureTime != nil)
    }

    @Test("a capture time with OffsetTimeOriginal carries its offset; read(contentsOf:) equals reading the bytes")
    func captureTimeWithOffset() async throws {
        let folder = try TemporaryFolder()
        let url = try await ImageTestSupport.twoColourJPEG(in: folder, name: "offset.jpg", width: 64, height: 32)
        try await ExternalTool.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2026:06:21 14:30:05",
                              "-SubSecTimeOriginal=25", "-OffsetTimeOriginal=+02:00", url.path])
        let metadata = try PhotoMetadata.read(contentsOf: url)
        let time = try #require(metadata.captureTime)
        #expect(time.utcOffset == 7200 && time.hasSubseconds)
        #expect(abs(time.seconds - (1_782_052_205 + 0.25)) < 1e-6, "14:30:05.25 on 21 June 2026, read as if UTC")
        #expect(metadata.orientation == nil)
        #expect(try PhotoMetadata.read(Data(contentsOf: url), file: "offset.jpg").0.captureTime == time)
    }

    @Test("a missing file is a MediaError that names it")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        #expect(throws: MediaError.self) { try PhotoMetadata.read(contentsOf: folder.url.appendingPathComponent("gone.jpg")) }
    }
}
