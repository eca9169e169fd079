#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A pseudo-terminal pair: the test writes to `master`, the source reads the character device at `path`.
///
/// Glibc's Swift module hides `posix_openpt` and friends (they need `_XOPEN_SOURCE`), so they are
/// looked up at run time.
final class PseudoTerminal {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let master: Int32
    let path: String

    init() throws {
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias Grant = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        func function<T>(_ name: String, as type: T.Type) throws -> T {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { throw Failure(description: "no \(name) in libc") }
            return unsafeBitCast(symbol, to: type)
        }
        let openpt = try function("posix_openpt", as: OpenPT.self)
        let grantpt = try function("grantpt", as: Grant.self)
        let unlockpt = try function("unlockpt", as: Grant.self)
        let ptsname = try function("ptsname_r", as: Name.self)
        let fd = openpt(O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw Failure(description: "posix_openpt: \(String(cString: strerror(errno)))") }
        var name = [CChar](repeating: 0, count: 128)
        guard grantpt(fd) == 0, unlockpt(fd) == 0, ptsname(fd, &name, name.count) == 0 else {
            close(fd)
            throw Failure(description: "cannot set up a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        master = fd
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { close(master) }
}
