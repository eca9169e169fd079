import Foundation

/// The formats of images Waymark accepts; a photo's type is found from its bytes, never its name.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case webp
    /// HEIF: HEIC (HEVC), AVIF and plain HEIF, decoded by libheif.
    case heif
    case tiff
    /// A camera RAW file (NEF, CR2, CR3, ARW, ORF, RW2, DNG, …): its derivatives are made from its
    /// largest embedded JPEG preview; libvips does not decode sensor data.
    case raw
}

/// What an image file is, read from its header without decoding a pixel; it makes the image's
/// derivatives (``derivative(_:encoding:)``).
///
/// This is the content check of an upload: ``probe(file:pixelLimit:)`` refuses what is no image
/// (``ImageError/notAnImage(reason:)``), a damaged header (``ImageError/broken(reason:)``) and an
/// image of more pixels than the limit (``ImageError/tooManyPixels(width:height:limit:)``) — a
/// 30,000 × 30,000 “decompression bomb” is refused from its header, before anything is allocated
/// for its pixels. A truncated image whose header is whole passes the probe and fails when a
/// derivative is made, which decodes every pixel.
///
/// Probing and making derivatives block (file I/O and libvips): a server calls them on a thread
/// pool (NIOThreadPool), never on an event loop or the cooperative pool. Any number may run at once.
public struct ImageProbe: Sendable, Equatable {
    /// The format found from the bytes.
    public var format: ImageFormat
    /// The MIME type of the file: `image/jpeg`, `image/png`, `image/webp`, `image/heic`,
    /// `image/heif`, `image/avif`, `image/tiff`, or a RAW file's (`image/x-canon-cr2`, …; `image/x-raw` when unknown).
    public var mimeType: String
    /// The libvips loader that reads the pixels, e.g. `jpegload`; for a RAW file, `jpegload_buffer` (its preview).
    public var loader: String
    /// The width in pixels as stored, before ``orientation`` is applied; for a RAW file, its preview's.
    public var width: Int
    /// The height in pixels as stored, before ``orientation`` is applied; for a RAW file, its preview's.
    public var height: Int
    /// The EXIF orientation the derivatives apply, 1–8 (1: already upright; 6: turned 90° clockwise).
    public var orientation: Int
    /// The pixel limit the probe checked, checked again by every derivative.
    public var pixelLimit: Int

    /// Where the derivatives' pixels come from.
    let source: VipsShim.Input
    /// An orientation the derivatives apply instead of the image's own (a RAW file's, for its preview).
    let orientationOverride: Int?

    /// The width as displayed, with ``orientation`` applied.
    public var displayWidth: Int { orientation >= 5 ? height : width }
    /// The height as displayed, with ``orientation`` applied.
    public var displayHeight: Int { orientation >= 5 ? width : height }

    /// The server's limit: 100 megapixels.
    public static let defaultPixelLimit = 100_000_000
    /// A RAW file's embedded JPEG preview must be at least this long on its longer side to stand for the photo.
    public static let minimumPreviewSide = 256

    /// Probes the image file at `url` (an upload streamed to a temporary file: libvips reads the
    /// header from disk, so a large file is never held in memory).
    ///
    /// Blocking: call it on a thread pool.
    /// - Parameter pixelLimit: the most pixels (width × height) accepted; 0 or less: no limit.
    /// - Throws: ``ImageError``.
    public static func probe(file url: URL, pixelLimit: Int = defaultPixelLimit) throws(ImageError) -> ImageProbe {
        try probe(.file(url), name: url.lastPathComponent, pixelLimit: pixelLimit)
    }

    /// Probes an image held in memory; see ``probe(file:pixelLimit:)``.
    public static func probe(data: Data, pixelLimit: Int = defaultPixelLimit) throws(ImageError) -> ImageProbe {
        try probe(.memory(data), name: "image", pixelLimit: pixelLimit)
    }

    private static func probe(_ input: VipsShim.Input, name: String, pixelLimit: Int) throws(ImageError) -> ImageProbe {
        let (header, status, message) = VipsShim.probe(input, pixelLimit: pixelLimit)
        let refusal = status == 0 ? nil
            : VipsShim.error(status: status, message: message, width: header.width, height: header.height, pixelLimit: pixelLimit)
        if case .unreadable = refusal { throw refusal ?? .unreadable(reason: message) }
        // A TIFF may be a camera RAW whose first directory is only a thumbnail, and what libvips
        // cannot read may be a RAW with a JPEG preview.
        var mayBeRAW = header.format == .tiff
        if case .notAnImage = refusal { mayBeRAW = true }
        if mayBeRAW, let raw = try RAWPreview.find(in: input, name: name, libvips: status == 0 ? header : nil, pixelLimit: pixelLimit) {
            return raw
        }
        if let refusal { throw refusal }
        guard let format = header.format else { throw .unreadable(reason: "libvips named no format") }
        return ImageProbe(format: format, mimeType: mimeType(of: format, input: input), loader: header.loader,
                          width: header.width, height: header.height, orientation: (1...8).contains(header.orientation) ? header.orientation : 1,
                          pixelLimit: pixelLimit, source: input, orientationOverride: nil)
    }

    /// The MIME type of a format libvips reads; HEIF's from the brands of its `ftyp` box.
    private static func mimeType(of format: ImageFormat, input: VipsShim.Input) -> String {
        switch format {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        case .tiff: return "image/tiff"
        case .raw: return "image/x-raw"
        case .heif:
            let start: Data
            switch input {
            case .memory(let data): start = data.prefix(64)
            case .file(let url): start = (try? FileHandle(forReadingFrom: url)).flatMap { handle in
                defer { try? handle.close() }
                return try? handle.read(upToCount: 64)
            } ?? Data()
            }
            let brands = stride(from: 8, to: start.count - 3, by: 4).map {
                String(decoding: start[(start.startIndex + $0)..<(start.startIndex + $0 + 4)], as: UTF8.self)
            }
            if brands.first == "avif" || brands.first == "avis" { return "image/avif" }
            if brands.contains(where: { ["heic", "heix", "heim", "heis"].contains($0) }) { return "image/heic" }
            return brands.contains("avif") ? "image/avif" : "image/heif"
        }
    }

    /// Makes one derivative: shrunk on load to `size` (never enlarged), upright, converted to sRGB,
    /// every metadata tag stripped (no EXIF, GPS, XMP, IPTC, serial numbers or ICC profile), encoded
    /// as `encoding`. Every pixel is decoded, so a truncated or corrupt image fails here.
    ///
    /// Blocking: call it on a thread pool.
    /// - Throws: ``ImageError/broken(reason:)`` when the pixels cannot be decoded; the probe's other
    ///   errors when the file changed since it was probed.
    public func derivative(_ size: ImageDerivative.Size, encoding: ImageDerivative.Encoding = .jpeg()) throws(ImageError) -> ImageDerivative {
        guard size.side > 0 else { throw .unreadable(reason: "a derivative of \(size.side) pixels was asked for") }
        return try VipsShim.derive(source, size: size, encoding: encoding, pixelLimit: pixelLimit, orientation: orientationOverride)
    }
}
