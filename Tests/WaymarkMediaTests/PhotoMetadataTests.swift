import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

@Suite("Reading photo metadata with exiv2")
struct PhotoMetadataTests {
    static let photos = ["Canon.jpg", "CanonRaw.cr2", "DNG.dng", "ExifTool.tif", "FujiFilm.jpg", "GPS.jpg", "Nikon.jpg",
                         "Nikon.nef", "Olympus.jpg", "Panasonic.jpg", "Panasonic.rw2", "Pentax.jpg", "Sony.jpg"]

    @Test("the capture time agrees with exiftool's DateTimeOriginal", arguments: photos)
    func captureTimeMatchesExiftool(name: String) async throws {
        let url = Fixtures.url("photos/\(name)")
        let (metadata, _) = try PhotoMetadata.read(try Data(contentsOf: url), file: name)
        let tags = try await ExternalTool.exiftoolTags(url)
        let expected = tags["ExifIFD:DateTimeOriginal"] ?? tags["ExifIFD:CreateDate"]
        #expect(metadata.captureTimeFields?.dateTime == expected)
    }

    @Test("a TIFF with only a modification date has no capture time")
    func noCaptureTime() throws {
        let (metadata, _) = try PhotoMetadata.read(try Fixtures.data("photos/ExifTool.tif"), file: "ExifTool.tif")
        #expect(metadata.captureTimeFields == nil)
    }

    @Test("sub-seconds come with the capture time")
    func subSeconds() throws {
        let (metadata, _) = try PhotoMetadata.read(try Fixtures.data("photos/Nikon.nef"), file: "Nikon.nef")
        #expect(metadata.captureTimeFields?.dateTime == "2004:06:09 16:02:35")
        #expect(metadata.captureTimeFields?.subSeconds == "00")
    }

    @Test("the position already in GPS.jpg is read as exiftool reads it")
    func existingPosition() async throws {
        let url = Fixtures.url("photos/GPS.jpg")
        let (metadata, _) = try PhotoMetadata.read(try Data(contentsOf: url), file: "GPS.jpg")
        let tags = try await ExternalTool.exiftoolTags(url)
        let position = try #require(metadata.existingPosition)
        #expect(abs(position.latitude - (Double(tags["GPS:GPSLatitude"] ?? "") ?? 0) * (tags["GPS:GPSLatitudeRef"] == "S" ? -1 : 1)) < 1e-9)
        #expect(abs(position.longitude - (Double(tags["GPS:GPSLongitude"] ?? "") ?? 0) * (tags["GPS:GPSLongitudeRef"] == "W" ? -1 : 1)) < 1e-9)
        let (canon, _) = try PhotoMetadata.read(try Fixtures.data("photos/Canon.jpg"), file: "Canon.jpg")
        #expect(canon.existingPosition == nil)
    }

    @Test("RW2 is read (its GPS goes to a sidecar: GPSWriteTests.refusesOtherFormats); a JPEG is known as one")
    func readOnlyFormat() throws {
        let (metadata, _) = try PhotoMetadata.read(try Fixtures.data("photos/Panasonic.rw2"), file: "Panasonic.rw2")
        #expect(metadata.captureTimeFields?.dateTime == "2008:08:06 15:21:56")
        #expect(!metadata.isJPEG)
        let (jpeg, _) = try PhotoMetadata.read(try Fixtures.data("photos/Canon.jpg"), file: "Canon.jpg")
        #expect(jpeg.isJPEG)
    }

    @Test("broken input gives an error naming the file, not a crash", arguments: [
        Data(), Data("not a photo at all".utf8), Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00]),
    ])
    func brokenInput(data: Data) throws {
        #expect(throws: MediaError.self) { try PhotoMetadata.read(data, file: "broken.jpg") }
    }

    @Test("a JPEG truncated in its Exif block is refused with a reason")
    func truncatedJPEG() throws {
        let whole = try Fixtures.data("photos/Canon.jpg")
        let error = #expect(throws: MediaError.self) { try PhotoMetadata.read(whole.prefix(300), file: "Canon.jpg") }
        #expect(error?.file == "Canon.jpg")
        #expect(error?.message.isEmpty == false)
    }
}
