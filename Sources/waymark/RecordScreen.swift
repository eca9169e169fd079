#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WaymarkCore
import WaymarkMedia
import WaymarkRecorder

/// Commands read from standard input on a thread of their own (reads block).
enum RecorderInput {
    /// Keys one at a time (the terminal in raw mode): p r s u q y n, Ctrl-C as q.
    static func keys() -> AsyncStream<RecorderCommand> {
        stream { emit in
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 {
                switch byte {
                case UInt8(ascii: "p"), UInt8(ascii: " "): emit(.pause)
                case UInt8(ascii: "r"): emit(.resume)
                case UInt8(ascii: "s"): emit(.stop)
                case UInt8(ascii: "u"): emit(.units)
                case UInt8(ascii: "q"), 3: emit(.quit)
                case UInt8(ascii: "y"), UInt8(ascii: "Y"): emit(.yes)
                case UInt8(ascii: "n"), UInt8(ascii: "N"), 27: emit(.no)
                default: break
                }
            }
        }
    }

    /// Whole lines (a pipe or a script): pause, resume, stop, units.
    static func lines() -> AsyncStream<RecorderCommand> {
        stream { emit in
            while let line = readLine() {
                switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                case "p", "pause": emit(.pause)
                case "r", "resume", "start": emit(.resume)
                case "s", "stop", "q", "quit": emit(.stop)
                case "u", "units": emit(.units)
                default: break
                }
            }
        }
    }

    private static func stream(_ body: @escaping @Sendable (_ emit: (RecorderCommand) -> Void) -> Void) -> AsyncStream<RecorderCommand> {
        AsyncStream { continuation in
            let thread = Thread {
                body { continuation.yield($0) }
                continuation.finish()
            }
            thread.start()
        }
    }
}

/// How the recorder shows itself: a full screen on a terminal, status lines otherwise.
protocol RecorderDisplay: AnyObject {
    func show(_ update: RecordingUpdate)
    func bell()
    func close()
}

/// A notice in the terminal's words.
private func noticeText(_ notice: RecordingNotice) -> String {
    switch notice {
    case .confirmingQuit: return "Stop recording and quit? The route is kept and queued. [y/n]"
    case .poorAccuracy: return "GPS accuracy has been poor for a while: fixes are being ignored. Move into the open sky."
    case let .cannotSave(error): return "Cannot save fixes: \(RecorderWords.describe(error))"
    }
}

/// Plain status lines, one per QR code and one per change, for logs and pipes.
final class StatusLines: RecorderDisplay {
    private var lastKey = ""
    private var lastQR = 0

    func show(_ update: RecordingUpdate) {
        let snapshot = update.snapshot
        let message = update.notice.map(noticeText)
        let key = "\(snapshot.phase) \(snapshot.status) \(snapshot.lastIgnored.map { "\($0)" } ?? "") \(message ?? "")"
        guard snapshot.qr.payload.time != lastQR || key != lastKey else { return }
        lastKey = key
        lastQR = snapshot.qr.payload.time
        var parts = [Date().utcTimestamp, "\(snapshot.phase)", "distance \(snapshot.distanceText)", "time \(snapshot.elapsedText)",
                     "gps \(statusText(snapshot))", "tracks \(snapshot.trackCount)", "fixes \(snapshot.fixCount)",
                     "qr \(snapshot.qr.payload.text)"]
        if let ignored = snapshot.lastIgnored { parts.append("last fix ignored: \(ignored)") }
        if let message { parts.append(message) }
        print(parts.joined(separator: "  "))
        fflush(nil)  // one line at a time, in order with everything else printed
    }

    func bell() {
        print("\(Date().utcTimestamp)  alert: poor GPS accuracy")
        fflush(nil)
    }

    func close() {}
}

/// The full-screen recorder: QR code in half blocks, gauge, distance, time, GPS status in colour.
final class FullScreen: RecorderDisplay {
    private var saved = termios()
    private var rawMode = false
    private var lastFrame = ""
    private var qrCache: (text: String, image: QRImage)?
    private let routeID: Int64
    private let source: String

