#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Why a JPEG's layout was refused for editing in place.
enum JPEGLayoutError: Error, Equatable, CustomStringConvertible {
    case notJPEG
    case badSegment(offset: Int)
    case noImage
    case noEndOfImage

    var description: String {
        switch self {
        case .notJPEG: "it does not start with a JPEG SOI marker"
        case .badSegment(let offset): "its marker segment at byte \(offset) is damaged"
        case .noImage: "it has no image data (no SOS marker)"
        case .noEndOfImage: "its image data has no end marker (the file looks truncated)"
        }
    }
}

/// The marker segments of a JPEG up to its image data, and where its primary image ends.
struct JPEGLayout: Equatable {
    struct Segment: Equatable {
        /// 0xE1 for APP1 and so on.
        var marker: UInt8
        /// Offset of the segment's 0xFF.
        var start: Int
        /// The payload, after the 2-byte length.
        var payload: Range<Int>
        var end: Int { payload.upperBound }
    }

    /// The segments from SOI up to and including the first SOS.
    var segments: [Segment]
    /// The offset just after the primary image's EOI marker; anything after it is a trailer.
    var imageEnd: Int

    static let exifSignature: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let mpfSignature: [UInt8] = Array("MPF".utf8) + [0]

    /// The first APP1 segment that holds Exif ("Exif\0\0" then a TIFF header).
    func exifSegment(in bytes: UnsafeRawBufferPointer) -> Segment? {
        segments.first { $0.marker == 0xE1 && Self.starts(bytes, $0.payload, with: Self.exifSignature) }
    }

    /// The APP2 segment of a Multi-Picture Format file (extra images after the primary's EOI).
    func mpfSegment(in bytes: UnsafeRawBufferPointer) -> Segment? {
        segments.first { $0.marker == 0xE2 && Self.starts(bytes, $0.payload, with: Self.mpfSignature) }
    }

    static func starts(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, with prefix: [UInt8]) -> Bool {
        range.count >= prefix.count && prefix.indices.allSatisfy { bytes[range.lowerBound + $0] == prefix[$0] }
    }

    /// Walks the segments of a JPEG and finds the end of its primary image, checking every length.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JPEGLayout {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw JPEGLayoutError.notJPEG }
        var segments: [Segment] = []
        var position = 2
        while true {
            let (marker, at) = try nextMarker(bytes, from: position)
            if marker == 0xD9 { throw JPEGLayoutError.noImage }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { position = at + 2; continue }
            let segment = try segment(bytes, marker: marker, at: at)
            segments.append(segment)
            position = segment.end
            if marker == 0xDA { break }
        }
        return JPEGLayout(segments: segments, imageEnd: try endOfImage(bytes, from: position))
    }

    /// The marker at `position` (after any fill bytes) and the offset of its 0xFF.
    private static func nextMarker(_ bytes: UnsafeRawBufferPointer, from position: Int) throws -> (UInt8, Int) {
        guard position < bytes.count, bytes[position] == 0xFF else { throw JPEGLayoutError.badSegment(offset: position) }
        var at = position
        while at + 1 < bytes.count, bytes[at + 1] == 0xFF { at += 1 }
        guard at + 1 < bytes.count else { throw JPEGLayoutError.badSegment(offset: position) }
        return (bytes[at + 1], at)
    }

    private static func segment(_ bytes: UnsafeRawBufferPointer, marker: UInt8, at: Int) throws -> Segment {
        guard at + 4 <= bytes.count else { throw JPEGLayoutError.badSegment(offset: at) }
        let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        guard length >= 2, at + 2 + length <= bytes.count else { throw JPEGLayoutError.badSegment(offset: at) }
        return Segment(marker: marker, start: at, payload: (at + 4)..<(at + 2 + length))
    }

    /// Scans entropy-coded data (and, in progressive files, the segments between scans) for EOI.
    private static func endOfImage(_ bytes: UnsafeRawBufferPointer, from start: Int) throws -> Int {
        guard let base = bytes.baseAddress else { throw JPEGLayoutError.noEndOfImage }
        var position = start
        while position < bytes.count {
            guard let found = memchr(base + position, 0xFF, bytes.count - position) else { break }
            var at = base.distance(to: UnsafeRawPointer(found))
            while at + 1 < bytes.count, bytes[at + 1] == 0xFF { at += 1 }
            guard at + 1 < bytes.count else { break }
            let marker = bytes[at + 1]
            switch marker {
            case 0x00, 0xD0...0xD7:
                position = at + 2  // stuffed byte or restart marker: still image data
            case 0xD9:
                return at + 2
            default:
                position = try segment(bytes, marker: marker, at: at).end  // DHT, DQT, SOS … between scans
            }
        }
        throw JPEGLayoutError.noEndOfImage
    }
}
