#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import WaymarkCore

/// A pipe that wakes a thread blocked in `poll`; both ends close when the last user lets go.
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw NMEASourceError.openFailed(path: "a wake-up pipe", reason: String(cString: strerror(errno)))
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Makes `readEnd` readable (once is enough: nobody drains it).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    deinit {
        _ = close(readEnd)
        _ = close(writeEnd)
    }
}

extension NMEASource {
    /// Reads a live device or FIFO on a dedicated thread, so blocking reads never hold a
    /// thread of Swift's cooperative pool; cancelling the iteration wakes the thread, which
    /// closes the device.
    static func liveEvents(path: String, baud: Int?, logger: Logger) -> AsyncThrowingStream<LocationEvent, Error> {
        AsyncThrowingStream { continuation in
            let wake: WakePipe
            do {
                wake = try WakePipe()
            } catch {
                continuation.finish(throwing: error)
                return
            }
            continuation.onTermination = { _ in wake.wake() }
            let thread = Thread {
                do {
                    let device = try SerialDevice(path: path, baud: baud)
                    defer { device.close() }
                    logger.debug("Reading NMEA", metadata: ["path": "\(path)"])
                    var parser = NMEAStreamParser()
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    reading: while true {
                        switch try device.read(into: &buffer, wakingOn: wake.readEnd) {
                        case .bytes(let count):
                            for event in parser.consume(buffer[0..<count]) { continuation.yield(event) }
                        case .endOfFile:
                            // The FIFO's writer closed it, or the tty hung up.
                            for event in parser.finish() { continuation.yield(event) }
                            logger.debug("NMEA input ended", metadata: ["path": "\(path)"])
                            break reading
                        case .woken:
                            logger.debug("Stopped reading NMEA", metadata: ["path": "\(path)"])
                            break reading
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            thread.name = "waymark NMEA \(path)"
            thread.start()
        }
    }
}
