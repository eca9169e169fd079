import Crypto
import Foundation
import MultipartKit
import NIOCore
import NIOPosix
import Vapor

/// A `multipart/form-data` upload read as it arrives: the file part streamed to a temporary file
/// while it is hashed (never held whole in memory), the other parts kept as short text fields.
struct MultipartUpload: Sendable {
    /// The file part, on disk.
    struct File: Sendable {
        var url: URL
        var bytes: Int
        /// Lowercase hex SHA-256 of the bytes.
        var sha256: String
        /// The name the client gave it, if any (only for messages; never a path).
        var filename: String?
    }

    var file: File?
    var fields: [String: String]

    /// Why a body could not be read.
    enum Problem: Error, Equatable {
        case notMultipart
        case malformed
        case tooLarge
        case fieldTooLong(String)
    }

    /// Reads `request`'s body, writing the part named `filePart` to `temporary`.
    ///
    /// - Parameters:
    ///   - maxFileBytes: The largest file accepted; more is ``Problem/tooLarge`` as soon as it is seen.
    static func read(_ request: Request, filePart: String, into temporary: URL, maxFileBytes: Int,
                     maxFieldBytes: Int = 4_096) async throws -> MultipartUpload {
        guard let type = request.headers.contentType, type.type == "multipart", type.subType == "form-data",
              let boundary = type.parameters["boundary"], !boundary.isEmpty, boundary.utf8.count <= 200
        else { throw Problem.notMultipart }

        let parser = MultipartParser(boundary: boundary)
        let state = ParseState(filePart: filePart, maxFileBytes: maxFileBytes, maxFieldBytes: maxFieldBytes)
        parser.onHeader = { name, value in state.header(name: name, value: value) }
        parser.onBody = { buffer in state.body(&buffer) }
        parser.onPartComplete = { state.partComplete() }

        let handle = try NIOFileHandle(path: temporary.path, mode: .write, flags: .allowFileCreation())
        defer { try? handle.close() }
        let io = request.application.fileio
        var written = 0
        do {
            for try await chunk in request.body {
                do {
                    try parser.execute(chunk)
                } catch {
                    throw Problem.malformed
                }
                if let problem = state.problem { throw problem }
                // What the parser handed over for the file, written before the next chunk is read.
                var pending = state.takePendingFile()
                if pending.readableBytes > 0 {
                    written += pending.readableBytes
                    try await io.write(fileHandle: handle, buffer: pending, eventLoop: request.eventLoop).get()
                    pending.clear()
                }
            }
        } catch let error as Problem {
            throw error
        } catch let error as any AbortError where error.status == .payloadTooLarge {
            throw Problem.tooLarge
        }
        guard state.finished else { throw Problem.malformed }
        var file: File?
        if let digest = state.digest {
            file = File(url: temporary, bytes: written, sha256: digest, filename: state.filename)
        }
        return MultipartUpload(file: file, fields: state.fields)
    }
}

/// The parser's callbacks write here; one request's body is read by one task, in order.
private final class ParseState: @unchecked Sendable {
    let filePart: String
    let maxFileBytes: Int
    let maxFieldBytes: Int

    var fields: [String: String] = [:]
    var filename: String?
    var digest: String?
    var problem: MultipartUpload.Problem?
    var finished = false

    private var name: String?
    private var fileBytes = 0
    private var fieldBytes: [UInt8] = []
    private var hasher = SHA256()
    private var inFile = false
    private var pending = ByteBuffer()

    init(filePart: String, maxFileBytes: Int, maxFieldBytes: Int) {
        self.filePart = filePart
        self.maxFileBytes = maxFileBytes
        self.maxFieldBytes = maxFieldBytes
    }

    func header(name header: String, value: String) {
        guard header.lowercased() == "content-disposition" else { return }
        name = Self.parameter("name", in: value)
        if name == filePart {
            inFile = digest == nil  // only the first part of that name is the file
            filename = Self.parameter("filename", in: value).map { ($0 as NSString).lastPathComponent }
        }
    }

    func body(_ buffer: inout ByteBuffer) {
        guard problem == nil else { return }
        if inFile {
            fileBytes += buffer.readableBytes
            guard fileBytes <= maxFileBytes else { problem = .tooLarge; return }
            buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            pending.writeBuffer(&buffer)
        } else if name != nil {
            fieldBytes += buffer.readableBytesView
            if fieldBytes.count > maxFieldBytes { problem = .fieldTooLong(name ?? "") }
        }
    }

    func partComplete() {
        if inFile {
            digest = hasher.finalize().map { String(format: "%02x", $0) }.joined()
            inFile = false
        } else if let name, fields[name] == nil {
            fields[name] = String(decoding: fieldBytes, as: UTF8.self)
        }
        name = nil
        fieldBytes = []
        finished = true
    }

    func takePendingFile() -> ByteBuffer {
        defer { pending = ByteBuffer() }
        return pending
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
