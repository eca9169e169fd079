import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads KML files.
///
/// - Each `gx:Track` becomes one `Track` (also inside `gx:MultiTrack`), named after its `<Placemark>`;
///   its `<when>` list pairs with its `<gx:coord>` list ("lon lat [alt]"), and the counts must match.
/// - Consecutive `<Placemark>`s that hold a `<TimeStamp><when>` and a `<Point>` form one track;
///   any other placemark in between ends it.
/// - Times without a zone are UTC.
enum KMLReader {
    static func read(_ data: Data, fileName: String) throws -> [Track] {
        let delegate = KMLParserDelegate(fileName: fileName)
        let parser = XMLSupport.parser(for: data)
        parser.delegate = delegate
        try XMLSupport.run(parser, data: data, fileName: fileName, formatName: "KML XML", delegateError: { delegate.error }, openElements: { delegate.openElementCount })
        let tracks = delegate.finish()
        guard tracks.contains(where: { !$0.fixes.isEmpty }) else {
            throw TrackFormatError(
                file: fileName,
                message: "contains no timed positions (no gx:Track and no <Placemark> with both <TimeStamp> and <Point>) — export the recorded track with times, e.g. as GPX"
            )
        }
        return tracks
    }
}

private final class KMLParserDelegate: NSObject, XMLParserDelegate {
    let fileName: String
    var error: TrackFormatError?

    private var path: [Substring] = []
    private var text = ""
    private var capturing = false

    // gx:Track being read
    private var inGxTrack = false
    private var gxTrackLine = 0
    private var whens: [(text: String, line: Int)] = []
    private var coords: [(text: String, line: Int)] = []

    // Placemark being read
    private var inPlacemark = false
    private var placemarkName: String?
    private var placemarkTracks: [[Fix]] = []
    private var placemarkWhen: (text: String, line: Int)?
    private var placemarkPoint: (text: String, line: Int)?
    private var placemarkHasOther = false

    private var placemarkRun: [Fix] = []
    private var placemarkRunName: String?
    private var result: [Track] = []

    init(fileName: String) { self.fileName = fileName }

    /// Elements opened but not yet closed; non-zero after the parse means the file was cut off.
    var openElementCount: Int { path.count }

    func finish() -> [Track] {
        endPlacemarkRun()
        return result
    }

    private func endPlacemarkRun() {
        if !placemarkRun.isEmpty { result.append(Track(name: placemarkRunName, fixes: placemarkRun)) }
        placemarkRun = []
        placemarkRunName = nil
    }

    private func fail(line: Int, _ message: String, _ parser: XMLParser) {
        guard error == nil else { return }
        error = TrackFormatError(file: fileName, line: line, message: message)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let name = XMLSupport.localName(elementName)
        let parent = path.last
        path.append(name)
        switch name {
        case "Track":
            inGxTrack = true
            gxTrackLine = parser.lineNumber
            whens = []
            coords = []
        case "Placemark":
            inPlacemark = true
            placemarkName = nil
            placemarkTracks = []
            placemarkWhen = nil
            placemarkPoint = nil
            placemarkHasOther = false
        case "when":
            if inGxTrack || parent == "TimeStamp" { beginText() }
        case "coord":
            if inGxTrack { beginText() }
        case "coordinates":
            if inPlacemark && parent == "Point" { beginText() }
            if inPlacemark && parent != "Point" { placemarkHasOther = true }
        case "name":
            if parent == "Placemark" { beginText() }
        default:
            break
        }
    }

    private func beginText() {
        text = ""
        capturing = true
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        let name = XMLSupport.localName(elementName)
        if !path.isEmpty { path.removeLast() }
        let captured = capturing ? text : nil
        capturing = false
        let line = parser.lineNumber
        switch name {
        case "when":
            guard let captured else { break }
            if inGxTrack {
                whens.append((captured, line))
            } else if inPlacemark {
                placemarkWhen = (captured, line)
            }
        case "coord":
            if let captured, inGxTrack { coords.append((captured, line)) }
        case "coordinates":
            if let captured, inPlacemark, path.last == "Point" { placemarkPoint = (captured, line) }
        case "name":
            if let captured, path.last == "Placemark" {
                let trimmed = captured.trimmingCharacters(in: .whitespacesAndNewlines)
                placemarkName = trimmed.isEmpty ? nil : trimmed
            }
        case "Track":
            inGxTrack = false
            guard let fixes = gxTrackFixes(parser) else { return }
            if inPlacemark {
                placemarkTracks.append(fixes)
            } else {
                endPlacemarkRun()
                result.append(Track(name: nil, fixes: fixes))
            }
        case "Placemark":
            inPlacemark = false
            endPlacemark(parser)
        default:
            break
        }
    }

    private func gxTrackFixes(_ parser: XMLParser) -> [Fix]? {
        guard whens.count == coords.count else {
            fail(line: gxTrackLine, "gx:Track has \(whens.count.groupedForMessage) <when> times but \(coords.count.groupedForMessage) <gx:coord> positions; they must pair up one to one — the file is damaged; export it again", parser)
            return nil
        }
        var fixes: [Fix] = []
        fixes.reserveCapacity(whens.count)
        for (when, coord) in zip(whens, coords) {
            guard let time = TrackTime.parse(when.text) else {
                fail(line: when.line, "<when>\(when.text.trimmingCharacters(in: .whitespacesAndNewlines))</when> is not an ISO 8601 time like 2024-05-01T12:34:56Z — the file is damaged; export it again", parser)
                return nil
            }
            let parts = coord.text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            guard let fix = makeFix(parts, time: time, line: coord.line, element: "<gx:coord>", raw: coord.text, parser) else { return nil }
            fixes.append(fix)
        }
        return fixes
    }

    private func makeFix(_ parts: [Substring], time: Date, line: Int, element: String, raw: String, _ parser: XMLParser) -> Fix? {
        var shown: String { raw.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard parts.count == 2 || parts.count == 3,
              let lon = TrackNumbers.decimal(text: parts[0]), let lat = TrackNumbers.decimal(text: parts[1]) else {
            fail(line: line, "\(element) \"\(shown)\" is not \"longitude latitude [altitude]\" — the file is damaged; export it again", parser)
            return nil
        }
        let altitude = parts.count == 3 ? TrackNumbers.decimal(text: parts[2]) : nil
        let fix = Fix(latitude: lat, longitude: lon, altitude: altitude, time: time)
        guard fix.hasValidCoordinates else {
            fail(line: line, "\(element) \"\(shown)\" has latitude \(lat) and longitude \(lon), outside ±90° and ±180° — KML puts longitude first; the file is damaged, export it again", parser)
            return nil
        }
        return fix
    }

    private func endPlacemark(_ parser: XMLParser) {
        if !placemarkTracks.isEmpty {
            endPlacemarkRun()
            result += placemarkTracks.map { Track(name: placemarkName, fixes: $0) }
            return
        }
        guard let when = placemarkWhen, let point = placemarkPoint, !placemarkHasOther else {
            endPlacemarkRun()
            return
        }
        let trimmedWhen = when.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let time = TrackTime.parse(trimmedWhen) else {
            fail(line: when.line, "<when>\(trimmedWhen)</when> is not an ISO 8601 time like 2024-05-01T12:34:56Z — the file is damaged; export it again", parser)
            return
        }
        let parts = point.text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        guard let fix = makeFix(parts, time: time, line: point.line, element: "<coordinates>", raw: point.text, parser) else { return }
        if placemarkRun.isEmpty { placemarkRunName = placemarkName }
        placemarkRun.append(fix)
    }
}
