import Crypto
import Foundation
import NIOCore

/// The fuzz readers of what a client sends the server that the server reads byte by byte:
/// `multipart` (a photo upload's `multipart/form-data` body, ``MultipartFormReader``) and
/// `cursor` (a page cursor, ``CursorSeal``). Each traps (`precondition`) when a promise of the
/// reader breaks, so that a violation is a crash libFuzzer keeps.
public enum ServerFuzz {
    // MARK: multipart

    public static let boundary = "----fuzzBoundary"
    static let limits = MultipartFormLimits(maxTotalBytes: 65_536, maxFileBytes: 16_384, maxParts: 32)
    static let fileParts: Set<String> = ["photo", "feetShot"]
    static let fieldLimits = ["title": 64, "latitude": 32, "longitude": 32, "visibility": 16]

    /// The chunks a body arrives in: the input's first byte says how many (1–3), the next two
    /// where the body after those three bytes is cut (a fraction of its length, in 255ths).
    /// Shorter inputs are one chunk, whole.
    public static func chunks(_ input: Data) -> [Data] {
        let bytes = [UInt8](input)
        guard bytes.count >= 3 else { return [Data(bytes)] }
        let body = Array(bytes[3...])
        let cuts = bytes[1..<3].prefix(Int(bytes[0]) % 3).map { Int($0) * body.count / 255 }.sorted()
        var pieces: [Data] = []
        var start = 0
        for cut in cuts + [body.count] {
            pieces.append(Data(body[start..<cut]))
            start = cut
        }
        return pieces
    }

    /// Feeds the body in its chunks with `read(_:)`, then `finish()`, as ``MultipartUpload`` does.
    ///
    /// Whatever the body: no field is kept that was not asked for or is over its limit, no file
    /// part hands out more than `maxFileBytes`, no more parts are kept than `maxParts`. When
    /// the reading succeeds, the body was within `maxTotalBytes` and each completed file's
    /// digest and size are those of exactly the bytes handed out for it.
    public static func multipart(_ input: Data) {
        let reader: MultipartFormReader
        do {
            reader = try MultipartFormReader(boundary: boundary, fileParts: fileParts, fieldLimits: fieldLimits, limits: limits)
        } catch {
            preconditionFailure("the fixed boundary is refused: \(error)")
        }
        let pieces = chunks(input)
        var handedOut: [String: [UInt8]] = [:]
        var succeeded = true
        for piece in pieces {
            do {
                for (name, buffer) in try reader.read(ByteBuffer(bytes: piece)) {
                    precondition(fileParts.contains(name), "bytes handed out for \(name), not a file part")
                    handedOut[name, default: []] += buffer.readableBytesView
                    precondition(handedOut[name, default: []].count <= limits.maxFileBytes, "\(name): more than maxFileBytes handed out")
                }
            } catch {
                succeeded = false
                break
            }
        }
        if succeeded {
            do { try reader.finish() } catch { succeeded = false }
        }
        for (name, value) in reader.fields {
            guard let limit = fieldLimits[name] else { preconditionFailure("the field \(name) was kept, though not asked for") }
            // Each byte read becomes at most one scalar (invalid UTF-8 becomes U+FFFD).
            precondition(value.unicodeScalars.count <= limit, "the field \(name) kept \(value.unicodeScalars.count) > \(limit)")
        }
        precondition(Set(reader.digests.keys).isSubset(of: fileParts) && Set(reader.filenames.keys).isSubset(of: fileParts))
        precondition(reader.fields.count + reader.digests.count <= limits.maxParts, "more parts kept than maxParts")
        for (name, size) in reader.fileSizes where reader.digests[name] != nil {
            precondition(size <= limits.maxFileBytes, "the completed file \(name) has \(size) bytes")
        }
        guard succeeded else { return }
        precondition(pieces.reduce(0) { $0 + $1.count } <= limits.maxTotalBytes, "a body over maxTotalBytes was read")
        for (name, digest) in reader.digests {
            let bytes = handedOut[name] ?? []
            let expected = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            precondition(digest == expected, "the digest of \(name) is not that of the \(bytes.count) bytes handed out")
            precondition(reader.fileSizes[name] == bytes.count, "the size of \(name) is not that of the bytes handed out")
        }
    }

    // MARK: cursor

    /// A nearby search's cursor position: the shape of NearbyCursor (WaymarkServer/Photos/Photo.swift).
    struct Position: Codable, Equatable {
        var distance: Double
        var capturedAt: Double
        var id: UUID
    }

    static let seal = CursorSeal(key: SymmetricKey(data: Data((0..<32).map { UInt8($0) &* 37 &+ 11 })))
    public static let binding = "nearby-photos|46.05|14.5|1609.344|distance|-|-"

