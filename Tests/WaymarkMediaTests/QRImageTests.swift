import Foundation
import Testing
import WaymarkMedia

@Suite("QR image encoding")
struct QRImageTests {
    /// Draws the modules as a greyscale picture, `scale` pixels per module with a 4-module quiet zone.
    private func picture(_ image: QRImage, scale: Int) -> (pixels: [UInt8], side: Int) {
        let side = (image.width + 8) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<side {
            for x in 0..<side where image.isDark(x: x / scale - 4, y: y / scale - 4) {
                pixels[y * side + x] = 0
            }
        }
        return (pixels, side)
    }

    @Test("a recorder payload encodes at level Q and reads back with zxing-cpp")
    func roundTrip() throws {
        let payload = "1564650590-2OANEZK7Q1XD"
        let image = try QRImage(encoding: payload)
        // 23 alphanumeric characters fit version 2 (25 modules) at level Q; 8-bit mode would need version 3.
        #expect(image.width == 25)
        let (pixels, side) = picture(image, scale: 4)
        let result = try QRScanner().scan(gray: pixels, width: side, height: side)
        #expect(result.texts == [payload])
    }

    @Test("a text too long for any QR code is refused with a reason")
    func tooLong() {
        let text = String(repeating: "x", count: 5000)
        #expect(throws: MediaError.self) { try QRImage(encoding: text) }
    }
}
