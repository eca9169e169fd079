import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

/// Every real-world photo in the fixtures: probed by content, and those libvips reads made into
/// thumb, medium and large derivatives that exiftool finds empty of metadata.
@Suite("Image derivatives of the fixture photos")
struct ImageDerivativeTests {
    /// What each fixture is. ExifTool's sample files keep their metadata and drop most of their
    /// pixels: the JPEGs are 8 × 8 (GPS.jpg 120 × 80), the HEIC has a header and no image data,
    /// and no RAW file keeps an embedded JPEG preview of 256 pixels or more.
    enum Expected: Sendable {
        /// Read by libvips: derivatives are made.
        case derivatives(ImageFormat)
        /// The header reads; decoding the pixels fails.
        case brokenPixels(ImageFormat)
        /// A camera RAW file without a usable JPEG preview: refused as not an image.
        case rawWithoutPreview
    }

    static let expected: [String: Expected] = [
        "Canon.jpg": .derivatives(.jpeg), "FujiFilm.jpg": .derivatives(.jpeg), "GPS.jpg": .derivatives(.jpeg),
        "JVC.jpg": .derivatives(.jpeg), "Nikon.jpg": .derivatives(.jpeg), "Olympus.jpg": .derivatives(.jpeg),
        "Panasonic.jpg": .derivatives(.jpeg), "Pentax.jpg": .derivatives(.jpeg), "Sanyo.jpg": .derivatives(.jpeg),
        "Sony.jpg": .derivatives(.jpeg), "ExifTool.tif": .derivatives(.tiff),
        "QuickTime.heic": .brokenPixels(.heif),
        "CanonRaw.cr2": .rawWithoutPreview, "CanonRaw.cr3": .rawWithoutPreview, "DNG.dng": .rawWithoutPreview,
        "Nikon.nef": .rawWithoutPreview, "Panasonic.rw2": .rawWithoutPreview,
    ]

    static let sizes: [ImageDerivative.Size] = [.thumb, .medium, .large]

