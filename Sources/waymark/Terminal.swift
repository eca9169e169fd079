#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The few terminal facts and effects the CLI needs.
enum Terminal {
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Reads a line from the terminal without echoing it (for passphrases).
    static func readSecret(prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let canHide = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            var hidden = saved
            hidden.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
        }
        defer {
            if canHide { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}

/// Asks a yes/no question at the terminal; false when nobody can answer.
func confirm(_ question: String) -> Bool {
    guard Terminal.stdinIsTerminal else { return false }
    FileHandle.standardError.write(Data(question.utf8))
    return ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
}

/// Prints a value as pretty JSON with sorted keys.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Prints rows under a header, each column as wide as its widest cell.
func printTable(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    for row in all {
        print(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
            .trimmingCharacters(in: .whitespaces))
    }
}

/// A date in this computer's time zone, as a photographer reads it.
func localTime(_ date: Date, seconds: Bool) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = seconds ? "yyyy-MM-dd HH:mm:ss" : "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
}

/// A one-line progress bar on standard output, redrawn in place; silent when stdout is not a terminal.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool
    private var lastDraw = Date.distantPast

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ label: String, done: Int, total: Int) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDraw) > 0.05 else { return }
        lastDraw = now
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardOutput.write(Data("\r\u{1B}[2K\(label) \(bar) \(done)/\(total)".utf8))
    }

    func finish() {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        FileHandle.standardOutput.write(Data("\r\u{1B}[2K".utf8))
    }
}
