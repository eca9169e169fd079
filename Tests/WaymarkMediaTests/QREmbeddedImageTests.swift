import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkMedia

/// The QR search tries a photo's small embedded images before its full image, and says where it
/// found the code.
@Suite("QR search in embedded thumbnails and previews")
struct QREmbeddedImageTests {
    static let payload = "1717243217-7Q2OANEZK1XD"
    static let time = "2024:06:01 12:03:17"

    /// A 2400×1800 camera-like JPEG (scripts/make-photo), with the code in the frame or not.
    static func photo(_ folder: TemporaryFolder, _ name: String, payload: String?, size: String = "2400x1800") async throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        try await ExternalTool.makePhoto(url, time: time, payload: payload, size: size)
        return url
    }

    static func search(_ url: URL, isJPEG: Bool = true) throws -> QRPhotoSearch {
        QRScanner().searchPhoto(try Data(contentsOf: url, options: .alwaysMapped), isJPEG: isJPEG, file: url.lastPathComponent)
    }

    @Test("an Exif thumbnail that shows the code is enough: one decode of 160 × 120 pixels, the full image untouched")
    func exifThumbnail() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.photo(folder, "IMG_0001.JPG", payload: nil)
        let before = try Self.search(url)
        #expect(before.payloads.isEmpty && before.source == nil, "the photo itself shows no code")
        #expect(before.searched == [.fullImage])

        let thumbnail = folder.url.appendingPathComponent("thumb.jpg")
        try await ExternalTool.makeQRJPEG(thumbnail, payload: Self.payload, width: 160, height: 120)
        try await ExternalTool.embed(thumbnail, as: "ThumbnailImage", into: url)
        let found = try Self.search(url)
        #expect(found.payloads.map(\.text) == [Self.payload])
        #expect(found.source == .exifThumbnail)
        #expect(found.searched == [.exifThumbnail])
        #expect(found.decodes == 1)
        #expect(found.decodedLongSide == 160)
    }

    @Test("an MPF preview that shows the code while the primary image does not: found in the preview")
    func multiPicturePreview() async throws {
        let folder = try TemporaryFolder()
        let primary = try await Self.photo(folder, "primary.jpg", payload: nil)
        let preview = try await Self.photo(folder, "preview.jpg", payload: Self.payload, size: "1920x1440")
        let url = folder.url.appendingPathComponent("IMG_0002.JPG")
        try MultiPictureFixture.make(primary: Data(contentsOf: primary), second: Data(contentsOf: preview)).write(to: url)
        // exiftool reads the file as a Multi-Picture JPEG whose second image is the preview.
        #expect(try await ExternalTool.run(["exiftool", "-b", "-MPImage2:PreviewImage", url.path]) == (try Data(contentsOf: preview)))

        #expect(try Self.search(primary).payloads.isEmpty, "the primary image shows no code")
        let found = try Self.search(url)
        #expect(found.payloads.map(\.text) == [Self.payload])
        #expect(found.source == .mpfPreview)
        #expect(found.searched == [.mpfPreview])
        #expect(found.decodes == 1)
    }

    @Test("a thumbnail with another app's QR code does not end the search: the Waymark code in the full image is found")
    func foreignCodeInThumbnail() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.photo(folder, "IMG_0003.JPG", payload: Self.payload)
        let thumbnail = folder.url.appendingPathComponent("menu.jpg")
        try await ExternalTool.makeQRJPEG(thumbnail, payload: "https://example.org/menu", width: 160, height: 120)
        try await ExternalTool.embed(thumbnail, as: "ThumbnailImage", into: url)
        // The thumbnail's code is readable, so a search that stopped at any code would stop there.
        #expect(try QRScanner().scan(jpeg: Data(contentsOf: thumbnail), file: "menu.jpg").texts == ["https://example.org/menu"])

        let found = try Self.search(url)
        #expect(found.payloads.map(\.text) == [Self.payload])
        #expect(found.source == .fullImage)
        #expect(found.searched == [.exifThumbnail, .fullImage])
        #expect(found.decodes == 2)
    }

    @Test("a RAW file whose JPEG preview shows the code (exiftool's PreviewImage): found in the preview",
          arguments: ["CanonRaw.cr2", "DNG.dng"])
    func rawPreview(name: String) async throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(fixture: "photos/\(name)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        #expect(try Self.search(url, isJPEG: false).payloads.isEmpty, "the fixture shows no code")
        let preview = folder.url.appendingPathComponent("preview.jpg")
        try await ExternalTool.makeQRJPEG(preview, payload: Self.payload, width: 1620, height: 1080)
        try await ExternalTool.embed(preview, as: "PreviewImage", into: url)
        #expect(try await ExternalTool.run(["exiftool", "-b", "-PreviewImage", url.path]) == (try Data(contentsOf: preview)))

        let found = try Self.search(url, isJPEG: false)
        #expect(found.payloads.map(\.text) == [Self.payload])
        #expect(found.source == .rawPreview)
        #expect(found.decodedLongSide > 0 && found.decodedLongSide <= 1620)
    }

    @Test("a Canon CR3 whose PRVW preview shows the code: found in the preview")
    func cr3Preview() async throws {
        let folder = try TemporaryFolder()
        let preview = folder.url.appendingPathComponent("preview.jpg")
        try await ExternalTool.makeQRJPEG(preview, payload: Self.payload, width: 1620, height: 1080)
        let original = try Fixtures.data("photos/CanonRaw.cr3")
        let url = folder.url.appendingPathComponent("IMG_0004.CR3")
        try original.write(to: url)
        #expect(try Self.search(url, isJPEG: false).payloads.isEmpty, "the fixture shows no code")
        try CR3Fixture.withPreview(original, jpeg: Data(contentsOf: preview), width: 1620, height: 1080).write(to: url)
        // exiftool reads the new preview back.
        #expect(try await ExternalTool.run(["exiftool", "-b", "-PreviewImage", url.path]) == (try Data(contentsOf: preview)))

        let found = try Self.search(url, isJPEG: false)
        #expect(found.payloads.map(\.text) == [Self.payload])
        #expect(found.source == .rawPreview)
    }

    @Test("a HEIC photo of the code: found in its thumbnail when it has one, else in the image itself",
          arguments: [true, false])
    func heic(withThumbnail: Bool) async throws {
        let folder = try TemporaryFolder()
        let png = folder.url.appendingPathComponent("qr.png")
        try await ExternalTool.run(["qrencode", "-l", "Q", "-s", "24", "-m", "4", "-o", png.path, Self.payload])
        let url = folder.url.appendingPathComponent("IMG_0005.HEIC")
        try await ExternalTool.run(["heif-enc", "-q", "90"] + (withThumbnail ? ["-t", "320"] : []) + ["-o", url.path, png.path])

        let found = try Self.search(url, isJPEG: false)
        #expect(found.payloads.map(\.text) == [Self.payload])
        #expect(found.source == (withThumbnail ? .heifThumbnail : .fullImage))
        #expect(found.searched == (withThumbnail ? [.heifThumbnail] : [.fullImage]))
    }

    @Test("a large QR code of another app does not hide a small Waymark code that only the larger scale shows")
    func foreignCodeInTheSameImage() async throws {
        let folder = try TemporaryFolder()
        // The Waymark code fills a third of a 600-px-high frame inside a 6000×4500 photo (1/22 of
        // its height: read only in the larger, 2,250-px copy); a menu's QR code 1,480 px wide sits at
        // the top left, readable in the 1,125-px copy searched first.
        let frame = try await Self.photo(folder, "frame.jpg", payload: Self.payload, size: "1600x1200")
        let small = folder.url.appendingPathComponent("small.jpg")
        try await ExternalTool.run([ExternalTool.imageMagick, frame.path, "-resize", "800x600", small.path])
        let menu = folder.url.appendingPathComponent("menu.png")
        try await ExternalTool.run(["qrencode", "-l", "Q", "-s", "40", "-m", "4", "-o", menu.path, "https://example.org/menu"])
        let url = folder.url.appendingPathComponent("IMG_0007.JPG")
        try await ExternalTool.run([ExternalTool.imageMagick, "-size", "6000x4500", "xc:#707070", small.path, "-gravity", "center", "-composite",
                              menu.path, "-gravity", "northwest", "-geometry", "+100+100", "-composite", "-quality", "90", url.path])
        // A search that stops at any code stops at the menu's, in the smaller copy.
        let anyCode = try QRScanner().scan(jpeg: Data(contentsOf: url), file: url.lastPathComponent)
        #expect(anyCode.texts == ["https://example.org/menu"], "\(anyCode)")

        let found = try Self.search(url)
        #expect(found.payloads.map(\.text) == [Self.payload])
        #expect(found.source == .fullImage)
        #expect(found.decodes == 1)
        #expect(found.decodedLongSide > 1024, "found in the larger copy")
    }

    @Test("a thumbnail pointer into nowhere is skipped: the full image is still searched")
    func brokenThumbnail() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.photo(folder, "IMG_0006.JPG", payload: Self.payload)
        let thumbnail = folder.url.appendingPathComponent("thumb.jpg")
        try await ExternalTool.makeQRJPEG(thumbnail, payload: Self.payload, width: 160, height: 120)
        try await ExternalTool.embed(thumbnail, as: "ThumbnailImage", into: url)
        // Damage the thumbnail's image data (its SOI marker stays): libjpeg-turbo cannot decode it.
        var bytes = [UInt8](try Data(contentsOf: url))
        let data = try Data(contentsOf: thumbnail)
        let start = try #require(bytes.firstRange(of: [UInt8](data.prefix(64)))).lowerBound
        for i in (start + 2)..<(start + data.count) { bytes[i] = 0xFF }
        try Data(bytes).write(to: url)

        let found = try Self.search(url)
        #expect(found.payloads.map(\.text) == [Self.payload])
        #expect(found.source == .fullImage)
    }
}
