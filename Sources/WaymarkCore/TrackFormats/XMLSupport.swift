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

    /// A parser over `data` decoded to valid UTF-8 (see ``utf8Document(_:)``), fed in chunks.
    ///
    /// `XMLParser` never sees the file's own bytes: it traps on invalid UTF-8 in a name, a
    /// comment or a processing instruction. A document refused before parsing (see ``Refusal``)
    /// gets a parser over nothing that carries the reason;
    /// ``run(_:data:fileName:formatName:delegateError:openElements:)`` throws it before parsing.
    ///
    /// `XMLParser(data:)` in swift-corelibs-foundation hands libxml2 the whole document as
    /// one chunk, and libxml2 refuses a chunk above 10 MB ("internal error" at the last line),
    /// so a track of about 100,000 points failed; a stream is fed in small chunks.
    static func parser(for data: Data) -> XMLParser {
        let parser: TrackXMLParser
        switch utf8Document(data) {
        case .success(let document): parser = TrackXMLParser(stream: InputStream(data: document), refusal: nil)
        case .failure(let refusal): parser = TrackXMLParser(stream: InputStream(data: Data()), refusal: refusal)
        }
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        return parser
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
    /// A document refused before parsing (an encoding Waymark does not read, a DOCTYPE with
    /// declarations) is refused first, saying why.
    /// `delegateError` is the error the delegate stopped the parse for, if any; it wins.
    /// `openElements` is how many elements the delegate saw opened but not closed: some
    /// `XMLParser` implementations accept a document that simply stops, so a truncated file
    /// is caught here.
    static func run(_ parser: XMLParser, data: Data, fileName: String, formatName: String, delegateError: () -> TrackFormatError?, openElements: () -> Int) throws {
        switch (parser as? TrackXMLParser)?.refusal {
        case .encoding(let name)?:
            throw TrackFormatError(
                file: fileName, line: 1,
                message: "is written in the \(name) text encoding, which Waymark cannot read (it reads UTF-8, UTF-16, ISO-8859-1 and Windows-1252) — open it in a text editor and save it as UTF-8"
            )
        case .internalSubset(let line)?:
            throw TrackFormatError(
                file: fileName, line: line,
                message: "has a <!DOCTYPE …> with declarations of its own ([…]), which track files do not use and Waymark does not read — delete the <!DOCTYPE …> part at the top of the file, or export the track again"
            )
        case nil:
            break
        }
        let ok = parser.parse()
        if let error = delegateError() { throw error }
        if ok && openElements() > 0 {
            throw TrackFormatError(
                file: fileName, line: lineCount(data),
                message: "ends before its XML is complete (\(openElements()) elements are still open) — the file looks truncated; copy or export it again"
            )
        }
        guard ok else {
            let reason = parser.parserError.map(describe) ?? "unknown XML error"
            let line = parser.lineNumber > 0 ? parser.lineNumber : nil
            throw TrackFormatError(
                file: fileName, line: line,
                message: "is not well-formed \(formatName) (\(reason)) — the file looks truncated or damaged; copy or export it again"
            )
        }
    }

    /// The number of the last line of `data`.
    static func lineCount(_ data: Data) -> Int {
        var lines = 1
        for byte in data where byte == 0x0A { lines += 1 }
        if data.last == 0x0A { lines -= 1 }
        return max(lines, 1)
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

/// An `XMLParser` that carries why its document was refused before parsing, if it was.
final class TrackXMLParser: XMLParser {
    let refusal: XMLSupport.Refusal?

    init(stream: InputStream, refusal: XMLSupport.Refusal?) {
        self.refusal = refusal
        super.init(stream: stream)
    }
}
