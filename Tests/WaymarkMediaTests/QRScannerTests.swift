import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

@Suite("Finding QR codes in photos")
struct QRScannerTests {

    /// Makes a synthetic camera photo with scripts/make-photo (qrencode + ImageMagick + exiftool).
    static func makePhoto(in folder: TemporaryFolder, name: String, time: String, payload: String?, size: String) async throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        var arguments = [packageRoot.appendingPathComponent("scripts/make-photo").path, url.path, time]
        if let payload { arguments += [payload, size] } else { arguments += ["", size] }
        try await ExternalTool.run(arguments)
        return url
    }

    @Test("a photographed, tilted, blurred and noisy QR code is read from a scaled decode")
    func readsPhotographedCode() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.makePhoto(in: folder, name: "qr.jpg", time: "2019:08:01 11:10:02", payload: "1564650590-2OANEZK7Q1XD", size: "2400x1800")
        let result = try QRScanner().scan(jpeg: try Data(contentsOf: url), file: "qr.jpg")
        #expect(result.texts == ["1564650590-2OANEZK7Q1XD"])
        // Never a full-size decode first: the code was found in an image smaller than the photo.
        #expect(max(result.decodedSize.width, result.decodedSize.height) < 2400)
    }

    @Test("a photo without a code yields nothing, from a single scaled decode")
    func noCode() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.makePhoto(in: folder, name: "plain.jpg", time: "2019:08:01 11:10:02", payload: nil, size: "2400x1800")
        let result = try QRScanner().scan(jpeg: try Data(contentsOf: url), file: "plain.jpg")
        #expect(result.texts.isEmpty)
        #expect(result.decodes == 1)
    }

    @Test("a small code far from the camera is still read at the larger scale")
    func smallCode() async throws {
        let folder = try TemporaryFolder()
        // The code fills a third of a 1200-px-high frame inside a 4800×3600 photo: 1/12 of its height.
        let small = try await Self.makePhoto(in: folder, name: "small.jpg", time: "2019:08:01 11:10:02", payload: "1564650590-2OANEZK7Q1XD", size: "1600x1200")
        let big = folder.url.appendingPathComponent("big.jpg")
        try await ExternalTool.run(["convert", "-size", "4800x3600", "xc:#707070", small.path, "-gravity", "center", "-composite", "-quality", "90", big.path])
        let result = try QRScanner().scan(jpeg: try Data(contentsOf: big), file: "big.jpg")
        #expect(result.texts == ["1564650590-2OANEZK7Q1XD"])
        #expect(result.decodedSize.width > 1024, "found only when the larger copy was searched")
    }

    @Test("a truncated or non-JPEG file is an error naming the file", arguments: [Data(), Data("GIF89a".utf8)])
    func brokenJPEG(data: Data) throws {
        let error = #expect(throws: MediaError.self) { try QRScanner().scan(jpeg: data, file: "x.jpg") }
        #expect(error?.file == "x.jpg")
    }

    @Test("a JPEG cut off in its image data still gives what it shows, without crashing")
    func truncatedImageData() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.makePhoto(in: folder, name: "qr.jpg", time: "2019:08:01 11:10:02", payload: "1564650590-2OANEZK7Q1XD", size: "1600x1200")
        let data = try Data(contentsOf: url)
        _ = try? QRScanner().scan(jpeg: data.prefix(data.count / 3), file: "qr.jpg")
    }
}
