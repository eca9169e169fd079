import Crypto
import Foundation

/// Content-addressed storage of uploaded originals and their derivatives (DESIGN §3.6): a blob
/// is stored once under its SHA-256 however often it is uploaded, and deleted when nothing
/// refers to it. The file system is the embedded default; the protocol leaves room for an
/// S3-compatible store.
protocol BlobStore: Sendable {
    /// A new, empty temporary file beside the blobs (the same file system, so adopting it is a rename).
    func makeTemporaryFile() throws -> URL
    /// Makes a finished temporary file the blob `sha256` (fsync'ed, then renamed into place; the
    /// folder fsync'ed); when the blob exists already the temporary file is removed instead.
    func adopt(_ temporary: URL, sha256: String) throws
    /// Stores a derivative of a blob (a thumbnail, a medium or large image) the same way.
    func storeDerivative(_ data: Data, of sha256: String, name: String) throws
    /// The file of a blob, or of one of its derivatives, when it exists.
    func file(sha256: String, derivative name: String?) -> URL?
    /// Removes a blob and its derivatives.
    func delete(sha256: String) throws
}

/// ``BlobStore`` in a folder: `blobs/sha256/ab/cd/abcd…` and `blobs/derived/ab/cd/abcd…-NAME`.
struct FileBlobStore: BlobStore {
    let root: URL

    init(root: URL) throws {
        self.root = root
        for folder in ["sha256", "derived", "tmp"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    /// Whether a name is 64 lowercase hex digits (the only names this store makes paths from).
    static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private func path(_ sha256: String, derivative name: String?) throws -> URL {
        guard Self.isHash(sha256), name.map({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." } }) ?? true else {
            throw BlobStoreError.badName
        }
        let a = sha256.prefix(2), b = sha256.dropFirst(2).prefix(2)
        if let name {
            return root.appendingPathComponent("derived/\(a)/\(b)/\(sha256)-\(name)")
        }
        return root.appendingPathComponent("sha256/\(a)/\(b)/\(sha256)")
    }

    func makeTemporaryFile() throws -> URL {
        let url = root.appendingPathComponent("tmp/upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw BlobStoreError.cannotWrite(url.path) }
        return url
    }

    func adopt(_ temporary: URL, sha256: String) throws {
        let target = try path(sha256, derivative: nil)
        if FileManager.default.fileExists(atPath: target.path) {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        try Self.sync(temporary)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard rename(temporary.path, target.path) == 0 else { throw BlobStoreError.cannotWrite(target.path) }
        try Self.sync(target.deletingLastPathComponent())
    }

    func storeDerivative(_ data: Data, of sha256: String, name: String) throws {
        let target = try path(sha256, derivative: name)
        let temporary = try makeTemporaryFile()
        do {
            try data.write(to: temporary)
            try Self.sync(temporary)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard rename(temporary.path, target.path) == 0 else { throw BlobStoreError.cannotWrite(target.path) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    func file(sha256: String, derivative name: String?) -> URL? {
        guard let url = try? path(sha256, derivative: name), FileManager.default.fileExists(atPath: url.path) else { return nil }
        return url
    }

    func delete(sha256: String) throws {
        let original = try path(sha256, derivative: nil)
        try? FileManager.default.removeItem(at: original)
        let folder = try path(sha256, derivative: "x").deletingLastPathComponent()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(sha256 + "-") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// fsync of a file or a folder.
    static func sync(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw BlobStoreError.cannotWrite(url.path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw BlobStoreError.cannotWrite(url.path) }
    }
}

enum BlobStoreError: Error {
    case badName
    case cannotWrite(String)
}

/// One blob's life at a time: an upload that stores a blob and then the photo that refers to it,
/// and a deletion that removes a photo and then, when nothing refers to it any more, the blob,
/// never interleave for the same content. Without it a deletion could count no reference
/// between an upload's blob and its photo, and remove the blob the new photo needs.
///
/// The lock is the server process's: servers sharing one data folder would need the database's.
actor BlobLocks {
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` holding the lock of `sha256`; callers for the same content take turns, first come first served.
    nonisolated func withLock<T: Sendable>(_ sha256: String, _ body: @Sendable () async throws -> T) async throws -> T {
        await acquire(sha256)
        do {
            let result = try await body()
            await release(sha256)
            return result
        } catch {
            await release(sha256)
            throw error
        }
    }

    private func acquire(_ key: String) async {
        guard waiting[key] != nil else {
            waiting[key] = []
            return
        }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    private func release(_ key: String) {
        guard var queue = waiting[key] else { return }
        if queue.isEmpty {
            waiting[key] = nil
        } else {
            let next = queue.removeFirst()
            waiting[key] = queue
            next.resume()
        }
    }
}
