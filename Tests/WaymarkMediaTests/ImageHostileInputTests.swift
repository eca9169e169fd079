import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

/// What an attacker or a broken phone uploads: each is refused with the error a server answers
/// it with, and none is decoded further than its header says is safe.
@Suite("Hostile image input")
struct ImageHostileInputTests {
    /// Probes a file and makes its three derivatives, as a server does with an upload.
    static func ingest(_ url: URL) throws(ImageError) {
        let probe = try ImageProbe.probe(file: url)
        for size in [ImageDerivative.Size.thumb, .medium, .large] { _ = try probe.derivative(size) }
    }

    /// The error `body` throws, recorded as an issue when it throws none.
    static func refusal(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> ImageError? {
        do {
            try body()
            Issue.record("accepted", sourceLocation: sourceLocation)
            return nil
        } catch let error as ImageError {
            return error
        } catch {
            Issue.record("\(error) is no ImageError", sourceLocation: sourceLocation)
            return nil
        }
    }

    static func isNotAnImage(_ error: ImageError?) -> Bool { if case .notAnImage = error { true } else { false } }
    static func isBroken(_ error: ImageError?) -> Bool { if case .broken = error { true } else { false } }

    @Test("a text file named .jpg is not an image, from a file and from memory")
    func textNamedJPEG() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("holiday.jpg")
        let text = Data("These are not the pixels you are looking for.\n".utf8)
        try text.write(to: url)
        let fromFile = Self.refusal { try Self.ingest(url) }
        #expect(Self.isNotAnImage(fromFile), "\(String(describing: fromFile))")
        let fromMemory = Self.refusal { _ = try ImageProbe.probe(data: text) }
        #expect(Self.isNotAnImage(fromMemory), "\(String(describing: fromMemory))")
    }