    @Test("the table names every file in the fixtures' photos folder, so a new fixture cannot go untested")
    func everyFixtureListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("photos").path).filter { !$0.hasPrefix(".") }
        #expect(Set(files) == Set(Self.expected.keys))
    }

    @Test("each fixture is probed by its content and gets derivatives, or the refusal it deserves",
          arguments: expected.keys.sorted())
    func fixture(_ name: String) async throws {
        let url = Fixtures.url("photos/\(name)")
        let folder = try TemporaryFolder()
        let bare = try await ImageTestSupport.bareJPEGGroups(in: folder)
        switch try #require(Self.expected[name]) {
        case .derivatives(let format):
            let probe = try ImageProbe.probe(file: url)
            #expect(probe.format == format)
            // The size exiftool reads from the file itself.
            let tags = try await ExternalTool.exiftoolTags(url)
            let width = tags["File:ImageWidth"] ?? tags["IFD0:ImageWidth"], height = tags["File:ImageHeight"] ?? tags["IFD0:ImageHeight"]
            #expect(width == "\(probe.width)" && height == "\(probe.height)", "exiftool reads \(width ?? "?") × \(height ?? "?")")
            // The same bytes probed from memory say the same.
            let fromMemory = try ImageProbe.probe(data: try Data(contentsOf: url))
            #expect(fromMemory.format == format && fromMemory.width == probe.width && fromMemory.height == probe.height)
            for size in Self.sizes {
                let derivative = try probe.derivative(size)
                let want = ImageTestSupport.expectedSize(size, width: probe.displayWidth, height: probe.displayHeight)
                #expect(derivative.width == want.width && derivative.height == want.height, "\(size) of \(name)")
                let leaks = try await ImageTestSupport.metadataLeaks(of: derivative, in: folder, bareJPEGGroups: bare)
                #expect(leaks.isEmpty, "\(size) of \(name) still carries \(leaks)")
                // libvips reads the derivative back as the JPEG it claims to be, of the size it claims.
                let back = try ImageProbe.probe(data: derivative.data)
                #expect(back.format == .jpeg && back.width == derivative.width && back.height == derivative.height && back.orientation == 1)
            }
        case .brokenPixels(let format):
            let probe = try ImageProbe.probe(file: url)
            #expect(probe.format == format)
            #expect(throws: ImageError.self) { try probe.derivative(.thumb) }
            do {
                _ = try probe.derivative(.thumb)
            } catch {
                guard case .broken = error else { Issue.record("\(name): \(error), not a broken image"); return }
            }
        case .rawWithoutPreview:
            do {
                let probe = try ImageProbe.probe(file: url)
                Issue.record("\(name) was accepted as \(probe.format) \(probe.width) × \(probe.height)")
            } catch {
                guard case .rawWithoutPreview = error else { Issue.record("\(name): \(error)"); return }
                #expect(error.description.contains("camera RAW"), "\(name): \(error)")
            }
        }
    }

    @Test("a WebP derivative is a WebP of the right size with no metadata, as exiftool reads it")
    func webp() async throws {
        let folder = try TemporaryFolder()
        let probe = try ImageProbe.probe(file: Fixtures.url("photos/GPS.jpg"))
        for size in Self.sizes {
            let derivative = try probe.derivative(size, encoding: .webp())
            #expect(derivative.mimeType == "image/webp")
            #expect(derivative.data.prefix(4) == Data("RIFF".utf8) && derivative.data.dropFirst(8).prefix(4) == Data("WEBP".utf8))
            let want = ImageTestSupport.expectedSize(size, width: 120, height: 80)
            #expect(derivative.width == want.width && derivative.height == want.height)
            let leaks = try await ImageTestSupport.metadataLeaks(of: derivative, in: folder, bareJPEGGroups: [])
            #expect(leaks.isEmpty, "the WebP \(size) still carries \(leaks)")
            let back = try ImageProbe.probe(data: derivative.data)
            #expect(back.format == .webp && back.width == want.width && back.height == want.height)
        }
    }

    @Test("a large photo is shrunk to 256 square, 1,024 and 2,048 on the long side, its GPS and camera gone")
    func largePhoto() async throws {
        let folder = try TemporaryFolder()
        let url = try await ImageTestSupport.twoColourJPEG(in: folder, name: "large.jpg", width: 3000, height: 2000)
        try await ExternalTool.run(["exiftool", "-q", "-overwrite_original", "-GPSLatitude=48.2", "-GPSLatitudeRef=N", "-GPSLongitude=16.37",
                              "-GPSLongitudeRef=E", "-Make=Canon", "-Model=EOS R5", "-SerialNumber=123456789", "-XMP:Creator=Someone",
                              url.path])
        #expect(try await ExternalTool.position(url) != nil)
        let bare = try await ImageTestSupport.bareJPEGGroups(in: folder)
        let probe = try ImageProbe.probe(file: url)
        #expect(probe.width == 3000 && probe.height == 2000 && probe.orientation == 1 && probe.mimeType == "image/jpeg")
        let expected: [(ImageDerivative.Size, Int, Int)] = [(.thumb, 256, 256), (.medium, 1024, 683), (.large, 2048, 1365)]
        for (size, width, height) in expected {
            let derivative = try probe.derivative(size)
            #expect(derivative.width == width && derivative.height == height, "\(size): \(derivative.width) × \(derivative.height)")
            #expect(try await ImageTestSupport.metadataLeaks(of: derivative, in: folder, bareJPEGGroups: bare).isEmpty)
        }
        // The square is the centre: red on the left, blue on the right, half and half.
        let thumb = try probe.derivative(.thumb)
        let halves = try await ImageTestSupport.leftAndRight(thumb.data, in: folder)
        #expect(ImageTestSupport.isRed(halves.left) && ImageTestSupport.isBlue(halves.right), "\(halves)")
    }
}

