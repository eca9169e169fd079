import Foundation
import Testing
import WaymarkMedia
import WaymarkTestSupport

/// Test images made by ImageMagick and exiftool, and what exiftool and ImageMagick read back from derivatives.
enum ImageTestSupport {
    /// A JPEG made by ImageMagick: the left half red, the right half blue, so that a turn shows where the sides went.
    static func twoColourJPEG(in folder: TemporaryFolder, name: String, width: Int, height: Int,
                              orientation: Int? = nil, quality: Int = 90) async throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        try await ExternalTool.run(["convert", "-size", "\(width / 2)x\(height)", "xc:red", "-size", "\(width - width / 2)x\(height)", "xc:blue",
                              "+append", "-quality", "\(quality)", url.path])
        if let orientation {
            try await ExternalTool.run(["exiftool", "-q", "-overwrite_original", "-Orientation#=\(orientation)", url.path])
        }
        return url
    }

    /// The mean colour of the top and the bottom half of an image, as ImageMagick decodes it (0–255 per channel).
    static func topAndBottom(_ data: Data, in folder: TemporaryFolder) async throws -> (top: [Int], bottom: [Int]) {
        let colours = try await meanColours(data, geometry: "1x2!", in: folder)
        return (colours[0], colours[1])
    }

    /// The mean colour of the left and the right half of an image, as ImageMagick decodes it.
    static func leftAndRight(_ data: Data, in folder: TemporaryFolder) async throws -> (left: [Int], right: [Int]) {
        let colours = try await meanColours(data, geometry: "2x1!", in: folder)
        return (colours[0], colours[1])
    }

    /// The pixels of an image box-averaged by ImageMagick (-scale) to `geometry` (two pixels), in order.
    private static func meanColours(_ data: Data, geometry: String, in folder: TemporaryFolder) async throws -> [[Int]] {
        let url = folder.url.appendingPathComponent("colours-\(UUID().uuidString)")
        try data.write(to: url)
        let text = String(decoding: try await ExternalTool.run(["convert", url.path, "-scale", geometry, "-depth", "8", "txt:-"]), as: UTF8.self)
        // Lines such as "0,1: (255,0,0)  #FF0000  red"; the header line starts with "#".
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> [Int]? in
            guard let open = line.firstIndex(of: "("), let close = line[open...].firstIndex(of: ")") else { return nil }
            return line[line.index(after: open)..<close].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                .prefix(3).map { Int($0.rounded()) }
        }
        guard rows.count == 2 else { throw ImageTestError(description: "ImageMagick gave no two pixels: \(text)") }
        return rows
    }

    /// Red, as a half of red pixels averages after JPEG's colour blur at the border: far more red than green or blue.
    static func isRed(_ colour: [Int]) -> Bool { colour.count == 3 && colour[0] > 180 && colour[1] < 80 && colour[2] < 80 }
    /// Blue, likewise.
    static func isBlue(_ colour: [Int]) -> Bool { colour.count == 3 && colour[0] < 80 && colour[1] < 80 && colour[2] > 180 }

    /// The exiftool groups a bare JPEG has: one ImageMagick wrote with -strip.
    static func bareJPEGGroups(in folder: TemporaryFolder) async throws -> Set<String> {
        let url = folder.url.appendingPathComponent("bare.jpg")
        try await ExternalTool.run(["convert", "-size", "16x16", "xc:gray", "-strip", url.path])
        return Set(try await ExternalTool.exiftoolTags(url).keys.map(group))
    }

    /// The tags exiftool reads from a derivative that a bare file of its type would not have, and
    /// any tag that names a place, a camera or a serial number whatever its group.
    static func metadataLeaks(of derivative: ImageDerivative, in folder: TemporaryFolder, bareJPEGGroups: Set<String>) async throws -> [String] {
        let isJPEG = derivative.mimeType == "image/jpeg"
        let url = folder.url.appendingPathComponent("derivative-\(UUID().uuidString).\(isJPEG ? "jpg" : "webp")")
        try derivative.data.write(to: url)
        let tags = try await ExternalTool.exiftoolTags(url)
        #expect(tags["File:MIMEType"] == derivative.mimeType)
        let allowed = isJPEG ? bareJPEGGroups : ["SourceFile", "ExifTool", "System", "File", "RIFF", "Composite"]
        let telling = ["GPS", "Serial", "Make", "Model", "Orientation", "ICC", "Profile", "DateTime", "Date/Time", "Owner", "Artist", "Copyright"]
        return tags.keys.filter { key in
            let name = key.split(separator: ":").last.map(String.init) ?? key
            if key.hasPrefix("System:") { return false }   // the file system's dates and names of the copy
            return !allowed.contains(group(key)) || telling.contains { name.contains($0) }
        }.sorted()
    }

    /// "IFD0:Make" → "IFD0"; "SourceFile" → "SourceFile".
    static func group(_ key: String) -> String {
        key.split(separator: ":").first.map(String.init) ?? key
    }

    /// The size a derivative must have, from the upright size of its source.
    static func expectedSize(_ size: ImageDerivative.Size, width: Int, height: Int) -> (width: Int, height: Int) {
        switch size {
        case .square(let side):
            let square = min(side, width, height)
            return (square, square)
        case .longSide(let side):
            let long = max(width, height)
            guard long > side else { return (width, height) }
            let scale = Double(side) / Double(long)
            return width >= height ? (side, Int((Double(height) * scale).rounded())) : (Int((Double(width) * scale).rounded()), side)
        }
    }

    /// Bytes that look like nothing: a fixed-seed SplitMix64 stream, the same on every run.
    static func randomBytes(count: Int, seed: UInt64) -> Data {
        var state = seed
        var data = Data(capacity: count)
        while data.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z.littleEndian) { data.append(contentsOf: $0.prefix(count - data.count)) }
        }
        return data
    }

    /// The process's peak resident memory so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        #if os(Linux)
        return Int(usage.ru_maxrss) * 1024     // kilobytes on Linux
        #else
        return Int(usage.ru_maxrss)            // bytes on macOS
        #endif
    }

    /// A CRC-32 (ISO-HDLC, as PNG chunks use it).
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// A tool's output that the test could not understand.
struct ImageTestError: Error, CustomStringConvertible {
    var description: String
}
