import Foundation

/// Why a PDF could not be drawn.
public enum PDFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JPEG to embed cannot be decoded: not a JPEG, damaged, CMYK, or far too large. Nothing was drawn for it.
    case badImage(reason: String)
    /// cairo failed (out of memory, a font that cannot be loaded, a text that is no UTF-8): the reason is cairo's.
    case drawing(reason: String)

    public var description: String {
        switch self {
        case .badImage(let reason): "the photo cannot be put into the PDF: \(reason)"
        case .drawing(let reason): "the PDF cannot be drawn: \(reason)"
        }
    }
}
