internal import CWaymarkMedia
import Foundation

/// A PDF drawn with cairo through the shim (waymark_pdf.h): pages in points (1/72 inch, the
/// origin at the top left, y downwards), UTF-8 text in DejaVu Sans with its measured width,
/// lines, rectangles, circles, polygons, and JPEGs embedded as their own bytes.
///
/// Drawing calls do not throw: cairo keeps its first error and ``finish()`` throws it. One thread
/// at a time; make one document per PDF. The document is released when the object goes.
public final class PDFDocument {
    /// An A4 page, portrait: 210 × 297 mm.
    public static let a4 = (width: 595.2756, height: 841.8898)

    /// An RGBA colour, each channel 0–1.
    public struct Colour: Sendable, Equatable {
        public var red: Double, green: Double, blue: Double, alpha: Double

        public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
            (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
        }

        /// `0xRRGGBB`, opaque or with `alpha`.
        public init(hex: UInt32, alpha: Double = 1) {
            self.init(red: Double(hex >> 16 & 0xFF) / 255, green: Double(hex >> 8 & 0xFF) / 255, blue: Double(hex & 0xFF) / 255, alpha: alpha)
        }

        public static let black = Colour(hex: 0x000000)
        public static let white = Colour(hex: 0xFFFFFF)
    }

    /// A point on the page, in points.
    public struct Point: Sendable, Equatable {
        public var x: Double, y: Double
        public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }
    }

    private let handle: OpaquePointer
    private var finished = false

    /// The page size every page has.
    public let width: Double, height: Double

    /// Starts a document whose pages are `width` × `height` points.
    public init(width: Double = PDFDocument.a4.width, height: Double = PDFDocument.a4.height) throws(PDFError) {
        var pdf: OpaquePointer?
        let (status, message) = Self.call { err, len in wm_pdf_create(width, height, &pdf, err, len) }
        guard status == 0, let pdf else { throw .drawing(reason: message) }
        handle = pdf
        self.width = width
        self.height = height
    }

    deinit { wm_pdf_free(handle) }

    /// The document's title in its metadata.
    public func setTitle(_ title: String) { wm_pdf_set_title(handle, title) }

    /// Ends this page and starts the next.
    public func newPage() { wm_pdf_new_page(handle) }

    /// The colour of what is drawn next.
    public func setColour(_ colour: Colour) { wm_pdf_set_colour(handle, colour.red, colour.green, colour.blue, colour.alpha) }

    /// The width of stroked lines in points, dashed (`dash` points on, as many off) or solid.
    public func setLine(width: Double, dash: Double = 0) { wm_pdf_set_line(handle, width, dash) }

    /// A straight line, stroked.
    public func line(from start: Point, to end: Point) { wm_pdf_line(handle, start.x, start.y, end.x, end.y) }

    /// A rectangle, filled or stroked.
    public func rectangle(x: Double, y: Double, width: Double, height: Double, fill: Bool) {
        wm_pdf_rectangle(handle, x, y, width, height, fill ? 1 : 0)
    }

    /// A circle, filled or stroked.
    public func circle(centre: Point, radius: Double, fill: Bool) { wm_pdf_circle(handle, centre.x, centre.y, radius, fill ? 1 : 0) }

    /// A closed polygon, filled or stroked.
    public func polygon(_ points: [Point], fill: Bool) {
        let xy = points.flatMap { [$0.x, $0.y] }
        xy.withUnsafeBufferPointer { wm_pdf_polygon(handle, $0.baseAddress, Int32(clamping: points.count), fill ? 1 : 0) }
    }

    /// The width in points that ``text(_:x:y:size:bold:)`` gives `text`.
    public func textWidth(_ text: String, size: Double, bold: Bool = false) -> Double {
        wm_pdf_text_width(handle, Self.printable(text), size, bold ? 1 : 0)
    }

    /// Draws one line of text with its baseline starting at (x, y). Control characters are left out.
    public func text(_ text: String, x: Double, y: Double, size: Double, bold: Bool = false) {
        wm_pdf_text(handle, x, y, Self.printable(text), size, bold ? 1 : 0)
    }

    /// Draws a JPEG into the box, stretched to it (keep the aspect by choosing the box), embedded
    /// as the JPEG's own bytes.
    public func jpeg(_ data: Data, x: Double, y: Double, width: Double, height: Double) throws(PDFError) {
        let handle = self.handle
        let (status, message) = Self.call { err, len in
            data.withUnsafeBytes { bytes in
                wm_pdf_jpeg(handle, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, x, y, width, height, err, len)
            }
        }
        switch status {
        case 0: return
        case Int32(WM_PDF_BAD_IMAGE): throw .badImage(reason: message)
        default: throw .drawing(reason: message)
        }
    }

    /// Ends the document and returns its bytes; nothing can be drawn afterwards.
    public func finish() throws(PDFError) -> Data {
        guard !finished else { throw .drawing(reason: "the document is finished already") }
        finished = true
        var buffer = wm_buffer()
        defer { wm_buffer_free(&buffer) }
        let handle = self.handle
        let (status, message) = Self.call { err, len in wm_pdf_finish(handle, &buffer, err, len) }
        guard status == 0, let bytes = buffer.data, buffer.size > 0 else { throw .drawing(reason: message) }
        return Data(bytes: bytes, count: buffer.size)
    }

    /// The text without control characters (cairo would draw them as missing glyphs).
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
    }

    /// Runs a shim call with an error buffer; returns its status and message.
    private static func call(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> (Int32, String) {
        var buffer = [CChar](repeating: 0, count: 512)
        let status: Int32 = buffer.withUnsafeMutableBufferPointer { err in
            guard let base = err.baseAddress else { return -1 }
            return body(base, err.count)
        }
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (status, message.isEmpty && status != 0 ? "cairo failed without a reason" : message)
    }
}
