import Foundation

/// Why an image was refused, or its derivative could not be made.
///
/// Each case is one thing a caller answers differently: bytes that are no image at all
/// (``notAnImage(reason:)``), an image that is damaged (``broken(reason:)``), an image too large to
/// decode safely (``tooManyPixels(width:height:limit:)``), and a failure that is not the image's
/// fault (``unreadable(reason:)``). The reasons are libvips's or the shim's words, for a log.
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are no image in an accepted format: JPEG, PNG, WebP, HEIF/HEIC/AVIF, TIFF, or a
    /// camera RAW file with an embedded JPEG preview of at least
    /// ``ImageProbe/minimumPreviewSide`` pixels. Text, random bytes and empty files are this, however they are named.
    case notAnImage(reason: String)
    /// A camera RAW file (its MIME type) without an embedded JPEG preview of at least
    /// ``ImageProbe/minimumPreviewSide`` pixels: libvips does not decode sensor data.
    case rawWithoutPreview(mimeType: String)
    /// An accepted format whose header or pixels cannot be decoded: truncated, or corrupt.
    case broken(reason: String)
    /// The header says `width` × `height`, more pixels than `limit`: refused before any pixel is decoded.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The file cannot be opened or read, or libvips cannot start: nothing is known about the image.
    case unreadable(reason: String)

    public var description: String {
        switch self {
        case .notAnImage(let reason):
            "not an image Waymark accepts (JPEG, PNG, WebP, HEIC, TIFF, or a RAW file with a JPEG preview): \(reason)"
        case .rawWithoutPreview(let mimeType):
            "a camera RAW file (\(mimeType)) without an embedded JPEG preview of at least \(ImageProbe.minimumPreviewSide) pixels; "
                + "sensor data is not decoded — upload a JPEG made from it"
        case .broken(let reason):
            "the image is damaged or incomplete — upload the whole file again: \(reason)"
        case .tooManyPixels(let width, let height, let limit):
            "the image has \(width) × \(height) pixels, more than the \(limit) allowed — scale it down first"
        case .unreadable(let reason):
            "the image cannot be read: \(reason)"
        }
    }
}
