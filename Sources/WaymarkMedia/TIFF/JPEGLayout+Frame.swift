import Foundation

extension JPEGLayout {
    /// The pixel size of the JPEG at `range` of `bytes`, read from its frame header, when it is a
    /// JPEG libjpeg-turbo decodes (baseline, extended or progressive Huffman); nil for lossless
    /// JPEG (a RAW file's sensor data), arithmetic coding, or bytes that are no JPEG.
    ///
    /// Only the marker segments before the frame header are read, never the image data.
    static func decodableFrame(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> (width: Int, height: Int)? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count >= 4,
              bytes[range.lowerBound] == 0xFF, bytes[range.lowerBound + 1] == 0xD8 else { return nil }
        var at = range.lowerBound + 2
        for _ in 0..<256 {
            while at + 1 < range.upperBound, bytes[at] == 0xFF, bytes[at + 1] == 0xFF { at += 1 }
            guard at + 4 <= range.upperBound, bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= range.upperBound else { return nil }
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard length >= 8 else { return nil }
                let height = Int(bytes[at + 5]) << 8 | Int(bytes[at + 6])
                let width = Int(bytes[at + 7]) << 8 | Int(bytes[at + 8])
                return width > 0 && height > 0 ? (width, height) : nil
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xDA, 0xD9:
                return nil  // lossless, hierarchical or arithmetic-coded, or image data before any frame
            default:
                at += 2 + length
            }
        }
        return nil
    }
}
