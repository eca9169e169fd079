import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads Garmin Training Center XML (TCX) files.
///
/// - Each `<Track>` (of an activity's `<Lap>`, or of a course) becomes one `Track`.
/// - A `<Trackpoint>` gives `<Time>`, `<Position>` (`<LatitudeDegrees>`, `<LongitudeDegrees>`)
///   and `<AltitudeMeters>`. Trackpoints without a position (heart rate or cadence only, or
///   recorded indoors) are skipped; so are those without a time.
/// - Times without a zone are UTC, as TCX's `xsd:dateTime` is written by every Garmin device.
enum TCXReader {
    static func read(_ data: Data, fileName: String) throws -> [Track] {
        let delegate = TCXParserDelegate(fileName: fileName)
        let parser = XMLSupport.parser(for: data)
        parser.delegate = delegate
        try XMLSupport.run(parser, data: data, fileName: fileName, formatName: "TCX XML", delegateError: { delegate.error }, openElements: { delegate.openElementCount })
        return try delegate.tracks()
    }
}

private final class TCXParserDelegate: NSObject, XMLParserDelegate {
    struct PendingPoint {
        var time: Date?
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
    }

    let fileName: String
    var error: TrackFormatError?

    private var path: [Substring] = []
    private var text = ""
    private var capturing = false
    private var point: PendingPoint?
    private var fixes: [Fix] = []
    private var finished: [Track] = []
    private var trackpointCount = 0
    private var withoutPosition = 0
    private var withoutTime = 0

    init(fileName: String) { self.fileName = fileName }

    /// Elements opened but not yet closed; non-zero after the parse means the file was cut off.
    var openElementCount: Int { path.count }

    func tracks() throws -> [Track] {
        let result = finished.filter { !$0.fixes.isEmpty }
        guard result.isEmpty else { return result }
        let message: String
        if trackpointCount == 0 {
            message = "contains no <Trackpoint>s — export the recorded activity (not a workout or a course without points), or export it as GPX"
        } else {
            var reasons: [String] = []
            if withoutPosition > 0 { reasons.append("\(withoutPosition.groupedForMessage) have no <Position> (an indoor activity, or GPS was off)") }
            if withoutTime > 0 { reasons.append("\(withoutTime.groupedForMessage) have no <Time>") }
            message = "has \(trackpointCount.groupedForMessage) trackpoints but none with both a position and a time: \(reasons.joined(separator: "; ")) — record the activity with GPS on, or export it as GPX"
        }
        throw TrackFormatError(file: fileName, message: message)
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        guard error == nil else { return }
        error = TrackFormatError(file: fileName, line: parser.lineNumber, message: message)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let name = XMLSupport.localName(elementName)
        let parent = path.last
        path.append(name)
        switch name {
        case "Track":
            fixes = []
        case "Trackpoint":
            point = PendingPoint()
        case "Time", "AltitudeMeters":
            if point != nil && parent == "Trackpoint" { beginText() }
        case "LatitudeDegrees", "LongitudeDegrees":
            if point != nil && parent == "Position" { beginText() }
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
        switch name {
        case "Time":
            guard let captured, point != nil else { break }
            let trimmed = captured.trimmingCharacters(in: .whitespacesAndNewlines)
            if let time = TrackTime.parse(trimmed) {
                point?.time = time
            } else if !trimmed.isEmpty {
                fail(parser, "<Time>\(trimmed)</Time> is not an ISO 8601 time like 2024-05-01T12:34:56Z — the file is damaged; export it again")
            }
        case "LatitudeDegrees", "LongitudeDegrees":
            guard let captured, point != nil else { break }
            let isLatitude = name == "LatitudeDegrees"
            let limit = isLatitude ? 90.0 : 180.0
            guard let value = TrackNumbers.decimal(text: captured), (-limit...limit).contains(value) else {
                let trimmed = captured.trimmingCharacters(in: .whitespacesAndNewlines)
                fail(parser, "<\(name)> is \"\(trimmed)\", which is not a number between -\(Int(limit)) and \(Int(limit)) — the file is damaged; export it again")
                break
            }
            if isLatitude { point?.latitude = value } else { point?.longitude = value }
        case "AltitudeMeters":
            if let captured, point != nil { point?.altitude = TrackNumbers.decimal(text: captured) }
        case "Trackpoint":
            guard let p = point else { break }
            point = nil
            trackpointCount += 1
            guard let latitude = p.latitude, let longitude = p.longitude else {
                withoutPosition += 1
                break
            }
            guard let time = p.time else {
                withoutTime += 1
                break
            }
            fixes.append(Fix(latitude: latitude, longitude: longitude, altitude: p.altitude, time: time))
        case "Track":
            finished.append(Track(name: nil, fixes: fixes))
            fixes = []
        default:
            break
        }
    }
}
