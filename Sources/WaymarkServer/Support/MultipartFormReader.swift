import Crypto
import Foundation
import MultipartKit
import NIOCore

/// Why a `multipart/form-data` body could not be read.
enum MultipartProblem: Error, Equatable, Sendable {
    case notMultipart
    case malformed
    /// A file part over its limit, or the whole body over the form's.
    case tooLarge
    case fieldTooLong(String)
    /// More parts than ``MultipartFormLimits/maxParts``.
    case tooManyParts
}

/// What one form may hold (#34: an unnamed part of 400 MB was accepted, and 300 MB of small
/// fields were all kept in memory).
struct MultipartFormLimits: Sendable, Equatable {
    /// The whole body, framing included.
    var maxTotalBytes: Int
    /// Each file part.
    var maxFileBytes: Int
    /// Parts of any name, kept or skipped.
    var maxParts: Int = Self.defaultMaxParts

    /// A photo has eleven fields; a scene three parts.
    static let defaultMaxParts = 32
}

/// Reads a `multipart/form-data` body chunk by chunk, as it arrives, with MultipartKit's parser:
/// the parts named in `fileParts` are handed back for writing to disk while they are hashed
/// (never held whole in memory), the text parts named in `fieldLimits` are kept (each up to its
/// limit), and every other part is skipped unread. The first part of a name counts; a repeated
/// one is skipped. The whole body, each file and the number of parts are bounded
/// (``MultipartFormLimits``), and the first limit passed ends the reading.
///
/// One request's body is read by one task, in order. Free of Vapor, so that the libFuzzer
/// harness compiles this very file.
final class MultipartFormReader {
    let fileParts: Set<String>
    let fieldLimits: [String: Int]
    let limits: MultipartFormLimits

    /// The text parts asked for that came.
    private(set) var fields: [String: String] = [:]
    /// The client's name of each file part that came (only for messages; never a path).
    private(set) var filenames: [String: String] = [:]
    /// Lowercase hex SHA-256 of each file part that came, once it ended.
    private(set) var digests: [String: String] = [:]
    /// Bytes of each file part that came.
    private(set) var fileSizes: [String: Int] = [:]

    private let parser: MultipartParser
    private var problem: MultipartProblem?
    private var finished = false
    private var totalBytes = 0
    private var parts = 0
    private var name: String?
    /// The file part being read, when the current part is the first of its name.
    private var file: String?
    private var fieldBytes: [UInt8] = []
    private var hasher = SHA256()
    private var pending: [String: ByteBuffer] = [:]
    private var headerGuard: MultipartHeaderGuard

    /// A reader of the form whose `Content-Type` has this `boundary`.
    init(boundary: String, fileParts: Set<String>, fieldLimits: [String: Int], limits: MultipartFormLimits) throws(MultipartProblem) {
        guard !boundary.isEmpty, boundary.utf8.count <= 200 else { throw .notMultipart }
        self.fileParts = fileParts
        self.fieldLimits = fieldLimits
        self.limits = limits
        parser = MultipartParser(boundary: boundary)
        headerGuard = MultipartHeaderGuard(boundary: boundary)
        parser.onHeader = { [unowned self] name, value in header(name: name, value: value) }
        parser.onBody = { [unowned self] buffer in body(&buffer) }
        parser.onPartComplete = { [unowned self] in partComplete() }
    }

    /// The boundary of a `multipart/form-data` content type's parameters, or ``MultipartProblem/notMultipart``.
    static func boundary(type: String, subType: String, parameters: [String: String]) throws(MultipartProblem) -> String {
        guard type.lowercased() == "multipart", subType.lowercased() == "form-data", let boundary = parameters["boundary"] else {
            throw .notMultipart
        }
        return boundary
    }

    /// Reads the next chunk of the body; returns the file bytes it held, by part name, to be
    /// written before the next chunk is read.
    func read(_ chunk: ByteBuffer) throws(MultipartProblem) -> [String: ByteBuffer] {
        if let problem { throw problem }
        totalBytes += chunk.readableBytes
        guard totalBytes <= limits.maxTotalBytes else { throw fail(.tooLarge) }
        guard headerGuard.admits(chunk) else { throw fail(.malformed) }
        do {
            try parser.execute(chunk)
        } catch {
            throw fail(problem ?? .malformed)
        }
        if let problem { throw problem }
        defer { pending = [:] }
        return pending
    }

    /// Ends the reading: ``MultipartProblem/malformed`` unless at least one part was complete.
    func finish() throws(MultipartProblem) {
        if let problem { throw problem }
        guard finished else { throw fail(.malformed) }
    }

    private func fail(_ problem: MultipartProblem) -> MultipartProblem {
        if self.problem == nil { self.problem = problem }
        return self.problem ?? problem
    }

