import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

/// RAW files, which libvips does not decode, stand for their photo through their largest embedded JPEG preview.
@Suite("Image derivatives of RAW files through their embedded preview")
struct ImageRAWTests {
    /// A copy of a fixture RAW file with a JPEG preview (left half red, right half blue) written into it by exiftool.
    static func rawWithPreview(_ fixture: String, in folder: TemporaryFolder, width: Int = 640, height: Int = 480,
                               orientation: Int? = nil) async throws -> URL {
        let preview = try await ImageTestSupport.twoColourJPEG(in: folder, name: "preview-\(width).jpg", width: width, height: height)
        let url = try folder.copy(fixture: "photos/\(fixture)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        // Each format keeps its preview under another tag; exiftool refuses the ones a format has not.
        for tag in ["PreviewImage", "JpgFromRaw"] {
            try await ExternalTool.run(["exiftool", "-q", "-q", "-m", "-overwrite_original", "-\(tag)<=\(preview.path)", url.path], allowFailure: true)
        }
        if let orientation {
            try await ExternalTool.run(["exiftool", "-q", "-q", "-m", "-overwrite_original", "-IFD0:Orientation#=\(orientation)", url.path])
        }
        return url
    }

    @Test("a RAW file with a 640 × 480 JPEG preview gets its derivatives from it, never enlarged, stripped",
          arguments: ["CanonRaw.cr2", "Panasonic.rw2", "DNG.dng"])
    func preview(_ fixture: String) async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.rawWithPreview(fixture, in: folder)
        let probe = try ImageProbe.probe(file: url)
        #expect(probe.format == .raw)
        #expect(probe.mimeType.hasPrefix("image/x-"), "\(probe.mimeType)")
        #expect(probe.width == 640 && probe.height == 480 && probe.orientation == 1)
        let bare = try await ImageTestSupport.bareJPEGGroups(in: folder)
        let expected: [(ImageDerivative.Size, Int, Int)] = [(.thumb, 256, 256), (.medium, 640, 480), (.large, 640, 480)]
        for (size, width, height) in expected {
            let derivative = try probe.derivative(size)
            #expect(derivative.width == width && derivative.height == height, "\(size) of \(fixture)")
            let leaks = try await ImageTestSupport.metadataLeaks(of: derivative, in: folder, bareJPEGGroups: bare)
            #expect(leaks.isEmpty, "\(size) of \(fixture) still carries \(leaks)")
        }
        let halves = try await ImageTestSupport.leftAndRight(try probe.derivative(.medium).data, in: folder)
        #expect(ImageTestSupport.isRed(halves.left) && ImageTestSupport.isBlue(halves.right), "\(halves)")
        // The bytes in memory are probed the same way.
        let fromMemory = try ImageProbe.probe(data: try Data(contentsOf: url))
        #expect(fromMemory.format == .raw && fromMemory.width == 640 && fromMemory.height == 480)
    }

    @Test("the RAW file's orientation turns its preview upright: Orientation 6 makes a 480 × 640 portrait, left side on top")
    func orientation() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.rawWithPreview("CanonRaw.cr2", in: folder, orientation: 6)
        #expect(try PhotoMetadata.read(contentsOf: url).orientation == 6)
        let probe = try ImageProbe.probe(file: url)
        #expect(probe.format == .raw && probe.orientation == 6 && probe.displayWidth == 480 && probe.displayHeight == 640)
        let medium = try probe.derivative(.medium)
        #expect(medium.width == 480 && medium.height == 640)
        let colours = try await ImageTestSupport.topAndBottom(medium.data, in: folder)
        #expect(ImageTestSupport.isRed(colours.top) && ImageTestSupport.isBlue(colours.bottom), "\(colours)")
    }

    @Test("a RAW file whose only JPEG preview is under 256 pixels is not an image Waymark can show")
    func smallPreview() async throws {
        let folder = try TemporaryFolder()
        let url = try await Self.rawWithPreview("CanonRaw.cr2", in: folder, width: 200, height: 150)
        do {
            let probe = try ImageProbe.probe(file: url)
            Issue.record("accepted as \(probe.format) \(probe.width) × \(probe.height)")
        } catch {
            guard case .rawWithoutPreview(let mimeType) = error else { Issue.record("\(error)"); return }
            #expect(mimeType == "image/x-canon-cr2")
            #expect(error.description.contains("256"))
        }
    }
}