    @Test("an empty file is not an image")
    func empty() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("empty.jpg")
        try Data().write(to: url)
        #expect(Self.isNotAnImage(Self.refusal { try Self.ingest(url) }))
        #expect(Self.isNotAnImage(Self.refusal { _ = try ImageProbe.probe(data: Data()) }))
    }

    @Test("random bytes are not an image; random bytes behind a JPEG's first markers are a broken one")
    func randomBytes() throws {
        let folder = try TemporaryFolder()
        let noise = ImageTestSupport.randomBytes(count: 256 * 1024, seed: 20_261_124)
        let url = folder.url.appendingPathComponent("noise.jpg")
        try noise.write(to: url)
        #expect(Self.isNotAnImage(Self.refusal { try Self.ingest(url) }))
        #expect(Self.isNotAnImage(Self.refusal { _ = try ImageProbe.probe(data: noise) }))

        let fakeJPEG = Data([0xFF, 0xD8, 0xFF, 0xE0]) + noise
        let fake = folder.url.appendingPathComponent("fake.jpg")
        try fakeJPEG.write(to: fake)
        let error = Self.refusal { try Self.ingest(fake) }
        #expect(Self.isBroken(error), "\(String(describing: error))")
    }

    @Test("a fixture JPEG cut in half is a broken image", arguments: ["Canon.jpg", "GPS.jpg", "Pentax.jpg"])
    func truncatedFixture(_ name: String) throws {
        let folder = try TemporaryFolder()
        let whole = try Fixtures.data("photos/\(name)")
        let url = folder.url.appendingPathComponent("half-\(name)")
        try whole.prefix(whole.count / 2).write(to: url)
        let error = Self.refusal { try Self.ingest(url) }
        #expect(Self.isBroken(error), "\(String(describing: error))")
    }

    @Test("a JPEG cut after its header passes the probe and every derivative fails: no grey half image")
    func truncatedPixels() async throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("whole.jpg")
        try await ExternalTool.run(["convert", "-size", "1200x800", "plasma:fractal", "-quality", "92", url.path])
        let whole = try Data(contentsOf: url)
        let cut = folder.url.appendingPathComponent("cut.jpg")
        try whole.prefix(whole.count * 6 / 10).write(to: cut)
        let probe = try ImageProbe.probe(file: cut)
        #expect(probe.format == .jpeg && probe.width == 1200 && probe.height == 800)
        for size in [ImageDerivative.Size.thumb, .medium, .large] {
            for encoding in [ImageDerivative.Encoding.jpeg(), .webp()] {
                let error = Self.refusal { _ = try probe.derivative(size, encoding: encoding) }
                #expect(Self.isBroken(error), "\(size) \(encoding): \(String(describing: error))")
            }
        }
        // The whole file makes the same derivatives without complaint.
        _ = try ImageProbe.probe(file: url).derivative(.large)
    }

    /// A JPEG whose frame header (SOF) says `width` × `height`: ImageMagick's small JPEG, patched.
    static func jpegClaiming(width: Int, height: Int, in folder: TemporaryFolder) async throws -> Data {
        let small = folder.url.appendingPathComponent("small.jpg")
        try await ExternalTool.run(["convert", "-size", "64x64", "xc:gray", small.path])
        var bytes = [UInt8](try Data(contentsOf: small))
        var at = 2
        while at + 9 < bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                bytes[at + 5] = UInt8(height >> 8); bytes[at + 6] = UInt8(height & 0xFF)
                bytes[at + 7] = UInt8(width >> 8); bytes[at + 8] = UInt8(width & 0xFF)
                return Data(bytes)
            }
            at += 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
        }
        throw ImageTestError(description: "ImageMagick's JPEG has no frame header")
    }

    @Test("a 30,000 × 30,000 JPEG header is refused as too many pixels before anything is decoded")
    func decompressionBomb() async throws {
        let folder = try TemporaryFolder()
        let bomb = try await Self.jpegClaiming(width: 30_000, height: 30_000, in: folder)
        let url = folder.url.appendingPathComponent("bomb.jpg")
        try bomb.write(to: url)
        let tags = try await ExternalTool.exiftoolTags(url)
        #expect(tags["File:ImageWidth"] == "30000" && tags["File:ImageHeight"] == "30000", "exiftool reads the header's claim")

        let fromFile = Self.refusal { try Self.ingest(url) }
        #expect(fromFile == .tooManyPixels(width: 30_000, height: 30_000, limit: 100_000_000))
        let fromMemory = Self.refusal { _ = try ImageProbe.probe(data: bomb) }
        #expect(fromMemory == .tooManyPixels(width: 30_000, height: 30_000, limit: 100_000_000))
        // Decoding it would take 2.7 GB; the process never came near that.
        #expect(ImageTestSupport.peakResidentBytes() < 1_500_000_000)
        // It is the limit that refuses: without one the header alone reads fine.
        let unlimited = try ImageProbe.probe(file: url, pixelLimit: 0)
        #expect(unlimited.width == 30_000 && unlimited.height == 30_000)
        // A caller's lower limit is the one applied.
        let small = try await Self.jpegClaiming(width: 2_000, height: 1_000, in: folder)
        #expect(Self.refusal { _ = try ImageProbe.probe(data: small, pixelLimit: 1_999_999) }
            == .tooManyPixels(width: 2_000, height: 1_000, limit: 1_999_999))
    }

    @Test("a PNG whose header claims 30,000 × 30,000 is refused the same way")
    func pngBomb() async throws {
        let folder = try TemporaryFolder()
        let small = folder.url.appendingPathComponent("small.png")
        try await ExternalTool.run(["convert", "-size", "64x64", "xc:gray", small.path])
        var bytes = [UInt8](try Data(contentsOf: small))
        // IHDR is the first chunk: length (4), "IHDR" (4), width (4), height (4), …, then its CRC over type and data.
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
        for (offset, value) in [(16, 30_000), (20, 30_000)] {
            withUnsafeBytes(of: UInt32(value).bigEndian) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
        }
        let crc = ImageTestSupport.crc32(bytes[12..<29])
        withUnsafeBytes(of: crc.bigEndian) { bytes.replaceSubrange(29..<33, with: $0) }
        let url = folder.url.appendingPathComponent("bomb.png")
        try Data(bytes).write(to: url)
        #expect(Self.refusal { try Self.ingest(url) } == .tooManyPixels(width: 30_000, height: 30_000, limit: 100_000_000))
    }

    @Test("a missing file and a folder cannot be read: not the image's fault")
    func unreadable() throws {
        let folder = try TemporaryFolder()
        let missing = Self.refusal { _ = try ImageProbe.probe(file: folder.url.appendingPathComponent("gone.jpg")) }
        guard case .unreadable = missing else { Issue.record("\(String(describing: missing))"); return }
        let directory = Self.refusal { _ = try ImageProbe.probe(file: folder.url) }
        guard case .unreadable = directory else { Issue.record("\(String(describing: directory))"); return }
    }

    @Test("a format libvips reads only through a loader not accepted here (SVG, GIF) is not an image")
    func otherFormats() async throws {
        let folder = try TemporaryFolder()
        let svg = folder.url.appendingPathComponent("drawing.jpg")
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>"#.utf8).write(to: svg)
        #expect(Self.isNotAnImage(Self.refusal { try Self.ingest(svg) }))
        let gif = folder.url.appendingPathComponent("anim.gif")
        try await ExternalTool.run(["convert", "-size", "32x32", "xc:red", gif.path])
        #expect(Self.isNotAnImage(Self.refusal { try Self.ingest(gif) }))
    }
}
