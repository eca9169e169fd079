import Foundation
import Logging
import WaymarkCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's receipt signing key in the data folder, `receipt-ed25519.key`: PEM PKCS#8 of an
/// Ed25519 key (``ReceiptSigningKey``), readable by its owner only (0600).
///
/// Made on the first start: written to a temporary file of mode 0600 in the same folder, flushed
/// to disk, then linked to its name, which fails if another process made one meanwhile (that one
/// is then used), so there is never a half-written key or two keys. Read at every start; a file
/// that cannot be read or is not such a key stops the server with an error naming it, rather than
/// signing with a new key that no agency has pinned.
enum ReceiptKeyFile {
    static let name = "receipt-ed25519.key"

    /// The key file of a data folder.
    static func url(in dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent(name)
    }

    /// Reads the data folder's key, or makes and keeps one when there is none.
    static func loadOrCreate(in dataDirectory: URL, logger: Logger) throws(ReceiptKeyFileError) -> ReceiptSigningKey {
        let file = url(in: dataDirectory)
        if let key = try load(file, logger: logger) { return key }
        let key = ReceiptSigningKey()
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw ReceiptKeyFileError(path: file.path, problem: .cannotWrite(String(describing: error)))
        }
        if try create(file, contents: Data(key.pem.utf8)) {
            logger.notice("receipt signing key made", metadata: ["file": "\(file.path)", "publicKey": "\(key.publicKey.base64EncodedString())"])
            return key
        }
        // Another process made it first.
        guard let made = try load(file, logger: logger) else { throw ReceiptKeyFileError(path: file.path, problem: .unreadable("it vanished while starting")) }
        return made
    }

    /// The key in `file`; `nil` when there is no such file.
    static func load(_ file: URL, logger: Logger) throws(ReceiptKeyFileError) -> ReceiptSigningKey? {
        var status = stat()
        guard stat(file.path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw ReceiptKeyFileError(path: file.path, problem: .unreadable(String(cString: strerror(errno))))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw ReceiptKeyFileError(path: file.path, problem: .notAFile) }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ReceiptKeyFileError(path: file.path, problem: .unreadable((error as NSError).localizedDescription))
        }
        guard let text = String(data: data, encoding: .utf8) else { throw ReceiptKeyFileError(path: file.path, problem: .malformed) }
        let key: ReceiptSigningKey
        do {
            key = try ReceiptSigningKey(pem: text)
        } catch {
            throw ReceiptKeyFileError(path: file.path, problem: .malformed)
        }
        if status.st_mode & 0o077 != 0 {
            logger.warning("the receipt signing key can be read by other users; chmod 600 it", metadata: ["file": "\(file.path)"])
        }
        return key
    }

    /// Writes `contents` to `file` as a new file of mode 0600, atomically; `false` when `file` exists already.
    private static func create(_ file: URL, contents: Data) throws(ReceiptKeyFileError) -> Bool {
        let folder = file.deletingLastPathComponent().path
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(name).\(UUID().uuidString).tmp").path
        func failure(_ step: String) -> ReceiptKeyFileError {
            ReceiptKeyFileError(path: file.path, problem: .cannotWrite("\(step): \(String(cString: strerror(errno)))"))
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw failure("creating a temporary file") }
        defer { unlink(temporary) }
        let written = contents.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress, buffer.count) }
        guard written == contents.count, fsync(descriptor) == 0 else {
            let error = failure("writing")
            close(descriptor)
            throw error
        }
        close(descriptor)
        guard link(temporary, file.path) == 0 else {
            if errno == EEXIST { return false }
            throw failure("naming it")
        }
        // The new name on disk too.
        let directory = open(folder, O_RDONLY)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
        return true
    }
}

/// Why the server cannot use its receipt key file; stops the server.
struct ReceiptKeyFileError: Error, Equatable, CustomStringConvertible, LocalizedError {
    enum Problem: Equatable {
        case unreadable(String)
        case notAFile
        case malformed
        case cannotWrite(String)
    }

    var path: String
    var problem: Problem

    var description: String {
        switch problem {
        case let .unreadable(reason):
            return "The receipt signing key \(path) cannot be read (\(reason)); give the server's user read access to it (chmod 600, owned by that user)."
        case .notAFile:
            return "The receipt signing key \(path) is not a file; move it away so that the server makes a new key, or put the key file back."
        case .malformed:
            return "The receipt signing key \(path) is not an Ed25519 private key in PEM (PKCS#8); restore it from a backup, or move it away so that the server makes a new key (receipts signed before then name a key that agencies no longer see at /api/v1/receipts/public-key)."
        case let .cannotWrite(reason):
            return "The receipt signing key \(path) cannot be made (\(reason)); check that the data folder is writable by the server's user."
        }
    }

    var errorDescription: String? { description }
}