/// Every accepted format, made by tools nobody here wrote (ImageMagick, heif-enc).
@Suite("Image derivatives of every accepted format")
struct ImageFormatTests {
    @Test("PNG, WebP, 16-bit TIFF, HEIC and AVIF are probed by content and made into stripped, upright derivatives",
          arguments: [("image.png", ImageFormat.png, "image/png"), ("image.webp", .webp, "image/webp"),
                      ("image16.tif", .tiff, "image/tiff"), ("image.heic", .heif, "image/heic"), ("image.avif", .heif, "image/avif")])
    func format(_ name: String, _ format: ImageFormat, _ mimeType: String) async throws {
        let folder = try TemporaryFolder()
        let source = try await ImageTestSupport.twoColourJPEG(in: folder, name: "source.jpg", width: 400, height: 200, quality: 95)
        let url = folder.url.appendingPathComponent(name)
        switch format {
        case .heif: try await ExternalTool.run(["heif-enc", "-q", "90"] + (name.hasSuffix(".avif") ? ["-A"] : []) + ["-o", url.path, source.path])
        case .tiff: try await ExternalTool.run(["convert", source.path, "-depth", "16", url.path])
        default: try await ExternalTool.run(["convert", source.path, url.path])
        }
        // Named .bin: the content decides, never the name.
        let anonymous = folder.url.appendingPathComponent("upload.bin")
        try FileManager.default.copyItem(at: url, to: anonymous)
        let probe = try ImageProbe.probe(file: anonymous)
        #expect(probe.format == format && probe.mimeType == mimeType && probe.width == 400 && probe.height == 200)
        let bare = try await ImageTestSupport.bareJPEGGroups(in: folder)
        for encoding in [ImageDerivative.Encoding.jpeg(), .webp()] {
            let thumb = try probe.derivative(.thumb, encoding: encoding), medium = try probe.derivative(.medium, encoding: encoding)
            #expect(thumb.width == 200 && thumb.height == 200 && medium.width == 400 && medium.height == 200)
            #expect(try await ImageTestSupport.metadataLeaks(of: medium, in: folder, bareJPEGGroups: bare).isEmpty)
            let halves = try await ImageTestSupport.leftAndRight(medium.data, in: folder)
            #expect(ImageTestSupport.isRed(halves.left) && ImageTestSupport.isBlue(halves.right), "\(name) \(encoding): \(halves)")
        }
    }

    @Test("a transparent PNG is flattened onto white in JPEG and keeps its alpha in WebP")
    func transparency() async throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("alpha.png")
        try await ExternalTool.run(["convert", "-size", "300x200", "xc:none", "-fill", "red", "-draw", "rectangle 0,0 149,199", url.path])
        let probe = try ImageProbe.probe(file: url)
        let jpeg = try probe.derivative(.medium)
        let halves = try await ImageTestSupport.leftAndRight(jpeg.data, in: folder)
        #expect(ImageTestSupport.isRed(halves.left) && halves.right.allSatisfy { $0 > 240 }, "\(halves)")
        let webp = try probe.derivative(.medium, encoding: .webp())
        let out = folder.url.appendingPathComponent("alpha.webp")
        try webp.data.write(to: out)
        // VP8X flags, numeric with exiftool -n: 0x10 is alpha; no EXIF (0x08), XMP (0x04) or ICC (0x20).
        let flags = try #require(try await ExternalTool.exiftoolTags(out)["RIFF:WebP_Flags"].flatMap { Int($0) })
        #expect(flags & 0x10 != 0 && flags & 0x2C == 0, "flags \(flags)")
    }
}

/// Colour: what a browser shows from a derivative is sRGB, whatever the camera or editor stored.
@Suite("Image derivatives are sRGB")
struct ImageColourTests {
    @Test("an untagged RGB JPEG keeps its colours: pure red and blue stay pure")
    func untaggedStaysPut() async throws {
        let folder = try TemporaryFolder()
        let url = try await ImageTestSupport.twoColourJPEG(in: folder, name: "plain.jpg", width: 400, height: 200)
        let halves = try await ImageTestSupport.leftAndRight(try ImageProbe.probe(file: url).derivative(.medium).data, in: folder)
        #expect(halves.left[0] > 240 && halves.left[1] < 12 && halves.left[2] < 12, "\(halves.left)")
        #expect(halves.right[0] < 12 && halves.right[1] < 12 && halves.right[2] > 240, "\(halves.right)")
    }

    @Test("a CMYK JPEG becomes a three-component sRGB derivative, its red still red")
    func cmyk() async throws {
        let folder = try TemporaryFolder()
        let rgb = try await ImageTestSupport.twoColourJPEG(in: folder, name: "rgb.jpg", width: 400, height: 200)
        let url = folder.url.appendingPathComponent("cmyk.jpg")
        try await ExternalTool.run(["convert", rgb.path, "-colorspace", "CMYK", url.path])
        #expect(try await ExternalTool.exiftoolTags(url)["File:ColorComponents"] == "4")
        let derivative = try ImageProbe.probe(file: url).derivative(.medium)
        let out = folder.url.appendingPathComponent("out.jpg")
        try derivative.data.write(to: out)
        #expect(try await ExternalTool.exiftoolTags(out)["File:ColorComponents"] == "3")
        let halves = try await ImageTestSupport.leftAndRight(derivative.data, in: folder)
        #expect(ImageTestSupport.isRed(halves.left), "\(halves.left)")
    }
}

