import Crypto
import Foundation
import MultipartKit
import NIOCore
import NIOPosix
import Vapor

/// A `multipart/form-data` upload with several file parts (a scene's `image` and `feetShot`),
/// read as it arrives: each file part streamed to its own temporary file while it is hashed
/// (never held whole in memory), the named text parts kept, every other part skipped unread.
/// The same reading as ``MultipartUpload`` (which takes one file part), for many.
struct SceneUpload: Sendable {
    /// The file parts that came, by part name.
    var files: [String: MultipartUpload.File]
    /// The text parts asked for that came.
    var fields: [String: String]

    /// Reads `request`'s body, writing each part named in `files` to its temporary file.
    ///
    /// - Parameters:
    ///   - files: Part names and the temporary files they go to.
    ///   - fields: The text parts to keep, each with its largest size in bytes.
    ///   - maxFileBytes: The largest file accepted; more is ``MultipartUpload/Problem/tooLarge`` as soon as it is seen.
    static func read(_ request: Request, files: [String: URL], fields: [String: Int], maxFileBytes: Int) async throws -> SceneUpload {
        guard let type = request.headers.contentType, type.type == "multipart", type.subType == "form-data",
              let boundary = type.parameters["boundary"], !boundary.isEmpty, boundary.utf8.count <= 200
        else { throw MultipartUpload.Problem.notMultipart }

        let parser = MultipartParser(boundary: boundary)
        let state = SceneParseState(fileParts: Set(files.keys), fieldLimits: fields, maxFileBytes: maxFileBytes)
        parser.onHeader = { name, value in state.header(name: name, value: value) }
        parser.onBody = { buffer in state.body(&buffer) }
        parser.onPartComplete = { state.partComplete() }

        var handles: [String: NIOFileHandle] = [:]
        defer { for handle in handles.values { try? handle.close() } }
        for (name, url) in files {
            handles[name] = try NIOFileHandle(path: url.path, mode: .write, flags: .allowFileCreation())
        }
        let io = request.application.fileio
        var written: [String: Int] = [:]
        do {
            for try await chunk in request.body {
                do {
                    try parser.execute(chunk)
                } catch {
                    throw MultipartUpload.Problem.malformed
                }
                if let problem = state.problem { throw problem }
                // What the parser handed over for each file, written before the next chunk is read.
                for (name, var pending) in state.takePendingFiles() where pending.readableBytes > 0 {
                    guard let handle = handles[name] else { continue }
                    written[name, default: 0] += pending.readableBytes
                    try await io.write(fileHandle: handle, buffer: pending, eventLoop: request.eventLoop).get()
                    pending.clear()
                }
            }
        } catch let error as MultipartUpload.Problem {
            throw error
        } catch let error as any AbortError where error.status == .payloadTooLarge {
            throw MultipartUpload.Problem.tooLarge
        }
        guard state.finished else { throw MultipartUpload.Problem.malformed }
        var read: [String: MultipartUpload.File] = [:]
        for (name, digest) in state.digests {
            guard let url = files[name] else { continue }
            read[name] = MultipartUpload.File(url: url, bytes: written[name] ?? 0, sha256: digest, filename: state.filenames[name])
        }
        return SceneUpload(files: read, fields: state.fields)
    }
}

/// The parser's callbacks write here; one request's body is read by one task, in order.
private final class SceneParseState: @unchecked Sendable {
    let fileParts: Set<String>
    let fieldLimits: [String: Int]
    let maxFileBytes: Int

    var fields: [String: String] = [:]
    var filenames: [String: String] = [:]
    var digests: [String: String] = [:]
    var problem: MultipartUpload.Problem?
    var finished = false

    private var name: String?
    /// The file part being read, when the current part is the first of its name.
    private var file: String?
    private var fileBytes = 0
    private var fieldBytes: [UInt8] = []
    private var hasher = SHA256()
    private var pending: [String: ByteBuffer] = [:]

    init(fileParts: Set<String>, fieldLimits: [String: Int], maxFileBytes: Int) {
        self.fileParts = fileParts
        self.fieldLimits = fieldLimits
        self.maxFileBytes = maxFileBytes
    }

    func header(name header: String, value: String) {
        guard header.lowercased() == "content-disposition" else { return }
        name = Self.parameter("name", in: value)
        if let name, fileParts.contains(name), digests[name] == nil, file == nil {
            // Only the first part of that name is the file.
            file = name
            fileBytes = 0
            hasher = SHA256()
            filenames[name] = Self.parameter("filename", in: value).map { ($0 as NSString).lastPathComponent }
        }
    }

    func body(_ buffer: inout ByteBuffer) {
        guard problem == nil else { return }
        if let file {
            fileBytes += buffer.readableBytes
            guard fileBytes <= maxFileBytes else { problem = .tooLarge; return }
            buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            pending[file, default: ByteBuffer()].writeBuffer(&buffer)
        } else if let name, let limit = fieldLimits[name], fields[name] == nil {
            fieldBytes += buffer.readableBytesView
            if fieldBytes.count > limit { problem = .fieldTooLong(name) }
        }
    }

    func partComplete() {
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

    func takePendingFiles() -> [String: ByteBuffer] {
        defer { pending = [:] }
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
