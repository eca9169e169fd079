import Foundation

extension ExternalTool {
    /// A plain QR code (qrencode, level Q) centred on white, as a JPEG (ImageMagick) of exactly
    /// `width` × `height` pixels — a camera's thumbnail or preview of a photo of the code.
    public static func makeQRJPEG(_ url: URL, payload: String, width: Int, height: Int, quality: Int = 90) async throws {
        let png = url.deletingPathExtension().appendingPathExtension("qr.png")
        defer { try? FileManager.default.removeItem(at: png) }
        try await run(["qrencode", "-l", "Q", "-s", "8", "-m", "4", "-o", png.path, payload])
        let side = min(width, height)
        try await run([imageMagick, png.path, "-resize", "\(side)x\(side)", "-background", "white", "-gravity", "center",
                 "-extent", "\(width)x\(height)", "-quality", "\(quality)", url.path])
    }

    /// Replaces a photo's embedded image with exiftool, e.g. `PreviewImage` of a CR2 or DNG, or a
    /// JPEG's `ThumbnailImage`.
    public static func embed(_ image: URL, as tag: String, into photo: URL) async throws {
        try await run(["exiftool", "-q", "-overwrite_original", "-\(tag)<=\(image.path)", photo.path])
    }

    /// ImageMagick's command: `magick` (7) when installed, else `convert` (6).
    public static var imageMagick: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let hasMagick = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/magick") }
        return hasMagick ? "magick" : "convert"
    }
}

/// Canon CR3 files made for tests: exiftool cannot replace a CR3's preview, so this rewrites the
/// top-level preview box (uuid eaf42b5e-…) around a new PRVW JPEG. The boxes after it move, so the
/// file's sensor data offsets no longer hold — only readers of the metadata and previews may use it.
public enum CR3Fixture {
    static let previewUUID: [UInt8] = [0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16]

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The CR3 `file` with its PRVW box holding `jpeg` (`width` × `height` pixels).
    public static func withPreview(_ file: Data, jpeg: Data, width: Int, height: Int) throws -> Data {
        let bytes = [UInt8](file)
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var at = 0
        while at + 24 <= bytes.count {
            let size = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, at + size <= bytes.count else { throw Failure(description: "box at \(at) has size \(size)") }
            if Array(bytes[(at + 4)..<(at + 8)]) == Array("uuid".utf8), Array(bytes[(at + 8)..<(at + 24)]) == previewUUID {
                // PRVW: 4 bytes, 2 (1), width, height (2 each), 2 (1), the JPEG length (4), the JPEG.
                let prvwPayload: [UInt8] = u32(0) + u16(1) + u16(width) + u16(height) + u16(1) + u32(jpeg.count) + [UInt8](jpeg)
                let prvw = u32(8 + prvwPayload.count) + Array("PRVW".utf8) + prvwPayload
                let payload: [UInt8] = previewUUID + u32(0) + u32(1) + prvw
                let box = u32(8 + payload.count) + Array("uuid".utf8) + payload
                return Data(bytes[..<at] + box + bytes[(at + size)...])
            }
            at += size
        }
        throw Failure(description: "no preview box (uuid eaf42b5e-…) at the top level")
    }
}
