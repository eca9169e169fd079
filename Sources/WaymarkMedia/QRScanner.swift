internal import CWaymarkMedia
import Foundation
import WaymarkCore

/// Reads QR codes in photos with zxing-cpp, decoding JPEGs at reduced scale with libjpeg-turbo.
public struct QRScanner: Sendable {
    /// The longer side, in pixels, of the first (smallest) decode.
    public var firstLongSide: Int
    /// The largest decode tried; a photo where no code shows up to this size has none that can be read.
    public var maxLongSide: Int

    public init(firstLongSide: Int = 1024, maxLongSide: Int = 2048) {
        self.firstLongSide = firstLongSide
        self.maxLongSide = maxLongSide
    }

    /// What a search found: the texts of the codes read, and the work it took.
    public struct Result: Sendable, Equatable {
        public var texts: [String]
        /// How many scaled decodes were made.
        public var decodes: Int
        /// The size of the image the codes were read in (the last decode).
        public var decodedSize: (width: Int, height: Int)

        public static func == (a: Result, b: Result) -> Bool {
            a.texts == b.texts && a.decodes == b.decodes && a.decodedSize == b.decodedSize
        }
    }

    /// The texts of the QR codes in a JPEG. Throws when the JPEG cannot be decoded.
    public func scan(jpeg data: Data, file: String) throws -> Result {
        try scan(jpeg: data, file: file, waymarkOnly: false)
    }

    /// The texts of the QR codes in a JPEG; with `waymarkOnly`, the search goes on to larger scales
    /// until a Waymark time-sync code is read, so another app's large code does not hide a small one.
    func scan(jpeg data: Data, file: String, waymarkOnly: Bool) throws -> Result {
        var result = wm_qr_result()
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws in
            let base = bytes.bindMemory(to: UInt8.self).baseAddress
            try callShim(file: file) { err, len in
                if waymarkOnly {
                    wm_find_qr_accepting(base, bytes.count, Int32(firstLongSide), Int32(maxLongSide), { text, _ in
                        guard let text else { return 0 }
                        return QRPayload(String(cString: text)) != nil ? 1 : 0
                    }, nil, &result, err, len)
                } else {
                    wm_find_qr(base, bytes.count, Int32(firstLongSide), Int32(maxLongSide), &result, err, len)
                }
            }
        }
        return Self.result(&result)
    }

    /// The texts of the QR codes in an 8-bit greyscale image.
    public func scan(gray pixels: [UInt8], width: Int, height: Int) throws -> Result {
        precondition(pixels.count >= width * height, "the pixel buffer is smaller than width × height")
        var result = wm_qr_result()
        try pixels.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) throws in
            try callShim(file: "image") { err, len in
                wm_find_qr_gray(buffer.baseAddress, Int32(width), Int32(height), &result, err, len)
            }
        }
        return Self.result(&result)
    }

    private static func result(_ raw: inout wm_qr_result) -> Result {
        let count = Int(raw.count)
        var texts: [String] = []
        withUnsafeBytes(of: &raw.texts) { all in
            let stride = Int(WM_QR_MAX_TEXT)
            for index in 0..<count {
                let slice = all[(index * stride)..<((index + 1) * stride)]
                texts.append(String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self))
            }
        }
        return Result(texts: texts, decodes: Int(raw.decodes), decodedSize: (Int(raw.decoded_width), Int(raw.decoded_height)))
    }
}
