internal import CWaymarkMedia
import Foundation

/// Why a HEIF/HEIC image could not be decoded.
enum HEIFImageError: Error, Equatable, CustomStringConvertible {
    /// A thumbnail was asked for and the primary image has none; decode the image itself instead.
    case noThumbnail
    /// libheif could not decode the file; the message is libheif's.
    case decoding(String)

    var description: String {
        switch self {
        case .noThumbnail: "the HEIF image has no thumbnail"
        case .decoding(let message): "\(message) (is it a HEIF/HEIC image, and complete?)"
        }
    }
}

/// HEIF/HEIC pixels for the QR search, decoded by libheif (HEVC through libde265) in the shim.
enum HEIFImage {
    /// The luma of the primary image (or its thumbnail) of the HEIF file in `bytes`, 8 bits per
    /// pixel, shrunk by whole-number box filtering until its longer side is at most `maxLongSide`
    /// (when it is positive).
    ///
    /// - Throws: ``HEIFImageError/noThumbnail`` when `thumbnail` is set and there is none;
    ///   ``HEIFImageError/decoding(_:)`` when libheif cannot decode the file.
    static func gray(_ bytes: UnsafeRawBufferPointer, thumbnail: Bool, maxLongSide: Int) throws -> (pixels: [UInt8], width: Int, height: Int) {
        var image = wm_gray_image()
        defer { wm_gray_image_free(&image) }
        var message = [CChar](repeating: 0, count: 512)
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let limit = Int32(clamping: maxLongSide)
        let status = message.withUnsafeMutableBufferPointer { err in
            wm_heif_decode_gray(base, bytes.count, thumbnail ? 1 : 0, limit, &image, err.baseAddress, err.count)
        }
        if status == Int32(WM_HEIF_NO_THUMBNAIL) { throw HEIFImageError.noThumbnail }
        guard status == 0 else {
            let text = message.withUnsafeBufferPointer { buffer in
                String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            throw HEIFImageError.decoding(text.isEmpty ? "libheif failed without a reason" : text)
        }
        let width = Int(image.width), height = Int(image.height)
        guard let pixels = image.pixels, width > 0, height > 0 else { throw HEIFImageError.decoding("libheif returned an empty image") }
        return (Array(UnsafeBufferPointer(start: pixels, count: width * height)), width, height)
    }
}