    init(routeID: Int64, source: String) {
        self.routeID = routeID
        self.source = source
        if tcgetattr(STDIN_FILENO, &saved) == 0 {
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
            raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            rawMode = tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")  // alternate screen, hide the cursor
    }

    func show(_ update: RecordingUpdate) {
        let snapshot = update.snapshot
        let (columns, rows) = Self.size()
        var lines: [String] = []
        let status = "GPS \(Self.colour(snapshot.status))●\u{1B}[0m \(statusText(snapshot))"
        lines.append(Self.pad(" \u{1B}[1mWaymark recorder\u{1B}[0m · route \(routeID) · \(source)", right: status, width: columns))
        lines.append("")
        lines.append(" Distance \u{1B}[1m\(snapshot.distanceText)\u{1B}[0m    Time \u{1B}[1m\(snapshot.elapsedText)\u{1B}[0m    Tracks \(snapshot.trackCount) · Fixes \(snapshot.fixCount)")
        lines.append("")

        let text = snapshot.qr.payload.text
        if qrCache?.text != text, let image = try? QRImage(encoding: text) { qrCache = (text, image) }
        var qrWidth = 0
        if let image = qrCache?.image {
            let scale = HalfBlocks.scale(for: image, columns: columns - 2, rows: max(1, rows - 10))
            let qr = HalfBlocks.lines(image, scale: scale)
            qrWidth = qr.first?.count ?? 0
            let indent = String(repeating: " ", count: max(0, (columns - qrWidth) / 2))
            lines += qr.map { indent + "\u{1B}[30;107m" + $0 + "\u{1B}[0m" }
        }
        let width = max(qrWidth, 20)
        let indent = String(repeating: " ", count: max(0, (columns - width) / 2))
        let left = max(0, snapshot.qr.secondsLeft)
        let filled = Int((Double(width - 5) * left / Double(max(1, snapshot.qr.period))).rounded())
        let gauge = String(repeating: "━", count: max(0, min(width - 5, filled))) + String(repeating: "─", count: max(0, width - 5 - filled))
        lines.append(indent + gauge + String(format: " %2d s", Int(left.rounded(.up))))
        lines.append(String(repeating: " ", count: max(0, (columns - text.count) / 2)) + text)
        lines.append("")
        switch update.notice {
        case let notice? where notice.isConfirmingQuit:
            lines.append(" \u{1B}[1m\(noticeText(notice))\u{1B}[0m")
        case let notice?:
            lines.append(" " + noticeText(notice))
        case nil:
            lines.append(" " + (snapshot.lastIgnored.map { "Last fix ignored: \($0)." } ?? phaseText(snapshot.phase)))
        }
        let keys = snapshot.phase == .paused ? "[r] resume" : "[p] pause"
        lines.append(" \u{1B}[2m\(keys)  [s] stop  [u] units  [q] quit\u{1B}[0m")

        // A line wider than the terminal would wrap and scroll the whole screen up: cut it.
        let frame = "\u{1B}[H" + lines.prefix(rows).map { Self.clip($0, to: columns) + "\u{1B}[0m\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J"
        guard frame != lastFrame else { return }
        lastFrame = frame
        write(frame)
    }

    func bell() { write("\u{07}") }

    func close() {
        write("\u{1B}[?25h\u{1B}[?1049l")
        if rawMode { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    private static func size() -> (columns: Int, rows: Int) {
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        guard ioctl(STDOUT_FILENO, request, &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    private static func colour(_ status: GPSStatus) -> String {
        switch status {
        case .green: return "\u{1B}[32m"
        case .blue: return "\u{1B}[34m"
        case .orange: return "\u{1B}[38;5;208m"
        case .red: return "\u{1B}[31m"
        case .none: return "\u{1B}[90m"
        }
    }

    /// The first `width` visible characters of a line; escape sequences take no room.
    private static func clip(_ line: String, to width: Int) -> String {
        var result = ""
        var visible = 0
        var inEscape = false
        for character in line {
            if character == "\u{1B}" { inEscape = true }
            if !inEscape {
                guard visible < width else { break }
                visible += 1
            }
            result.append(character)
            if inEscape && character.isLetter { inEscape = false }
        }
        return result
    }

    /// `left` and `right` on one line of `width` columns (escape sequences do not count).
    private static func pad(_ left: String, right: String, width: Int) -> String {
        let visible = { (text: String) in text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression).count }
        let room = width - visible(right) - 2
        let shown = visible(left) > room ? clip(left, to: max(0, room - 1)) + "\u{1B}[0m…" : left
        return shown + String(repeating: " ", count: max(1, width - visible(shown) - visible(right) - 1)) + right
    }
}

private func phaseText(_ phase: RecorderPhase) -> String {
    switch phase {
    case .waitingForFix: return "Waiting for a GPS fix accurate enough to start the track…"
    case .recording: return "Recording."
    case .paused: return "Paused: the receiver is off and the time stands still."
    case .stopped: return "Stopped."
    }
}

private func statusText(_ snapshot: RecorderSnapshot) -> String {
    let level: String
    switch snapshot.status {
    case .green: level = "excellent"
    case .blue: level = "good"
    case .orange: level = "fair"
    case .red: level = "poor"
    case .none: level = "no fix"
    }
    guard let accuracy = snapshot.lastAccuracy, snapshot.status != .none else { return level }
    return "\(level) ±\(Int(accuracy.rounded())) m"
}

private extension RecordingNotice {
    var isConfirmingQuit: Bool {
        if case .confirmingQuit = self { return true }
        return false
    }
}
