import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkMedia

/// The shim's PDF (cairo): a JPEG embedded as its own bytes, and a typed error — never a crash —
/// for every image it cannot decode and for a document used after it was finished.
@Suite("PDF documents through cairo")
struct PDFDocumentTests {
    /// The error `body` throws, recorded as an issue when it throws none.
    static func refusal(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> PDFError? {
        do {
            try body()
            Issue.record("accepted", sourceLocation: sourceLocation)
            return nil
        } catch let error as PDFError {
            return error
        } catch {
            Issue.record("\(error) is no PDFError", sourceLocation: sourceLocation)
            return nil
        }
    }

    static func isBadImage(_ error: PDFError?) -> Bool { if case .badImage = error { true } else { false } }

    @Test("A JPEG is embedded as the JPEG itself: its bytes are in the PDF")
    func jpegEmbedded() async throws {
        let folder = try TemporaryFolder()
        let jpeg = try await Data(contentsOf: ImageTestSupport.twoColourJPEG(in: folder, name: "two.jpg", width: 320, height: 200))
        let document = try PDFDocument()
        document.text("Grüße, Šentvid", x: 40, y: 60, size: 12, bold: true)
        #expect(document.textWidth("Grüße", size: 12) > 20)
        try document.jpeg(jpeg, x: 40, y: 80, width: 320, height: 200)
        let pdf = try document.finish()
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
        // The JPEG's entropy-coded data, byte for byte, inside the PDF: not re-encoded pixels.
        let scan = try #require(jpegImageData(jpeg))
        #expect(pdf.range(of: scan.prefix(4096)) != nil)
        #expect(pdf.count < jpeg.count + 40_000, "\(pdf.count) bytes for a \(jpeg.count)-byte JPEG and a line of text")
    }

    @Test("Bytes that are no JPEG, a truncated JPEG, a PNG and nothing are refused as bad images; the document is still written")
    func badImages() async throws {
        let folder = try TemporaryFolder()
        let jpeg = try await Data(contentsOf: ImageTestSupport.twoColourJPEG(in: folder, name: "two.jpg", width: 640, height: 480))
        let png = folder.url.appendingPathComponent("one.png")
        try await ExternalTool.run(["convert", "-size", "40x30", "xc:green", png.path])
        let document = try PDFDocument()
        for bad in [Data("not a photo at all".utf8), jpeg.prefix(jpeg.count / 2), try Data(contentsOf: png), Data(), Data(repeating: 0xFF, count: 4096)] {
            #expect(Self.isBadImage(Self.refusal { try document.jpeg(bad, x: 0, y: 0, width: 100, height: 100) }), "\(bad.prefix(8) as NSData)")
        }
        #expect(Self.refusal { try document.jpeg(jpeg, x: 0, y: 0, width: 0, height: 100) } != nil, "a box without a size")
        try document.jpeg(jpeg, x: 0, y: 0, width: 100, height: 75)
        #expect(try document.finish().starts(with: Data("%PDF-".utf8)))
        // Finished is finished: another finish and another image are errors, not crashes.
        if case .drawing = Self.refusal({ _ = try document.finish() }) {} else { Issue.record("a second finish was not refused") }
        #expect(Self.refusal { try document.jpeg(jpeg, x: 0, y: 0, width: 100, height: 75) } != nil)
        document.text("after the end", x: 10, y: 10, size: 10)
    }
}
