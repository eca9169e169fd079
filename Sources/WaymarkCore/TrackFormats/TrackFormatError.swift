import Foundation

/// A track file that cannot be read, with where the problem is and what to do about it.
///
/// `description` reads `FILE:LINE: message`, or `FILE: message` when no line is known;
/// `message` says what is wrong and, after a dash, what the user can do.
public struct TrackFormatError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The name of the file (last path component) that could not be read.
    public var file: String
    /// The 1-based line of the problem, when the format has lines and the reader knows it.
    public var line: Int?
    /// What is wrong, followed by what to do.
    public var message: String

    /// Creates an error for `file`, optionally pointing at `line`.
    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message`, or `FILE: message` when the line is not known.
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

extension Int {
    /// The number with thousands separated by commas ("1,234"), independent of the user's locale.
    var groupedForMessage: String {
        let digits = String(magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return self < 0 ? "-" + out : out
    }
}
