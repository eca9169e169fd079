import Foundation

/// Why an ISO-BMFF file (CR3, HEIF/HEIC) could not be read. The description says what is wrong.
enum BMFFError: Error, Equatable, CustomStringConvertible {
    case truncated(String)
    case outOfBounds(String)
    case tooManyBoxes(String)
    case tooDeep
    case unsupported(String)
    case missing(String)

    var description: String {
        switch self {
        case .truncated(let what): "the file ends inside \(what)"
        case .outOfBounds(let what): "\(what) points outside the file or its parent box"
        case .tooManyBoxes(let what): "\(what) holds more boxes or items than any camera writes"
        case .tooDeep: "its boxes are nested deeper than any camera writes them"
        case .unsupported(let what): what
        case .missing(let what): "it has no \(what)"
        }
    }
}

/// One ISO-BMFF box: its type, where it starts and where its payload is (offsets of the file).
struct BMFFBox: Sendable, Equatable {
    /// The four-character type, e.g. "moov".
    var type: String
    /// Offset of the box header.
    var start: Int
    /// The payload: after the size, type, 64-bit size and uuid fields, up to the box's end.
    var payload: Range<Int>
    /// The 16-byte extended type of a `uuid` box.
    var uuid: [UInt8]?

    var end: Int { payload.upperBound }
}

/// Bounds-checked big-endian reads and box lists over the bytes of one ISO-BMFF file.
///
/// Every box must lie inside its parent (the file, for top-level boxes): 32-bit sizes, 64-bit
/// sizes (`size == 1`) and "to the end of the parent" (`size == 0`) are checked before use, a box
/// is at least as large as its own header, and lists and nesting are bounded, so a hostile file
/// can neither read out of bounds nor make the walk expensive.
struct BMFFReader {
    /// More boxes in one container than any camera file has.
    static let maxBoxesPerContainer = 10_000
    /// Deeper than any box Waymark reads (CR3: moov → uuid → CMT1; HEIF: meta → iinf → infe).
    static let maxDepth = 8

    let bytes: UnsafeRawBufferPointer

    var whole: Range<Int> { 0..<bytes.count }

    func u8(at offset: Int, in range: Range<Int>, _ what: @autoclosure () -> String) throws(BMFFError) -> UInt8 {
        UInt8(try number(at: offset, size: 1, in: range, what))
    }

    func u16(at offset: Int, in range: Range<Int>, _ what: @autoclosure () -> String) throws(BMFFError) -> UInt16 {
        UInt16(try number(at: offset, size: 2, in: range, what))
    }

    func u32(at offset: Int, in range: Range<Int>, _ what: @autoclosure () -> String) throws(BMFFError) -> UInt32 {
        UInt32(try number(at: offset, size: 4, in: range, what))
    }

    /// A big-endian unsigned number of 0, 1, 2, 4 or 8 bytes at `offset`, which must lie in `range`.
    func number(at offset: Int, size: Int, in range: Range<Int>, _ what: () -> String) throws(BMFFError) -> UInt64 {
        guard offset >= range.lowerBound, offset <= range.upperBound, size <= range.upperBound - offset,
              range.upperBound <= bytes.count else { throw .truncated(what()) }
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }

    /// The four characters at `offset` (a box type or a brand), non-ASCII bytes shown as "?".
    func fourCC(at offset: Int, in range: Range<Int>, _ what: @autoclosure () -> String) throws(BMFFError) -> String {
        let code = try u32(at: offset, in: range, what())
        return Self.fourCC(code)
    }

    static func fourCC(_ code: UInt32) -> String {
        var text = ""
        for shift: UInt32 in [24, 16, 8, 0] {
            let byte = UInt8(truncatingIfNeeded: code >> shift)
            text.append(byte >= 0x20 && byte <= 0x7E ? Character(Unicode.Scalar(byte)) : "?")
        }
        return text
    }

    /// The boxes that fill `range` (a file or a container's payload), in order.
    func boxes(in range: Range<Int>, depth: Int, container: String) throws(BMFFError) -> [BMFFBox] {
        guard depth <= Self.maxDepth else { throw .tooDeep }
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { throw .outOfBounds("the \(container) box") }
        var boxes: [BMFFBox] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard boxes.count < Self.maxBoxesPerContainer else { throw .tooManyBoxes("the \(container) box") }
            boxes.append(try box(at: offset, in: range, container: container))
            offset = boxes[boxes.count - 1].end
        }
        return boxes
    }

    /// The box whose header starts at `offset` inside `parent`.
    func box(at offset: Int, in parent: Range<Int>, container: String) throws(BMFFError) -> BMFFBox {
        let what = "a box header in the \(container) box"
        let size32 = try u32(at: offset, in: parent, what)
        let type = try fourCC(at: offset + 4, in: parent, what)
        var header = 8
        let available = parent.upperBound - offset
        let size: Int
        switch size32 {
        case 0:
            size = available
        case 1:
            let size64 = try number(at: offset + 8, size: 8, in: parent, { "the 64-bit size of the \(type) box" })
            header = 16
            guard size64 <= UInt64(available) else { throw .outOfBounds("the size of the \(type) box (\(size64) bytes)") }
            size = Int(size64)
        default:
            guard Int(size32) <= available else { throw .outOfBounds("the size of the \(type) box (\(size32) bytes)") }
            size = Int(size32)
        }
        var uuid: [UInt8]?
        if type == "uuid" {
            guard header + 16 <= available else { throw .truncated("the uuid of a box in the \(container) box") }
            uuid = Array(bytes[(offset + header)..<(offset + header + 16)])
            header += 16
        }
        guard size >= header else { throw .outOfBounds("the \(type) box, \(size) bytes, smaller than its own header,") }
        return BMFFBox(type: type, start: offset, payload: (offset + header)..<(offset + size), uuid: uuid)
    }

    /// The first child of `boxes` of the given type.
    static func first(_ type: String, in boxes: [BMFFBox]) -> BMFFBox? {
        boxes.first { $0.type == type }
    }
}