    private func header(name header: String, value: String) {
        guard problem == nil, header.lowercased() == "content-disposition" else { return }
        name = Self.parameter("name", in: value)
        if let name, fileParts.contains(name), digests[name] == nil, file == nil {
            file = name
            fileSizes[name] = 0
            hasher = SHA256()
            filenames[name] = Self.parameter("filename", in: value).map { ($0 as NSString).lastPathComponent }
        }
    }

    private func body(_ buffer: inout ByteBuffer) {
        guard problem == nil else { return }
        if let file {
            let size = (fileSizes[file] ?? 0) + buffer.readableBytes
            fileSizes[file] = size
            guard size <= limits.maxFileBytes else { _ = fail(.tooLarge); return }
            buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            pending[file, default: ByteBuffer()].writeBuffer(&buffer)
        } else if let name, let limit = fieldLimits[name], fields[name] == nil {
            fieldBytes += buffer.readableBytesView
            if fieldBytes.count > limit { _ = fail(.fieldTooLong(name)) }
        }
    }

    private func partComplete() {
        guard problem == nil else { return }
        parts += 1
        if parts > limits.maxParts { _ = fail(.tooManyParts); return }
        if let file {
            digests[file] = hasher.finalize().map { String(format: "%02x", $0) }.joined()
            self.file = nil
        } else if let name, fieldLimits[name] != nil, fields[name] == nil {
            fields[name] = String(decoding: fieldBytes, as: UTF8.self)
        }
        name = nil
        fieldBytes = []
        finished = true
    }

    /// `name="value"` from a Content-Disposition value.
    static func parameter(_ key: String, in value: String) -> String? {
        for part in value.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}

/// MultipartKit 4.7.1's parser traps on a byte of 0x80 or more in a part's header name (it looks
/// the byte up in a 128-entry table, MultipartParser.swift:316), so one such request, or a client
/// that ends its header lines with a bare LF before a UTF-8 value, would end the server. This
/// follows the parser's state over the same bytes, transition for transition (MultipartParser's
/// parsePreamble, parseHeaders, parseBody and parseBoundary), and refuses such a byte before the
/// parser reads it; what the parser refuses itself (a syntax error) it lets through, to be refused there.
struct MultipartHeaderGuard {
    private enum State {
        case preamble(Int)
        case preHeaders(lineFeedNext: Bool)
        case headerName(empty: Bool)
        case headerValue
        case postHeaderValue
        case postHeaders
        case body
        case boundary(Int)
        /// The epilogue, or a syntax error the parser throws: nothing after it is parsed.
        case done
    }

    private static let cr: UInt8 = 13, lf: UInt8 = 10, colon: UInt8 = 58, hyphen: UInt8 = 45
    /// The parser's delimiter, "\r\n--" and the boundary.
    private let delimiter: [UInt8]
    private var state = State.preamble(0)

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Whether the parser reads `chunk` without meeting a header-name byte of 0x80 or more.
    mutating func admits(_ chunk: ByteBuffer) -> Bool {
        chunk.withUnsafeReadableBytes { bytes in
            var at = 0
            while at < bytes.count {
                let byte = bytes[at]
                switch state {
                case .preamble(let matched):
                    let next = matched == 0 && byte == delimiter[2] ? 3
                        : byte == delimiter[matched] ? matched + 1
                        : matched > 0 && byte == delimiter[0] ? 1 : 0
                    state = next >= delimiter.count ? .preHeaders(lineFeedNext: false) : .preamble(next)
                case .preHeaders(let lineFeedNext):
                    if !lineFeedNext, byte == Self.cr { state = .preHeaders(lineFeedNext: true) }
                    else if lineFeedNext, byte == Self.lf { state = .headerName(empty: true) }
                    else { state = .done }
                case .headerName(let empty):
                    if byte == Self.colon, !empty { state = .headerValue }
                    else if byte == Self.cr, empty { state = .postHeaders }
                    else if byte >= 0x80 { return false }
                    else { state = .headerName(empty: false) }  // a byte it refuses makes it throw: harmless
                case .headerValue:
                    if byte == Self.cr { state = .postHeaderValue }
                case .postHeaderValue:
                    state = byte == Self.lf ? .headerName(empty: true) : .done
                case .postHeaders:
                    state = byte == Self.lf ? .body : .done
                case .body:
                    // Body bytes up to the delimiter's first byte (CR) are data; the CR is read again as the delimiter's.
                    guard let next = bytes[at...].firstIndex(of: delimiter[0]) else { return true }
                    at = next
                    state = .boundary(0)
                    continue
                case .boundary(let matched):
                    if matched >= delimiter.count {
                        state = byte == Self.cr ? .preHeaders(lineFeedNext: true) : .done  // "--" after it: the epilogue
                    } else if byte == delimiter[matched] {
                        state = .boundary(matched + 1)
                    } else {
                        state = byte == delimiter[0] ? .boundary(1) : .body
                    }
                case .done:
                    return true
                }
                at += 1
            }
            return true
        }
    }
}
