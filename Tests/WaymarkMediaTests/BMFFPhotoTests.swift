import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

/// Canon CR3 and HEIF/HEIC read by the ISO-BMFF walker, checked against exiftool's reading.
@Suite("Reading CR3 and HEIF/HEIC")
struct BMFFPhotoTests {
    static func read(_ url: URL) throws -> PhotoMetadata {
        try PhotoMetadata.read(try Data(contentsOf: url), file: url.lastPathComponent).0
    }

    /// exiftool's value of a tag (any group but Composite), as text.
    static func exiftool(_ tags: [String: String], _ name: String) -> String? {
        tags.first { $0.key.hasSuffix(":\(name)") && !$0.key.hasPrefix("Composite:") && !$0.key.hasPrefix("QuickTime:") }?.value
    }

    @Test("CanonRaw.cr3: capture time, offsets, make and model equal exiftool's reading; no GPS; a sidecar format")
    func cr3FixtureMatchesExiftool() async throws {
        let url = Fixtures.url("photos/CanonRaw.cr3")
        let metadata = try Self.read(url)
        let tags = try await ExternalTool.exiftoolTags(url)
        #expect(metadata.dateTimeOriginal == Self.exiftool(tags, "DateTimeOriginal"))
        #expect(metadata.dateTimeOriginal == "2018:02:21 12:08:56")
        #expect(metadata.createDate == tags["ExifIFD:CreateDate"])
        #expect(metadata.subSecTimeOriginal == Self.exiftool(tags, "SubSecTimeOriginal"))
        #expect(metadata.offsetTimeOriginal == Self.exiftool(tags, "OffsetTimeOriginal"))
        #expect(metadata.offsetTimeDigitized == Self.exiftool(tags, "OffsetTimeDigitized"))
        #expect(metadata.make == tags["IFD0:Make"])
        #expect(metadata.model == tags["IFD0:Model"])
        #expect(metadata.model == "Canon EOS M50")
        #expect(metadata.pixelWidth == Int(tags["IFD0:ImageWidth"] ?? ""))
        #expect(metadata.mimeType == "image/x-canon-cr3")
        #expect(metadata.existingPosition == nil)  // CMT4 holds only GPSVersionID
        #expect(!metadata.isJPEG)
    }

