import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads GPX 1.0 and 1.1 files.
///
/// - Each `<trkseg>` becomes one `Track` (a segment is one continuous recording), named after its `<trk>`.
/// - Each `<rte>` whose `<rtept>`s carry times becomes one `Track`; untimed route points
///   (a planned route) are ignored.
/// - Only when the file has neither, timed `<wpt>`s form one track, in file order.
/// - Accuracy: GPX has none; when a point has `<hdop>`, accuracy is estimated as `hdop × 5 m`.
/// - Times without a zone are UTC, as the GPX schema prescribes.
/// - Track points without `<time>` are skipped, unless most track points lack one: then the
///   export lost its times and the file is refused with an explanation.
enum GPXReader {
    static func read(_ data: Data, fileName: String) throws -> [Track] {
        let delegate = GPXParserDelegate(fileName: fileName)
        let parser = XMLSupport.parser(for: data)
        parser.delegate = delegate
        try XMLSupport.run(parser, data: data, fileName: fileName, formatName: "GPX XML", delegateError: { delegate.error }, openElements: { delegate.openElementCount })
        return try delegate.tracks()
    }
}

private final class GPXParserDelegate: NSObject, XMLParserDelegate {
    enum PointKind { case track, route, waypoint }

    struct PendingPoint {
        var kind: PointKind
        var latitude: Double
        var longitude: Double
        var line: Int
        var elevation: Double?
        var time: Date?
        var hdop: Double?
    }

    let fileName: String
    var error: TrackFormatError?

    private var path: [Substring] = []
    private var text = ""
    private var capturing = false

    private var point: PendingPoint?
    private var segment: [Fix] = []
    private var trackSegments: [[Fix]] = []   // segments of the current <trk>
    private var trackName: String?
    private var routeFixes: [Fix] = []
    private var routeName: String?

    private var finished: [Track] = []
    private var waypoints: [Fix] = []
    private var trackPointCount = 0
    private var timedTrackPointCount = 0
    private var routePointCount = 0
    private var waypointCount = 0

    init(fileName: String) { self.fileName = fileName }

    /// Elements opened but not yet closed; non-zero after the parse means the file was cut off.
    var openElementCount: Int { path.count }

    func tracks() throws -> [Track] {
        if trackPointCount > 0 && timedTrackPointCount * 2 < trackPointCount {
            let count = trackPointCount.groupedForMessage
            let what = timedTrackPointCount == 0
                ? "none has a <time>"
                : "only \(timedTrackPointCount.groupedForMessage) have a <time>"
            throw TrackFormatError(
                file: fileName,
                message: "has \(count) track points but \(what): a track without times cannot place photos — export the track again with timestamps (most apps call this 'include time')."
            )
        }
        var result = finished.filter { !$0.fixes.isEmpty }
        if result.isEmpty && !waypoints.isEmpty {
            result = [Track(name: nil, fixes: waypoints)]
        }
        guard !result.isEmpty else {
            let message: String
            if trackPointCount + routePointCount + waypointCount == 0 {
                message = "contains no track points (<trkpt>) — export the recorded track, not just waypoints or a planned route"
            } else {
                message = "has \((trackPointCount + routePointCount + waypointCount).groupedForMessage) points but none with a <time> — export the recorded track with timestamps (most apps call this 'include time')"
            }
            throw TrackFormatError(file: fileName, message: message)
        }
        return result
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
        case "trkpt", "rtept", "wpt":
            let kind: PointKind = name == "trkpt" ? .track : (name == "rtept" ? .route : .waypoint)
            guard let latText = attributeDict["lat"], let lonText = attributeDict["lon"] else {
                fail(parser, "<\(name)> lacks a lat or lon attribute — the file is damaged; export it again")
                return
            }
            guard let lat = TrackNumbers.decimal(text: latText), (-90...90).contains(lat) else {
                fail(parser, "<\(name)> has latitude \"\(latText)\", which is not a number between -90 and 90 — the file is damaged; export it again")
                return
            }
            guard let lon = TrackNumbers.decimal(text: lonText), (-180...180).contains(lon) else {
                fail(parser, "<\(name)> has longitude \"\(lonText)\", which is not a number between -180 and 180 — the file is damaged; export it again")
                return
            }
            point = PendingPoint(kind: kind, latitude: lat, longitude: lon, line: parser.lineNumber)
        case "trkseg":
            segment = []
        case "trk":
            trackSegments = []
            trackName = nil
        case "rte":
            routeFixes = []
            routeName = nil
        case "ele", "time", "hdop":
            if point != nil && (parent == "trkpt" || parent == "rtept" || parent == "wpt") { beginText() }
        case "name":
            if point == nil && (parent == "trk" || parent == "rte") { beginText() }
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
        case "ele":
            if let captured, point != nil { point?.elevation = TrackNumbers.decimal(text: captured) }
        case "hdop":
            if let captured, point != nil { point?.hdop = TrackNumbers.decimal(text: captured) }
        case "time":
            guard let captured, point != nil else { break }
            if let time = TrackTime.parse(captured) {
                point?.time = time
                break
            }
            let trimmed = captured.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty {
                fail(parser, "<time>\(trimmed)</time> is not an ISO 8601 time like 2024-05-01T12:34:56Z — the file is damaged; export it again")
            }
        case "name":
            guard let captured else { break }
            let trimmed = captured.trimmingCharacters(in: .whitespacesAndNewlines)
            if path.last == "trk" { trackName = trimmed.isEmpty ? nil : trimmed }
            if path.last == "rte" { routeName = trimmed.isEmpty ? nil : trimmed }
        case "trkpt", "rtept", "wpt":
            guard let p = point else { break }
            point = nil
            let fix = p.time.map {
                Fix(latitude: p.latitude, longitude: p.longitude, altitude: p.elevation,
                    accuracy: DilutionOfPrecision.accuracy(hdop: p.hdop), time: $0)
            }
            switch p.kind {
            case .track:
                trackPointCount += 1
                if let fix { timedTrackPointCount += 1; segment.append(fix) }
            case .route:
                routePointCount += 1
                if let fix { routeFixes.append(fix) }
            case .waypoint:
                waypointCount += 1
                if let fix { waypoints.append(fix) }
            }
        case "trkseg":
            trackSegments.append(segment)
            segment = []
        case "trk":
            finished += trackSegments.map { Track(name: trackName, fixes: $0) }
            trackSegments = []
        case "rte":
            finished.append(Track(name: routeName, fixes: routeFixes))
            routeFixes = []
        default:
            break
        }
    }
}
