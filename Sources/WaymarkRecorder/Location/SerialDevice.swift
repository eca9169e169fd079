#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What lives at a path, as far as a location source cares.
enum PathKind: Equatable {
    case missing
    case regularFile
    /// A character device (a serial port, a pty) or a FIFO: a live stream of bytes.
    case stream
    case other(String)

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .missing
            return
        }
        // POSIX file type bits, the same on Linux and the BSDs.
        switch UInt32(info.st_mode) & 0o170000 {
        case 0o100000: self = .regularFile
        case 0o020000, 0o010000: self = .stream
        case 0o040000: self = .other("a folder")
        case 0o140000: self = .other("a socket")
        default: self = .other("a block device")
        }
    }
}

/// Serial speeds a receiver may need, and their termios constants.
enum SerialSpeed {
    static let supported = [4800, 9600, 19_200, 38_400, 57_600, 115_200, 230_400]

    static func termiosValue(_ baud: Int) -> speed_t? {
        switch baud {
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19_200: speed_t(B19200)
        case 38_400: speed_t(B38400)
        case 57_600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        case 230_400: speed_t(B230400)
        default: nil
        }
    }
}

/// An open receiver device or FIFO, read without blocking anything but the thread that polls it.
///
/// A tty is put in raw mode (no echo, no line editing, 8 bits) keeping its baud rate unless one
/// is given; its settings are restored and the descriptor closed by ``close()``.
final class SerialDevice {
    let path: String
    private var descriptor: Int32
    private var savedSettings: termios?

    /// Opens `path` for reading; a FIFO opens at once even before its writer.
    init(path: String, baud: Int?) throws {
        if let baud, SerialSpeed.termiosValue(baud) == nil { throw NMEASourceError.unsupportedBaudRate(baud) }
        self.path = path
        let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Self.openError(path: path, errno: errno) }
        descriptor = fd
        if isatty(fd) == 1 {
            do {
                try configureRaw(baud: baud)
            } catch {
                systemClose(fd)
                descriptor = -1
                throw error
            }
        }
    }

    deinit { close() }

    private func configureRaw(baud: Int?) throws {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw NMEASourceError.openFailed(path: path, reason: Self.describe(errno))
        }
        savedSettings = settings
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        if let baud {
            guard let speed = SerialSpeed.termiosValue(baud) else { throw NMEASourceError.unsupportedBaudRate(baud) }
            cfsetispeed(&settings, speed)
            cfsetospeed(&settings, speed)
        }
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            throw NMEASourceError.openFailed(path: path, reason: "cannot set raw mode: \(Self.describe(errno))")
        }
    }

    /// What one wait for input brought.
    enum ReadResult {
        case bytes(Int)
        case endOfFile
        case woken
    }

    /// Waits until the device has bytes or `wake` becomes readable, then reads into `buffer`.
    func read(into buffer: inout [UInt8], wakingOn wake: Int32) throws -> ReadResult {
        while true {
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw NMEASourceError.readFailed(path: path, reason: Self.describe(errno))
            }
            if fds[1].revents != 0 { return .woken }
            guard fds[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfFile }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            throw NMEASourceError.readFailed(path: path, reason: Self.describe(errno))
        }
    }

    /// Restores a tty's settings and closes the descriptor; safe to call twice.
    func close() {
        guard descriptor >= 0 else { return }
        if var settings = savedSettings { tcsetattr(descriptor, TCSANOW, &settings) }
        systemClose(descriptor)
        descriptor = -1
    }

    static func openError(path: String, errno code: Int32) -> NMEASourceError {
        switch code {
        case ENOENT, ENODEV, ENXIO: .missing(path: path)
        case EACCES, EPERM: .permissionDenied(path: path)
        case EBUSY: .busy(path: path)
        default: .openFailed(path: path, reason: describe(code))
        }
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

// The C calls whose names the class's own methods shadow.
private func systemClose(_ fd: Int32) {
    _ = close(fd)
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
