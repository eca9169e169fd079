import Crypto
import Foundation
import NIOCore
import Testing
@testable import WaymarkServer

/// Every input that once crashed the `multipart` or `cursor` reader of `make fuzz` (scripts/fuzz
/// copies them to `FuzzRegressions/<reader>/`), replayed as the harness reads it
/// (Fuzz/Sources/WaymarkServerReaders/ServerFuzz.swift): the same boundary, limits, chunking,
/// cursor key and binding, and the same promises, here as expectations.
@Suite("Inputs that once crashed the multipart or cursor reader")
struct ServerFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzRegressions")
    static let readers = ["multipart", "cursor"]

    static let boundary = "----fuzzBoundary"
    static let limits = MultipartFormLimits(maxTotalBytes: 65_536, maxFileBytes: 16_384, maxParts: 32)
    static let fileParts: Set<String> = ["photo", "feetShot"]
    static let fieldLimits = ["title": 64, "latitude": 32, "longitude": 32, "visibility": 16]

    struct Position: Codable, Equatable {
        var distance: Double
        var capturedAt: Double
        var id: UUID
    }

    static let seal = CursorSeal(key: SymmetricKey(data: Data((0..<32).map { UInt8($0) &* 37 &+ 11 })))
    static let binding = "nearby-photos|46.05|14.5|1609.344|distance|-|-"

    static func inputs() -> [String] {
        readers.flatMap { reader in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(reader).path)) ?? [])
                .filter { !$0.hasPrefix(".") }.sorted().map { "\(reader)/\($0)" }
        }
    }

    /// The harness's chunking: the first byte says how many chunks (1–3), the next two where the rest is cut.
    static func chunks(_ input: Data) -> [Data] {
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

    /// Reads a form as the harness does; returns the reader when the whole body was read.
    @discardableResult
    static func replayMultipart(_ input: Data) throws -> MultipartFormReader? {
        let reader = try MultipartFormReader(boundary: boundary, fileParts: fileParts, fieldLimits: fieldLimits, limits: limits)
        var handedOut: [String: [UInt8]] = [:]
        var succeeded = true
        for piece in chunks(input) {
            do {
                for (name, buffer) in try reader.read(ByteBuffer(bytes: piece)) {
                    #expect(fileParts.contains(name))
                    handedOut[name, default: []] += buffer.readableBytesView
                    #expect(handedOut[name, default: []].count <= limits.maxFileBytes)
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
            #expect(value.unicodeScalars.count <= fieldLimits[name] ?? -1, "field \(name)")
        }
        #expect(reader.fields.count + reader.digests.count <= limits.maxParts)
        guard succeeded else { return nil }
        for (name, digest) in reader.digests {
            let bytes = handedOut[name] ?? []
            #expect(digest == SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined(), "digest of \(name)")
            #expect(reader.fileSizes[name] == bytes.count)
        }
        return reader
    }

    /// Reads a cursor as the harness does: the text as sent, then the round trip of a position made from its bytes.
    static func replayCursor(_ input: Data) {
        let text = String(decoding: input, as: UTF8.self)
        if let opened = seal.open(Position.self, from: text, binding: binding) {
            #expect(seal.text(opened, binding: binding) == text)
        }
        let bytes = [UInt8](input)
        guard bytes.count >= 34 else { return }
        func double(_ at: Int) -> Double { Double(bitPattern: bytes[at..<(at + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
        let u = Array(bytes[16..<32])
        let id = UUID(uuid: (u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]))
        let position = Position(distance: double(0), capturedAt: double(8), id: id)
        let list = String(decoding: bytes[34...], as: UTF8.self)
        let sealed = seal.text(position, binding: list)
        let reopened = seal.open(Position.self, from: sealed, binding: list)
        if position.distance.isFinite && position.capturedAt.isFinite { #expect(reopened == position) } else { #expect(reopened == nil) }
        #expect(seal.open(Position.self, from: sealed, binding: list + "|") == nil)
        var characters = Array(sealed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ")
        let at = Int(bytes[32]) % characters.count
        var replacement = alphabet[Int(bytes[33]) % alphabet.count]
        if replacement == characters[at] { replacement = alphabet[(Int(bytes[33]) + 1) % alphabet.count] }
        characters[at] = replacement
        #expect(seal.open(Position.self, from: String(characters), binding: list) == nil, "one character (\(at)) away from \(sealed)")
    }

    @Test("each reader has its folder; a well-formed form and a sealed cursor read through the replay")
    func foldersAndSeeds() throws {
        for reader in Self.readers {
            #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent(reader).path), "FuzzRegressions/\(reader)")
        }
        let photo = [UInt8](repeating: 0xAB, count: 1_000)
        let form = Array("""
            --\(Self.boundary)\r
            Content-Disposition: form-data; name="title"\r
            \r
            Triglav\r
            --\(Self.boundary)\r
            Content-Disposition: form-data; name="photo"; filename="dir/IMG_1.JPG"\r
            \r

            """.utf8) + photo + Array("\r\n--\(Self.boundary)--\r\n".utf8)
        // Three chunks, cut at about a third and two thirds of the body.
        let reader = try #require(try Self.replayMultipart(Data([2, 85, 170] + form)))
        #expect(reader.fields == ["title": "Triglav"])
        #expect(reader.fileSizes["photo"] == photo.count)
        #expect(reader.filenames["photo"] == "IMG_1.JPG")
        #expect(reader.digests["photo"] == SHA256.hash(data: photo).map { String(format: "%02x", $0) }.joined())

        // A UTF-8 file name is a header value and reads; a non-ASCII byte in a header name (here after
        // a header line ended by a bare LF, whose next line is then a header name) is refused, where
        // MultipartKit 4.7.1's parser alone traps (MultipartHeaderGuard).
        let utf8Name = Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"Vršič.jpg\"\r\n\r\n".utf8)
            + photo + Array("\r\n--\(Self.boundary)--\r\n".utf8)
        #expect(try Self.replayMultipart(Data([0, 0, 0] + utf8Name))?.filenames["photo"] == "Vršič.jpg")
        for header in ["é: x", "Content-Disposition: form-data; name=\"title\"\n\n\r\néé"] {
            let form = Array("--\(Self.boundary)\r\n\(header)\r\n\r\nbody\r\n--\(Self.boundary)--\r\n".utf8)
            #expect(try Self.replayMultipart(Data([0, 0, 0] + form)) == nil, "\(header.debugDescription)")
            #expect(try Self.replayMultipart(Data([2, 30, 31] + form)) == nil, "\(header.debugDescription), in three chunks")
        }

        let position = Position(distance: 12.5, capturedAt: 1_717_236_000.125, id: UUID())
        let text = Self.seal.text(position, binding: Self.binding)
        #expect(Self.seal.open(Position.self, from: text, binding: Self.binding) == position)
        Self.replayCursor(Data(text.utf8))
        // Every one-character change of a sealed cursor is refused, the last character of each part too.
        for at in [0, text.count / 2, (text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? 1) - 1, text.count - 1] {
            for replacement in Array("AQgw-_9z") {
                var characters = Array(text)
                guard characters[at] != replacement else { continue }
                characters[at] = replacement
                #expect(Self.seal.open(Position.self, from: String(characters), binding: Self.binding) == nil, "\(String(characters))")
            }
        }
    }

    @Test("each input is read or refused, never a crash; every promise of the reader holds", arguments: inputs())
    func replaysWithoutCrash(input: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(input))
        if input.hasPrefix("multipart/") { try Self.replayMultipart(data) } else { Self.replayCursor(data) }
    }
}
