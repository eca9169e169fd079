import Foundation

/// The `Content-Disposition` of a download (a photo's PDF, a field path's KML): a name people
/// gave made safe as a file name for every file system.
enum Attachment {
    /// `attachment; filename="<stem>.<ext>"; filename*=UTF-8''<stem>.<ext>` for ``stem(_:fallback:)``:
    /// ASCII in `filename` (anything else `_`), the letters of other scripts kept, percent-encoded,
    /// in `filename*` (RFC 6266).
    static func disposition(name: String?, fallback: String, extension ext: String) -> String {
        let stem = stem(name, fallback: fallback)
        let ascii = String(stem.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || " -_".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
        })
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-_")
        let encoded = stem.addingPercentEncoding(withAllowedCharacters: allowed) ?? ascii
        return "attachment; filename=\"\(ascii).\(ext)\"; filename*=UTF-8''\(encoded).\(ext)"
    }

    /// The name with letters, digits, space, `-` and `_` kept, any run of other characters (and
    /// of spaces) one `_` or space, none leading or trailing, at most 80 characters; `fallback`
    /// when nothing is left.
    static func stem(_ name: String?, fallback: String) -> String {
        var stem = ""
        for character in name ?? "" {
            let safe = character.isLetter || character.isNumber || character == " " || character == "-" || character == "_"
            let next: Character = safe ? character : "_"
            // No runs of _ or spaces, no leading dots or separators.
            if next == "_" || next == " ", stem.last == "_" || stem.last == " " || stem.isEmpty { continue }
            stem.append(next)
        }
        stem = String(stem.prefix(80)).trimmingCharacters(in: CharacterSet(charactersIn: " _"))
        return stem.isEmpty ? fallback : stem
    }

    /// `yyyy-mm-dd` of a date, for fallbacks such as `photo-2026-06-01`.
    static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }
}