    /// The input as a cursor a client sends: never a crash, and it opens only if the seal made
    /// exactly that text. Then a position made from the input's bytes (two doubles, a UUID, the
    /// rest the list's binding) opens again from its text for that binding and no other, and no
    /// text one character away from it opens.
    public static func cursor(_ input: Data) {
        let text = String(decoding: input, as: UTF8.self)
        if let opened = seal.open(Position.self, from: text, binding: binding) {
            precondition(seal.text(opened, binding: binding) == text, "\(text) opened, but the seal writes it otherwise")
        }
        _ = seal.open(Position.self, from: text, binding: "")

        let bytes = [UInt8](input)
        guard bytes.count >= 34 else { return }
        func double(_ at: Int) -> Double { Double(bitPattern: bytes[at..<(at + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
        let u = Array(bytes[16..<32])
        let id = UUID(uuid: (u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]))
        let position = Position(distance: double(0), capturedAt: double(8), id: id)
        let list = String(decoding: bytes[34...], as: UTF8.self)
        let sealed = seal.text(position, binding: list)
        let reopened = seal.open(Position.self, from: sealed, binding: list)
        if position.distance.isFinite && position.capturedAt.isFinite {
            precondition(reopened == position, "\(position) sealed for \(list.debugDescription) opens as \(String(describing: reopened))")
        } else {
            precondition(reopened == nil, "a position JSON cannot hold opened: \(String(describing: reopened))")
        }
        precondition(seal.open(Position.self, from: sealed, binding: list + "|") == nil, "a cursor opened for another list")
        precondition(seal.open(Position.self, from: sealed, binding: binding == list ? "" : binding) == nil, "a cursor opened for another list")

        var characters = Array(sealed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ")
        let at = Int(bytes[32]) % characters.count
        var replacement = alphabet[Int(bytes[33]) % alphabet.count]
        if replacement == characters[at] { replacement = alphabet[(Int(bytes[33]) + 1) % alphabet.count] }
        characters[at] = replacement
        let changed = String(characters)
        precondition(seal.open(Position.self, from: changed, binding: list) == nil,
                     "\(changed) opened: one character (\(at)) away from \(sealed)")
    }

    /// Seeds: well-formed forms (a photo with its fields; repeated names; an unknown part and a
    /// file name with a path; a field over its limit; a preamble and the close) in 1–3 chunks,
    /// and cursors the seal made, a forged one (#34's negative distance) and raw positions.
    public static func seeds() -> [(reader: String, name: String, data: Data)] {
        func part(_ name: String, filename: String? = nil, type: String? = nil, _ body: [UInt8]) -> [UInt8] {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
            if let filename { head += "; filename=\"\(filename)\"" }
            if let type { head += "\r\nContent-Type: \(type)" }
            return Array((head + "\r\n\r\n").utf8) + body + Array("\r\n".utf8)
        }
        let close = Array("--\(boundary)--\r\n".utf8)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xD9]
        let photo = part("photo", filename: "IMG_0001.JPG", type: "image/jpeg", jpeg + [UInt8](repeating: 0x5A, count: 300))
        let forms: [(String, [UInt8], [UInt8])] = [
            ("photo.form", [0, 0, 0], part("title", Array("Triglav from Kredarica".utf8)) + part("latitude", Array("46.3789".utf8))
                + part("longitude", Array("13.8361".utf8)) + photo + part("visibility", Array("public".utf8)) + close),
            ("chunked.form", [2, 60, 200], photo + part("title", Array("Vršič".utf8)) + close),
            ("repeated.form", [1, 128, 0], part("title", Array("first".utf8)) + part("title", Array("second".utf8)) + photo + photo + close),
            ("unknown.form", [2, 10, 250], part("comment", Array(String(repeating: "x", count: 200).utf8))
                + part("feetShot", filename: "../../etc/passwd", type: "application/octet-stream", jpeg) + part("latitude", Array("-0.5".utf8)) + close),
            ("too-long.form", [0, 0, 0], part("title", Array(String(repeating: "é", count: 40).utf8)) + close),
            ("preamble.form", [1, 5, 0], Array("preamble\r\n".utf8) + part("visibility", Array("private".utf8)) + close + Array("epilogue".utf8)),
        ]
        var seeds = forms.map { (reader: "multipart", name: $0.0, data: Data($0.1 + $0.2)) }

        let id = UUID(uuidString: "6F0E3C2A-9B1D-4E55-8A7C-2D4B6E8F0A13") ?? UUID()
        let positions = [Position(distance: 0, capturedAt: 1_717_236_000, id: id),
                         Position(distance: 1_234.567, capturedAt: 1_717_236_000.125, id: id),
                         Position(distance: 1_609.344, capturedAt: -1e9, id: id)]
        for (index, position) in positions.enumerated() {
            seeds.append(("cursor", "sealed-\(index).txt", Data(seal.text(position, binding: binding).utf8)))
        }
        let forged = Data(#"{"distance":-1000,"capturedAt":0,"id":"6F0E3C2A-9B1D-4E55-8A7C-2D4B6E8F0A13"}"#.utf8)
        seeds.append(("cursor", "forged.txt", Data(CursorSeal.base64URL(forged).utf8)))
        seeds.append(("cursor", "forged-tag.txt", Data((CursorSeal.base64URL(forged) + "." + CursorSeal.base64URL(Data(count: 16))).utf8)))
        func raw(_ position: Position, _ list: String, _ at: UInt8, _ with: UInt8) -> Data {
            var bytes: [UInt8] = []
            for value in [position.distance, position.capturedAt] { bytes += (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (56 - 8 * UInt64($0))) } }
            bytes += withUnsafeBytes(of: position.id.uuid) { Array($0) }
            return Data(bytes + [at, with] + Array(list.utf8))
        }
        seeds.append(("cursor", "position-1.bin", raw(positions[1], binding, 20, 3)))
        seeds.append(("cursor", "position-2.bin", raw(positions[2], "nearby-scenes|46.05|14.5|500.0", 200, 60)))
        return seeds
    }
}
