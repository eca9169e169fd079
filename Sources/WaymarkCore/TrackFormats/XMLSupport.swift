import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Shared plumbing for the XML track readers.
enum XMLSupport {
    /// The file's bytes without a UTF-8 byte-order mark (some XML parsers choke on it).
    static func withoutBOM(_ data: Data) -> Data {
        data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
    }

    /// The name without its namespace prefix: `gx:Track` → `Track`.
    static func localName(_ qualifiedName: String) -> Substring {
        if let colon = qualifiedName.lastIndex(of: ":") {
            return qualifiedName[qualifiedName.index(after: colon)...]
        }
        return Substring(qualifiedName)
    }

    /// Runs `parser`; turns a syntax error into a `TrackFormatError` that names the line.
    ///
    /// `delegateError` is the error the delegate stopped the parse for, if any; it wins.
    static func run(_ parser: XMLParser, fileName: String, formatName: String, delegateError: () -> TrackFormatError?) throws {
        let ok = parser.parse()
        if let error = delegateError() { throw error }
        guard ok else {
            let reason = parser.parserError.map(describe) ?? "unknown XML error"
            let line = parser.lineNumber > 0 ? parser.lineNumber : nil
            throw TrackFormatError(
                file: fileName, line: line,
                message: "is not well-formed \(formatName) (\(reason)) — the file looks truncated or damaged; copy or export it again"
            )
        }
    }

    private static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo["NSDebugDescription"] as? String, !detail.isEmpty {
            return detail.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let code = XMLParser.ErrorCode(rawValue: nsError.code) {
            return "XML error \(code.rawValue)"
        }
        return nsError.localizedDescription
    }
}
