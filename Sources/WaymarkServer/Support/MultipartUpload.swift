import Foundation
import NIOCore
import NIOPosix
import Vapor

/// A `multipart/form-data` upload read as it arrives (``MultipartFormReader``): each file part
/// streamed to its own temporary file while it is hashed (never held whole in memory), the named
/// text parts kept, every other part skipped unread, within the form's limits. A photo has one
/// file part (`photo`); a scene two (`image`, `feetShot`).
struct MultipartUpload: Sendable {
    /// A file part, on disk.
    struct File: Sendable {
        var url: URL
        var bytes: Int
        /// Lowercase hex SHA-256 of the bytes.
        var sha256: String
        /// The name the client gave it, if any (only for messages; never a path).
        var filename: String?
    }

    typealias Problem = MultipartProblem

    /// The file parts that came, by part name.
    var files: [String: File]
    /// The text parts asked for that came.
    var fields: [String: String]

    /// The file of a one-file form.
    var file: File? { files.values.first }

    /// Reads `request`'s body, writing the part named `filePart` to `temporary` and keeping the
    /// text parts named in `fields` (each at most `maxFieldBytes`).
    static func read(_ request: Request, filePart: String, into temporary: URL, fields: Set<String>, maxFileBytes: Int,
                     maxFieldBytes: Int = 4_096) async throws -> MultipartUpload {
        try await read(request, files: [filePart: temporary], fields: Dictionary(uniqueKeysWithValues: fields.map { ($0, maxFieldBytes) }),
                       maxFileBytes: maxFileBytes)
    }

    /// Reads `request`'s body, writing each part named in `files` to its temporary file.
    ///
    /// - Parameters:
    ///   - files: Part names and the temporary files they go to.
    ///   - fields: The text parts to keep, each with its largest size in bytes.
    ///   - maxFileBytes: The largest file accepted; the whole body may hold each file and 1 MB
    ///     of fields and framing, in at most ``MultipartFormLimits/maxParts`` parts.
    static func read(_ request: Request, files: [String: URL], fields: [String: Int], maxFileBytes: Int) async throws -> MultipartUpload {
        guard let type = request.headers.contentType else { throw Problem.notMultipart }
        let boundary = try MultipartFormReader.boundary(type: type.type, subType: type.subType, parameters: type.parameters)
        let limits = MultipartFormLimits(maxTotalBytes: files.count * maxFileBytes + 1_000_000, maxFileBytes: maxFileBytes)
        let reader = try MultipartFormReader(boundary: boundary, fileParts: Set(files.keys), fieldLimits: fields, limits: limits)

        var handles: [String: NIOFileHandle] = [:]
        defer { for handle in handles.values { try? handle.close() } }
        for (name, url) in files {
            handles[name] = try NIOFileHandle(path: url.path, mode: .write, flags: .allowFileCreation(posixMode: 0o600))
        }
        let io = request.application.fileio
        do {
            for try await chunk in request.body {
                // What the reader handed over for each file, written before the next chunk is read.
                for (name, pending) in try reader.read(chunk) where pending.readableBytes > 0 {
                    guard let handle = handles[name] else { continue }
                    try await io.write(fileHandle: handle, buffer: pending, eventLoop: request.eventLoop).get()
                }
            }
        } catch let error as any AbortError where error.status == .payloadTooLarge {
            throw Problem.tooLarge
        }
        try reader.finish()
        var read: [String: File] = [:]
        for (name, digest) in reader.digests {
            guard let url = files[name] else { continue }
            read[name] = File(url: url, bytes: reader.fileSizes[name] ?? 0, sha256: digest, filename: reader.filenames[name])
        }
        return MultipartUpload(files: read, fields: reader.fields)
    }
}
