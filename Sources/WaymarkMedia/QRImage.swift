internal import CWaymarkMedia
import Foundation

/// A QR code's modules, encoded with libqrencode at error-correction level Q (DESIGN §3.1).
///
/// The recorder draws it on screen; the core only makes the payload text.
public struct QRImage: Sendable, Equatable {
    /// Modules per side, without the quiet zone.
    public let width: Int
    /// `width × width` modules, row by row; true for dark.
    public let modules: [Bool]

    /// Encodes `text` in the smallest QR version that holds it at level Q.
    /// - Throws: ``MediaError`` when the text does not fit in a QR code.
    public init(encoding text: String) throws {
        var buffer = wm_buffer()
        defer { wm_buffer_free(&buffer) }
        var side: Int32 = 0
        try callShim(file: "QR code") { err, len in wm_encode_qr(text, &buffer, &side, err, len) }
        guard let data = buffer.data else { throw MediaError(file: "QR code", message: "libqrencode returned no modules") }
        width = Int(side)
        modules = UnsafeBufferPointer(start: data, count: buffer.size).map { $0 != 0 }
    }

    /// Whether the module at column `x`, row `y` is dark; modules outside the code (the quiet zone) are light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard (0..<width).contains(x), (0..<width).contains(y) else { return false }
        return modules[y * width + x]
    }
}

extension QRImage {
    /// The code as a binary PGM image (netpbm P5: 8-bit grey), `moduleSize` pixels per module with
    /// a `quietZone` of light modules round it: any image viewer and QR reader opens it.
    public func pgm(moduleSize: Int = 8, quietZone: Int = 4) -> Data {
        let side = (width + 2 * quietZone) * moduleSize
        var data = Data("P5\n\(side) \(side)\n255\n".utf8)
        data.reserveCapacity(data.count + side * side)
        for y in 0..<side {
            let row = y / moduleSize - quietZone
            for x in 0..<side {
                let column = x / moduleSize - quietZone
                data.append(isDark(x: column, y: row) ? 0 : 255)
            }
        }
        return data
    }
}
