#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A file mapped privately and copy-on-write: reading costs no copy, and writes into the
/// mapping (exiv2 rewrites TIFF-based files in place in its buffer) never reach the file.
final class MappedFile {
    let bytes: UnsafeMutableRawBufferPointer

    init(_ url: URL, displayName: String) throws {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { throw MediaError(file: displayName, message: "cannot be opened: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw MediaError(file: displayName, message: "cannot be read: \(String(cString: strerror(errno)))") }
        let size = Int(info.st_size)
        guard size > 0 else { throw MediaError(file: displayName, message: "is empty") }
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw MediaError(file: displayName, message: "cannot be mapped: \(String(cString: strerror(errno)))")
        }
        bytes = UnsafeMutableRawBufferPointer(start: base, count: size)
    }

    deinit { munmap(bytes.baseAddress, bytes.count) }
}