/// Orientation: the derivative is upright, whatever way the camera stored the pixels.
@Suite("Image derivatives are turned upright")
struct ImageOrientationTests {
    @Test("a 400 × 200 JPEG with Orientation 6 becomes a 200 × 400 portrait, its left side on top")
    func orientationSix() async throws {
        let folder = try TemporaryFolder()
        let url = try await ImageTestSupport.twoColourJPEG(in: folder, name: "rotated.jpg", width: 400, height: 200, orientation: 6)
        let tags = try await ExternalTool.exiftoolTags(url)
        #expect(tags["IFD0:Orientation"] == "6")
        let probe = try ImageProbe.probe(file: url)
        #expect(probe.width == 400 && probe.height == 200 && probe.orientation == 6)
        #expect(probe.displayWidth == 200 && probe.displayHeight == 400)
        #expect(try PhotoMetadata.read(contentsOf: url).orientation == 6)

        let medium = try probe.derivative(.medium)
        #expect(medium.width == 200 && medium.height == 400, "never enlarged, turned upright")
        let colours = try await ImageTestSupport.topAndBottom(medium.data, in: folder)
        // Orientation 6: the stored image is turned 90° clockwise to be upright, so its left (red) side goes to the top.
        #expect(ImageTestSupport.isRed(colours.top) && ImageTestSupport.isBlue(colours.bottom), "top \(colours.top), bottom \(colours.bottom)")
        let thumb = try probe.derivative(.thumb)
        #expect(thumb.width == 200 && thumb.height == 200)
        // The derivative carries no Orientation tag that a viewer could apply a second time.
        let out = folder.url.appendingPathComponent("medium.jpg")
        try medium.data.write(to: out)
        #expect(try await ExternalTool.exiftoolTags(out).keys.allSatisfy { !$0.hasSuffix(":Orientation") })

        let webp = try probe.derivative(.medium, encoding: .webp())
        #expect(webp.width == 200 && webp.height == 400)
        let webpColours = try await ImageTestSupport.topAndBottom(webp.data, in: folder)
        #expect(ImageTestSupport.isRed(webpColours.top) && ImageTestSupport.isBlue(webpColours.bottom))
    }

    @Test("every orientation turns the red left side of a landscape to where EXIF says it belongs", arguments: 1...8)
    func everyOrientation(_ orientation: Int) async throws {
        let folder = try TemporaryFolder()
        let url = try await ImageTestSupport.twoColourJPEG(in: folder, name: "o\(orientation).jpg", width: 600, height: 300, orientation: orientation)
        let probe = try ImageProbe.probe(file: url)
        #expect(probe.orientation == orientation)
        let medium = try probe.derivative(.medium)
        let portrait = orientation >= 5
        #expect((medium.width, medium.height) == (portrait ? (300, 600) : (600, 300)))
        // ImageMagick's -auto-orient is the reference for where the pixels go.
        let reference = folder.url.appendingPathComponent("reference.png")
        try await ExternalTool.run(["convert", url.path, "-auto-orient", reference.path])
        let want = try await ImageTestSupport.topAndBottom(try Data(contentsOf: reference), in: folder)
        let got = try await ImageTestSupport.topAndBottom(medium.data, in: folder)
        for (a, b) in zip(want.top + want.bottom, got.top + got.bottom) { #expect(abs(a - b) < 40, "orientation \(orientation): \(want) vs \(got)") }
    }

    @Test("a large portrait-by-orientation photo fits the long side on its height")
    func largeRotated() async throws {
        let folder = try TemporaryFolder()
        let url = try await ImageTestSupport.twoColourJPEG(in: folder, name: "big-rotated.jpg", width: 3000, height: 1500, orientation: 6)
        let probe = try ImageProbe.probe(file: url)
        let medium = try probe.derivative(.medium), large = try probe.derivative(.large), thumb = try probe.derivative(.thumb)
        #expect(medium.width == 512 && medium.height == 1024)
        #expect(large.width == 1024 && large.height == 2048)
        #expect(thumb.width == 256 && thumb.height == 256)
    }
}
