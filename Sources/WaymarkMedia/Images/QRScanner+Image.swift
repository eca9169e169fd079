import Foundation

extension QRScanner {
    /// The texts of every QR code in an image of a format Waymark accepts, found from its bytes:
    /// a JPEG is decoded at reduced scale by libjpeg-turbo (``scan(jpeg:file:)``); PNG, WebP,
    /// HEIF/HEIC and TIFF by libvips to greyscale, first with the longer side at ``firstLongSide``,
    /// then at ``maxLongSide`` when that found nothing; a camera RAW file's largest JPEG preview.
    /// Any QR code is read, not only Waymark's time-sync codes (e.g. a vault's login code).
    ///
    /// Blocking: call it on a thread pool.
    /// - Parameter pixelLimit: the most pixels (width × height) accepted, checked from the header.
    /// - Returns: the texts in the order found; empty when the image shows no readable code.
    /// - Throws: ``ImageError/notAnImage(reason:)`` for bytes that are no such image,
    ///   ``ImageError/rawWithoutPreview(mimeType:)``, ``ImageError/broken(reason:)`` when its
    ///   pixels cannot be decoded, ``ImageError/tooManyPixels(width:height:limit:)``, and
    ///   ``ImageError/unreadable(reason:)`` when libvips cannot start.
    public func scan(image data: Data, pixelLimit: Int = ImageProbe.defaultPixelLimit) throws(ImageError) -> [String] {
        let probe = try ImageProbe.probe(data: data, pixelLimit: pixelLimit)
        switch (probe.format, probe.source) {
        case (.jpeg, _):
            return try scanJPEG(data)
        case (.raw, .memory(let preview)):
            return try scanJPEG(preview)
        default:
            let longSide = max(probe.width, probe.height)
            var texts: [String] = []
            for side in [firstLongSide, maxLongSide] where side > 0 {
                let image = try VipsShim.gray(data, maxLongSide: side, pixelLimit: pixelLimit)
                do {
                    texts = try scan(gray: image.pixels, width: image.width, height: image.height).texts
                } catch {
                    throw .unreadable(reason: "\(error)")
                }
                if !texts.isEmpty || longSide <= side { break }
            }
            return texts
        }
    }

    private func scanJPEG(_ jpeg: Data) throws(ImageError) -> [String] {
        do {
            return try scan(jpeg: jpeg, file: "image").texts
        } catch {
            throw .broken(reason: "\(error)")
        }
    }
}
