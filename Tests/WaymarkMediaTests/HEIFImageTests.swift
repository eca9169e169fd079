import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

/// HEIC pixels through libheif: a QR code encoded by qrencode and heif-enc reads back through the decoder.
@Suite("Decoding HEIC pixels with libheif")
struct HEIFImageTests {
    static let payload = "1717236000-2OANEZK7Q1XD"

    /// A HEIC of a QR code (qrencode → PNG, enlarged by ImageMagick → heif-enc), optionally with a thumbnail.
    static func qrHEIC(in folder: TemporaryFolder, pixels: Int, thumbnail: Int? = nil) async throws -> [UInt8] {
        let png = folder.url.appendingPathComponent("qr.png"), big = folder.url.appendingPathComponent("qr-big.png")
        try await ExternalTool.run(["qrencode", "-l", "Q", "-s", "8", "-o", png.path, payload])
        try await ExternalTool.run(["convert", png.path, "-filter", "point", "-resize", "\(pixels)x\(pixels)", "-gravity", "center",
                              "-background", "white", "-extent", "\(pixels * 4 / 3)x\(pixels)", "PNG24:" + big.path])
        let heic = folder.url.appendingPathComponent("qr-\(pixels)-\(thumbnail ?? 0).heic")
        var arguments = ["heif-enc", "-q", "80", "-o", heic.path]
        if let thumbnail { arguments += ["-t", "\(thumbnail)"] }
        try await ExternalTool.run(arguments + [big.path])
        return [UInt8](try Data(contentsOf: heic))
    }

    @Test("heif-enc's HEIC of a QR code decodes through libheif and zxing reads the code back")
    func qrCodeReadsBack() async throws {
        let folder = try TemporaryFolder()
        let heic = try await Self.qrHEIC(in: folder, pixels: 600)
        let image = try heic.withUnsafeBytes { try HEIFImage.gray($0, thumbnail: false, maxLongSide: 4000) }
        #expect(image.width == 800 && image.height == 600)
        #expect(image.pixels.count == image.width * image.height)
        let result = try QRScanner().scan(gray: image.pixels, width: image.width, height: image.height)
        #expect(result.texts == [Self.payload])
    }

    @Test("a large HEIC is box-filtered down to the longest side asked for, and the code still reads")
    func scaledDown() async throws {
        let folder = try TemporaryFolder()
        let heic = try await Self.qrHEIC(in: folder, pixels: 1500)
        let image = try heic.withUnsafeBytes { try HEIFImage.gray($0, thumbnail: false, maxLongSide: 700) }
        #expect(max(image.width, image.height) <= 700)
        #expect(image.width == 2000 / 3 && image.height == 1500 / 3)
        #expect(try QRScanner().scan(gray: image.pixels, width: image.width, height: image.height).texts == [Self.payload])
    }

    @Test("the thumbnail heif-enc stores is decoded when asked for; without one the caller is told so")
    func thumbnails() async throws {
        let folder = try TemporaryFolder()
        let withThumbnail = try await Self.qrHEIC(in: folder, pixels: 600, thumbnail: 320)
        let thumbnail = try withThumbnail.withUnsafeBytes { try HEIFImage.gray($0, thumbnail: true, maxLongSide: 4000) }
        #expect(max(thumbnail.width, thumbnail.height) == 320)
        #expect(try QRScanner().scan(gray: thumbnail.pixels, width: thumbnail.width, height: thumbnail.height).texts == [Self.payload])
        let without = try await Self.qrHEIC(in: folder, pixels: 300)
        #expect(throws: HEIFImageError.noThumbnail) {
            try without.withUnsafeBytes { try HEIFImage.gray($0, thumbnail: true, maxLongSide: 4000) }
        }
    }

    @Test("broken HEIC bytes are a decoding error with libheif's reason, never a crash")
    func brokenInput() async throws {
        let folder = try TemporaryFolder()
        let heic = try await Self.qrHEIC(in: folder, pixels: 200)
        for length in stride(from: 0, to: heic.count, by: 37) {
            _ = try? Array(heic[..<length]).withUnsafeBytes { try HEIFImage.gray($0, thumbnail: false, maxLongSide: 500) }
        }
        var generator = SplitMix64(seed: 23)
        for _ in 0..<300 {
            var file = heic
            let at = Int.random(in: 0..<min(600, file.count), using: &generator)
            file[at] ^= UInt8.random(in: 1...255, using: &generator)
            _ = try? file.withUnsafeBytes { try HEIFImage.gray($0, thumbnail: false, maxLongSide: 500) }
        }
        let garbage = [UInt8](repeating: 0x42, count: 100)
        #expect {
            try garbage.withUnsafeBytes { try HEIFImage.gray($0, thumbnail: false, maxLongSide: 500) }
        } throws: { error in
            guard case HEIFImageError.decoding(let message) = error else { return false }
            return !message.isEmpty
        }
    }
}
