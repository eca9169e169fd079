#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Replaces files so that a crash at any moment leaves either the old or the new content, never a mix.
///
/// The new bytes go to a hidden temporary file in the same folder, are flushed to disk with
/// fsync, get the original's permissions (and, when allowed, owner) and modification time, and
/// are then renamed over the original; finally the folder itself is synced so the rename is durable.
public enum SafeFile {
    /// The marker in the names of temporary files; a crash can leave one behind, and `removeLeftovers` cleans them up.
    public static let temporaryMarker = ".waymark-tmp-"

    /// Atomically replaces (or creates) `url` with `data`.
    /// - Parameters:
    ///   - preservingAttributesOf: the file whose mode, owner and modification time the new file keeps (normally `url` itself).
    ///   - syncFolder: also fsync the folder, making the new name durable at once. Atomicity does not
    ///     depend on it (rename is atomic, and the new content is on disk before the rename); a caller
    ///     replacing many files in one folder passes false and calls `syncFolder(_:)` once at the end.
    public static func write(_ data: Data, to url: URL, preservingAttributesOf original: URL? = nil, syncFolder: Bool = true) throws {
        try data.withUnsafeBytes { try write($0, to: url, preservingAttributesOf: original, syncFolder: syncFolder) }
    }

    /// Atomically replaces (or creates) `url` with the bytes in `bytes`; see ``write(_:to:preservingAttributesOf:syncFolder:)``.
    public static func write(_ bytes: UnsafeRawBufferPointer, to url: URL, preservingAttributesOf original: URL? = nil, syncFolder: Bool = true) throws {
        try write(chunks: [bytes], to: url, preservingAttributesOf: original, syncFolder: syncFolder)
    }

    /// Atomically replaces (or creates) `url` with `chunks` one after the other, after `verify` has
    /// accepted the new file as it reads back from the temporary file; a file `verify` refuses is
    /// removed and the original stays as it was.
    static func write(chunks: [UnsafeRawBufferPointer], to url: URL, preservingAttributesOf original: URL? = nil, syncFolder: Bool = true,
                      verify: ((UnsafeRawBufferPointer) throws -> Void)? = nil) throws {
        let name = url.lastPathComponent
        let folder = url.deletingLastPathComponent()
        let tmp = folder.appendingPathComponent(".\(name)\(temporaryMarker)\(UInt32.random(in: 0...UInt32.max))")
        var info = stat()
        let hasOriginal = original.map { stat($0.path, &info) == 0 } ?? false
        let mode: mode_t = hasOriginal ? (info.st_mode & 0o7777) : 0o644
        let fd = open(tmp.path, O_RDWR | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else { throw failure(name, "cannot create a temporary file in \(folder.path)") }
        var closed = false
        do {
            defer { if !closed { close(fd) } }
            var total = 0
            for chunk in chunks {
                guard let base = chunk.baseAddress else { continue }
                var offset = 0
                while offset < chunk.count {
                    let written = Foundation.write(fd, base + offset, chunk.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw failure(name, "cannot write the new file")
                    }
                    offset += written
                }
                total += chunk.count
            }
            if hasOriginal {
                _ = fchmod(fd, mode)  // open() applied the umask
                if getuid() == 0 || info.st_uid != getuid() { _ = fchown(fd, info.st_uid, info.st_gid) }
                var times = [timespec](repeating: timespec(), count: 2)
                #if canImport(Darwin)
                times[0] = info.st_atimespec
                times[1] = info.st_mtimespec
                #else
                times[0] = info.st_atim
                times[1] = info.st_mtim
                #endif
                guard futimens(fd, times) == 0 else { throw failure(name, "cannot keep the modification time") }
            }
            // The content must be on disk before the rename makes it the photo.
            guard fsync(fd) == 0 else { throw failure(name, "cannot flush the new file to disk") }
            if let verify, total > 0 {
                guard let mapped = mmap(nil, total, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
                    throw failure(name, "cannot read the new file back")
                }
                defer { munmap(mapped, total) }
                try verify(UnsafeRawBufferPointer(start: mapped, count: total))
            }
            closed = true
            guard close(fd) == 0 else { throw failure(name, "cannot close the new file") }
            guard rename(tmp.path, url.path) == 0 else { throw failure(name, "cannot replace the original") }
        } catch {
            unlink(tmp.path)
            throw error
        }
        if syncFolder { Self.syncFolder(folder) }
    }

    /// Removes temporary files that an interrupted run left in `folder`; returns their names.
    @discardableResult
    public static func removeLeftovers(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed: [String] = []
        for name in names where name.hasPrefix(".") && name.contains(temporaryMarker) {
            if unlink(folder.appendingPathComponent(name).path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Makes the renames done in `folder` durable.
    public static func syncFolder(_ folder: URL) {
        let fd = open(folder.path, O_RDONLY)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func failure(_ name: String, _ what: String) -> MediaError {
        let reason = String(cString: strerror(errno))
        return MediaError(file: name, message: "\(what): \(reason). The original is unchanged; check free space and permissions, then run again.")
    }
}
