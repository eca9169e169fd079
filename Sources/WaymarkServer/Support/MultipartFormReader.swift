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

    /// A reader of the form whose `Content-Type` has this `boundary`.
    init(boundary: String, fileParts: Set<String>, fieldLimits: [String: Int], limits: MultipartFormLimits) throws(MultipartProblem) {
        guard !boundary.isEmpty, boundary.utf8.count <= 200 else { throw .notMultipart }
        self.fileParts = fileParts
        self.fieldLimits = fieldLimits
        self.limits = limits
        parser = MultipartParser(boundary: boundary)
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