    @Test("a CR3 with real THMB and PRVW JPEGs: exiftool extracts the same bytes, both decode, smallest first")
    func cr3EmbeddedJPEGsAreExiftools() async throws {
        let folder = try TemporaryFolder()
        let fixture = [UInt8](try Fixtures.data("photos/CanonRaw.cr3"))
        // The fixture's own TIFF blocks, so exiftool reads the same camera; real JPEGs in place of its dummy images.
        let blocks = try fixture.withUnsafeBytes { bytes in
            let reader = BMFFReader(bytes: bytes)
            let moov = try #require(try reader.boxes(in: reader.whole, depth: 0, container: "file").first { $0.type == "moov" })
            let canon = try #require(try reader.boxes(in: moov.payload, depth: 1, container: "moov").first { $0.uuid == BMFFBuilder.canonUUID })
            let children = try reader.boxes(in: canon.payload, depth: 2, container: "uuid")
            return try ["CMT1", "CMT2", "CMT4"].map { name in Array(bytes[try #require(children.first { $0.type == name }).payload]) }
        }
        let thumbnail = try await BMFFBuilder.jpeg(size: "160x120", in: folder)
        let preview = try await BMFFBuilder.jpeg(size: "1620x1080", in: folder)
        let file = BMFFBuilder.cr3(cmt1: blocks[0], cmt2: blocks[1], cmt4: blocks[2], thumbnail: thumbnail, preview: preview)
        let url = folder.url.appendingPathComponent("IMG_0001.CR3")
        try Data(file).write(to: url)

        let found = file.withUnsafeBytes { BMFFPhoto.embeddedJPEGs($0) }
        #expect(found.map(\.kind) == ["thumbnail", "preview"])
        let exiftoolThumbnail = [UInt8](try await ExternalTool.run(["exiftool", "-b", "-ThumbnailImage", url.path]))
        let exiftoolPreview = [UInt8](try await ExternalTool.run(["exiftool", "-b", "-PreviewImage", url.path]))
        #expect(found.count == 2)
        if found.count == 2 {
            #expect(Array(file[found[0].jpeg]) == exiftoolThumbnail)
            #expect(Array(file[found[1].jpeg]) == exiftoolPreview)
            #expect(exiftoolPreview == preview)
            for (index, size) in [(0, "160x120"), (1, "1620x1080")] {
                let jpeg = folder.url.appendingPathComponent("extracted-\(index).jpg")
                try Data(file[found[index].jpeg]).write(to: jpeg)
                let identified = String(decoding: try await ExternalTool.run(["identify", "-format", "%wx%h", jpeg.path]), as: UTF8.self)
                #expect(identified == size)
            }
        }
        // The metadata path hands out the largest as the preview, and reads the camera from the same blocks.
        let (metadata, previewData) = try PhotoMetadata.read(Data(file), file: "IMG_0001.CR3", wantPreview: true)
        #expect(previewData.map([UInt8].init) == preview)
        #expect(metadata.dateTimeOriginal == "2018:02:21 12:08:56")
        #expect(metadata.make == "Canon")
    }

    @Test("the fixture's dummy preview and thumbnail (text, not JPEG; a PRVW box larger than its parent) are not offered")
    func cr3DummyImagesAreNotJPEGs() throws {
        let fixture = try Fixtures.data("photos/CanonRaw.cr3")
        #expect(fixture.withUnsafeBytes { BMFFPhoto.embeddedJPEGs($0) }.isEmpty)
    }

    /// A HEIC made by heif-enc from an ImageMagick picture, with capture time and offsets written by exiftool.
    static func makeHEIC(in folder: TemporaryFolder, name: String = "IMG_0002.HEIC", assignments: [String]) async throws -> URL {
        let png = folder.url.appendingPathComponent("\(UUID().uuidString).png")
        try await ExternalTool.run(["convert", "-size", "320x240", "gradient:white-navy", png.path])
        let url = folder.url.appendingPathComponent(name)
        try await ExternalTool.run(["heif-enc", "-q", "60", "-o", url.path, png.path])
        try await ExternalTool.run(["exiftool", "-q", "-overwrite_original"] + assignments + [url.path])
        return url
    }

    @Test("a HEIC with a capture time written by exiftool: the same time, sub-seconds, offset and size as exiftool reads")
    func heicMatchesExiftool() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.makeHEIC(in: folder, assignments: [
            "-DateTimeOriginal=2024:06:01 12:03:04", "-SubSecTimeOriginal=25", "-OffsetTimeOriginal=+02:00",
            "-CreateDate=2024:06:01 12:03:05", "-Make=Apple", "-Model=iPhone 15",
        ])
        let metadata = try Self.read(url)
        let tags = try await ExternalTool.exiftoolTags(url)
        #expect(metadata.dateTimeOriginal == "2024:06:01 12:03:04")
        #expect(metadata.dateTimeOriginal == tags["ExifIFD:DateTimeOriginal"])
        #expect(metadata.subSecTimeOriginal == tags["ExifIFD:SubSecTimeOriginal"])
        #expect(metadata.offsetTimeOriginal == tags["ExifIFD:OffsetTimeOriginal"])
        #expect(metadata.createDate == tags["ExifIFD:CreateDate"])
        #expect(metadata.make == tags["IFD0:Make"] && metadata.model == tags["IFD0:Model"])
        #expect(metadata.mimeType == "image/heic")
        #expect(metadata.pixelWidth == 320 && metadata.pixelHeight == 240)
        #expect(metadata.existingPosition == nil)
    }

    @Test("a HEIC's existing GPS position is read from its GPS IFD, south and west negative")
    func heicExistingPosition() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.makeHEIC(in: folder, assignments: [
            "-DateTimeOriginal=2024:06:01 12:03:04", "-GPSLatitude=33.8568", "-GPSLatitudeRef=S",
            "-GPSLongitude=70.6693", "-GPSLongitudeRef=W",
        ])
        let position = try #require(try Self.read(url).existingPosition)
        let reference = try #require(try await ExternalTool.position(url))
        #expect(abs(position.latitude - reference.latitude) < 1e-6 && position.latitude < 0)
        #expect(abs(position.longitude - reference.longitude) < 1e-6 && position.longitude < 0)
    }

    @Test("the fixture HEIC without Exif reads without a capture time instead of failing")
    func heicWithoutExif() throws {
        let metadata = try Self.read(Fixtures.url("photos/QuickTime.heic"))
        #expect(metadata.captureTimeFields == nil)
        #expect(metadata.mimeType == "image/heic")
    }

    @Test("a HEIF whose Exif item is built here with exiftool's TIFF block reads through every iloc version")
    func heifIlocVersions() async throws {
        let folder = try TemporaryFolder()
        let tiff = try await BMFFBuilder.exifBlock(["-DateTimeOriginal=2021:07:08 09:10:11", "-SubSecTimeOriginal=5"], in: folder)
        for version: UInt8 in [0, 1, 2] {
            let file = BMFFBuilder.heif(exif: tiff, ilocVersion: version)
            let metadata = try PhotoMetadata.read(Data(file), file: "v\(version).heic").0
            #expect(metadata.dateTimeOriginal == "2021:07:08 09:10:11", "iloc version \(version)")
            #expect(metadata.subSecTimeOriginal == "5")
        }
        // Construction method 1 (data inside the meta box) is refused with a reason, not misread.
        let idat = BMFFBuilder.heif(exif: tiff, ilocVersion: 1, constructionMethod: 1)
        #expect {
            try PhotoMetadata.read(Data(idat), file: "idat.heic")
        } throws: { error in
            "\(error)".contains("construction method 1")
        }
    }

    @Test("another ISO-BMFF file (an MP4 video) is refused with its brand named")
    func otherBrandsRefused() throws {
        let file = BMFFBuilder.ftyp("isom", ["isom", "mp41"]) + BMFFBuilder.box("moov", []) + BMFFBuilder.box("mdat", [1, 2, 3])
        #expect {
            try PhotoMetadata.read(Data(file), file: "clip.mp4")
        } throws: { error in
            "\(error)".contains("brand \"isom\"")
        }
    }
}
