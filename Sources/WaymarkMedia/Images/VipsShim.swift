internal import CWaymarkMedia
import Foundation

/// The shim's libvips functions (waymark_vips.h), with their return codes turned into ``ImageError``s.
enum VipsShim {
    /// Where the bytes are: a file (read by libvips itself, shrink-on-load from disk) or memory.
    enum Input: Sendable, Equatable {
        case file(URL)
        case memory(Data)
    }

    /// What the shim's probe read, whatever it returned: the header's size comes with a refusal for too many pixels.
    struct Header {
        var format: ImageFormat?
        var loader: String
        var width: Int
        var height: Int
        var orientation: Int
    }

    /// Reads the header of `input`; `status` is 0 or one of the shim's codes, with its message.
    static func probe(_ input: Input, pixelLimit: Int) -> (header: Header, status: Int32, message: String) {
        var probe = wm_vips_probe()
        let (status, message) = call(input) { path, data, count, err, len in
            if let path { return wm_vips_probe_file(path, Int64(pixelLimit), &probe, err, len) }
            return wm_vips_probe_memory(data, count, Int64(pixelLimit), &probe, err, len)
        }
        let header = Header(format: ImageFormat(shimFormat: probe.format), loader: field(&probe.loader) ?? "",
                            width: Int(probe.width), height: Int(probe.height), orientation: Int(probe.orientation))
        return (header, status, message)
    }

    /// Encodes a derivative of `input`.
    static func derive(_ input: Input, size: ImageDerivative.Size, encoding: ImageDerivative.Encoding,
                       pixelLimit: Int, orientation: Int?) throws(ImageError) -> ImageDerivative {
        var options = wm_vips_derive_options()
        switch size {
        case .square(let side): (options.size, options.square) = (Int32(clamping: side), 1)
        case .longSide(let side): (options.size, options.square) = (Int32(clamping: side), 0)
        }
        switch encoding {
        case .jpeg(let quality): (options.encoding, options.quality) = (Int32(WM_VIPS_ENCODE_JPEG.rawValue), Int32(clamping: quality))
        case .webp(let quality): (options.encoding, options.quality) = (Int32(WM_VIPS_ENCODE_WEBP.rawValue), Int32(clamping: quality))
        }
        options.max_pixels = Int64(pixelLimit)
        options.orientation = Int32(orientation ?? 0)
        var image = wm_vips_image()
        defer { wm_vips_image_free(&image) }
        let (status, message) = call(input) { path, data, count, err, len in
            if let path { return wm_vips_derive_file(path, &options, &image, err, len) }
            return wm_vips_derive_memory(data, count, &options, &image, err, len)
        }
        guard status == 0 else {
            // The shim fills no size with a refusal of a derivative; the probe has it.
            throw error(status: status, message: message, width: 0, height: 0, pixelLimit: pixelLimit)
        }
        guard let bytes = image.data, image.size > 0 else { throw .broken(reason: "libvips encoded nothing") }
        return ImageDerivative(data: Data(bytes: bytes, count: image.size), width: Int(image.width), height: Int(image.height),
                               encoding: encoding)
    }

    /// Decodes an image held in memory to 8-bit greyscale, its longer side at most `maxLongSide` (never enlarged).
    static func gray(_ data: Data, maxLongSide: Int, pixelLimit: Int) throws(ImageError) -> (pixels: [UInt8], width: Int, height: Int) {
        var image = wm_vips_image()
        defer { wm_vips_image_free(&image) }
        let (status, message) = call(.memory(data)) { _, bytes, count, err, len in
            wm_vips_load_gray(bytes, count, Int32(clamping: maxLongSide), Int64(pixelLimit), &image, err, len)
        }
        guard status == 0 else {
            // A refusal for too many pixels names no size here; the probe before it has it.
            throw error(status: status, message: message, width: 0, height: 0, pixelLimit: pixelLimit)
        }
        let width = Int(image.width), height = Int(image.height)
        guard let bytes = image.data, width > 0, height > 0, image.size == width * height else {
            throw .broken(reason: "libvips decoded no grey pixels")
        }
        return (Array(UnsafeBufferPointer(start: bytes, count: image.size)), width, height)
    }

    /// The error for one of the shim's non-zero return codes.
    static func error(status: Int32, message: String, width: Int, height: Int, pixelLimit: Int) -> ImageError {
        switch status {
        case Int32(WM_VIPS_NOT_IMAGE): .notAnImage(reason: message)
        case Int32(WM_VIPS_BROKEN): .broken(reason: message)
        case Int32(WM_VIPS_TOO_MANY_PIXELS): .tooManyPixels(width: width, height: height, limit: pixelLimit)
        default: .unreadable(reason: message)
        }
    }

    /// Runs a shim call with the input as a path or as bytes, and an error buffer.
    private static func call(_ input: Input,
                             _ body: (UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<CChar>, Int) -> Int32) -> (Int32, String) {
        var buffer = [CChar](repeating: 0, count: 512)
        let status: Int32 = buffer.withUnsafeMutableBufferPointer { err in
            guard let errBase = err.baseAddress else { return -1 }
            switch input {
            case .file(let url):
                return url.withUnsafeFileSystemRepresentation { path in
                    guard let path else { return -1 }
                    return body(path, nil, 0, errBase, err.count)
                }
            case .memory(let data):
                return data.withUnsafeBytes { bytes in
                    body(nil, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, errBase, err.count)
                }
            }
        }
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (status, message.isEmpty && status != 0 ? "libvips failed without a reason" : message)
    }
}

extension ImageFormat {
    /// The format of a wm_vips_format value; nil for 0 (not known).
    init?(shimFormat: Int32) {
        switch UInt32(bitPattern: shimFormat) {
        case WM_VIPS_FORMAT_JPEG.rawValue: self = .jpeg
        case WM_VIPS_FORMAT_PNG.rawValue: self = .png
        case WM_VIPS_FORMAT_WEBP.rawValue: self = .webp
        case WM_VIPS_FORMAT_HEIF.rawValue: self = .heif
        case WM_VIPS_FORMAT_TIFF.rawValue: self = .tiff
        default: return nil
        }
    }
}
