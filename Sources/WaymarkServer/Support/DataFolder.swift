import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The data folder holds device secrets, session hashes, the receipt signing key and every
/// private photo, so nothing in it is for other users of the machine (#34: the SQLite files and
/// blobs were 0644). ``prepare(_:)`` makes the folder 0700 (and tightens one that exists) and
/// sets the process's file mode mask to 077, so that everything made in it afterwards (the
/// database and its journal, blobs, temporary uploads, keys) is 0600 or 0700.
enum DataFolder {
    /// Creates `folder` 0700 if it is missing, takes group and other bits off it if not, and
    /// masks them off every file and folder this process makes from now on.
    static func prepare(_ folder: URL) throws {
        umask(0o077)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var status = stat()
        if stat(folder.path, &status) == 0, status.st_mode & 0o077 != 0 {
            _ = chmod(folder.path, status.st_mode & 0o700)
        }
    }
}
