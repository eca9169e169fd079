import WaymarkMedia

/// A QR code drawn with Unicode half blocks: each character cell holds two modules, one above the
/// other, so modules come out about square in a terminal whose cells are twice as tall as wide.
enum HalfBlocks {
    /// The code's lines, `scale` cells per module across (and half as many rows), with a light
    /// quiet zone. Dark modules are the foreground: draw them black on white.
    static func lines(_ image: QRImage, quietZone: Int = 2, scale: Int = 1) -> [String] {
        let side = (image.width + 2 * quietZone) * scale
        func dark(_ x: Int, _ y: Int) -> Bool {
            y < side && image.isDark(x: x / scale - quietZone, y: y / scale - quietZone)
        }
        return stride(from: 0, to: side, by: 2).map { row in
            String((0..<side).map { x -> Character in
                switch (dark(x, row), dark(x, row + 1)) {
                case (true, true): return "█"
                case (true, false): return "▀"
                case (false, true): return "▄"
                case (false, false): return " "
                }
            })
        }
    }

    /// The largest scale at which the code fits in `columns` × `rows` cells (at least 1).
    static func scale(for image: QRImage, quietZone: Int = 2, columns: Int, rows: Int) -> Int {
        let modules = image.width + 2 * quietZone
        var scale = 1
        while modules * (scale + 1) <= columns && (modules * (scale + 1) + 1) / 2 <= rows { scale += 1 }
        return scale
    }
}
