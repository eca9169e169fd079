import Foundation

/// Reads NMEA 0183 logs: RMC, GGA and GNS sentences from any talker (GP, GN, GL, GA, BD, GB, …),
/// and Magellan's `$PMGNTRK` track-log sentences.
///
/// - Checksums (`*hh`) are verified; a sentence with a wrong or cut-off checksum is skipped
///   and counted. A sentence without a checksum is accepted.
/// - Sentences without a fix are skipped: RMC status `V` or mode `N`/`S` (simulator),
///   GGA quality 0, 7 (manual) or 8 (simulator), GNS with no valid mode letter.
/// - RMC, GGA and GNS sentences of the same epoch (same time of day, next to each other)
///   merge into one `Fix`: the date comes from RMC, altitude and HDOP from GGA/GNS;
///   accuracy is estimated as `hdop × 5 m`.
/// - RMC carries the date, and so does PMGNTRK when its date field is there (older Magellan
///   devices leave it out; then the log's RMC sentences date it, as they date GGA). A PMGNTRK's
///   altitude in feet is converted to metres; validity `V` is no fix.
/// - Fixes logged before the first dated sentence are back-filled from it;
///   after that the last RMC date carries on, and a time of day that jumps back by more than
///   12 hours starts the next day (midnight rollover).
/// - Lines starting with `#` are comments; anything before the last `$` of a line (gpsd or
///   logger prefixes) is ignored; LF, CR LF and CR line ends are accepted.
/// - The whole log is one `Track`; pauses are left to correlation's max-gap rule.
enum NMEAReader {
    static func read(_ data: Data, fileName: String) throws -> [Track] {
        var parser = NMEALogParser()
        let bytes = [UInt8](data)
        parser.parse(bytes)
        let fixes = parser.fixes()
        guard !fixes.isEmpty else { throw parser.noFixError(fileName: fileName) }
        return [Track(name: nil, fixes: fixes)]
    }
}

/// The state of one pass over an NMEA log.
struct NMEALogParser {
    /// What one epoch (one instant of the receiver) reported, merged over its sentences.
    typealias Epoch = NMEAEpoch

    private(set) var sentenceCount = 0
    private(set) var positionSentenceCount = 0
    private(set) var badChecksumCount = 0
    private(set) var noFixCount = 0
    private(set) var malformedCount = 0
    private(set) var epochs: [Epoch] = []
    private var current: Epoch?
    private var scanner = NMEASentenceScanner()

    mutating func parse(_ bytes: [UInt8]) {
        var lineStart = 0
        var index = 0
        let count = bytes.count
        while index <= count {
            if index == count || bytes[index] == 0x0A || bytes[index] == 0x0D {
                if index > lineStart { handleLine(bytes, lineStart..<index) }
                if index < count && bytes[index] == 0x0D && index + 1 < count && bytes[index + 1] == 0x0A { index += 1 }
                lineStart = index + 1
            }
            index += 1
        }
        flush()
    }

    /// The fixes in log order, with their dates resolved.
    func fixes() -> [Fix] {
        guard let firstDated = epochs.firstIndex(where: { $0.day != nil }), var day = epochs[firstDated].day else { return [] }
        let halfDay = 43_200_000
        var days = [Int](repeating: 0, count: epochs.count)
        // Back-fill the epochs logged before the first date.
        days[firstDated] = day
        var next = epochs[firstDated].millisecondOfDay
        var backDay = day
        for i in stride(from: firstDated - 1, through: 0, by: -1) {
            if epochs[i].millisecondOfDay > next + halfDay { backDay -= 1 }
            days[i] = backDay
            next = epochs[i].millisecondOfDay
        }
        var previous = epochs[firstDated].millisecondOfDay
        for i in firstDated..<epochs.count {
            if let known = epochs[i].day {
                day = known
            } else if epochs[i].millisecondOfDay < previous - halfDay {
                day += 1
            }
            days[i] = day
            previous = epochs[i].millisecondOfDay
        }
        return epochs.indices.map { i in epochs[i].fix(day: days[i]) }
    }

    /// Why a log yielded no fix, in numbers the user can check.
    func noFixError(fileName: String) -> TrackFormatError {
        guard sentenceCount > 0 else {
            let badNote = badChecksumCount > 0 ? " (\(badChecksumCount.groupedForMessage) lines look like sentences but have a wrong checksum)" : ""
            return TrackFormatError(file: fileName, message: "contains no NMEA sentences (lines such as $GPRMC,… or $GNGGA,…)\(badNote) — is this an NMEA log? Export the track from the receiver's app as GPX or NMEA")
        }
        var reasons: [String] = []
        if noFixCount > 0 { reasons.append("\(noFixCount.groupedForMessage) position sentences reported no fix (or simulator mode)") }
        if badChecksumCount > 0 { reasons.append("\(badChecksumCount.groupedForMessage) sentences had a wrong checksum and were skipped") }
        if malformedCount > 0 { reasons.append("\(malformedCount.groupedForMessage) position sentences were malformed") }
        if !epochs.isEmpty { reasons.append("\(epochs.count.groupedForMessage) fixes came without a date: no RMC sentence, and no $PMGNTRK with its date field") }
        if positionSentenceCount == 0 { reasons.append("none was an RMC, GGA, GNS or PMGNTRK position sentence") }
        return TrackFormatError(
            file: fileName,
            message: "has \(sentenceCount.groupedForMessage) NMEA sentences but no fix with a date: \(reasons.joined(separator: "; ")) — record again after the receiver shows a fix, and make sure it logs RMC sentences"
        )
    }

    // MARK: - Lines and sentences

    private mutating func handleLine(_ bytes: [UInt8], _ line: Range<Int>) {
        guard let sentence = scanner.scan(bytes, line) else { return }
        switch sentence {
        case .badChecksum:
            badChecksumCount += 1
            return
        case .other, .gsa:
            sentenceCount += 1
        case .position(let epoch, _):
            sentenceCount += 1
            positionSentenceCount += 1
            merge(epoch)
        case .noFix:
            sentenceCount += 1
            positionSentenceCount += 1
            noFixCount += 1
        case .malformed:
            sentenceCount += 1
            positionSentenceCount += 1
            malformedCount += 1
        }
    }

    private mutating func merge(_ epoch: Epoch) {
        if var open = current, open.millisecondOfDay == epoch.millisecondOfDay {
            open.merge(epoch)
            current = open
        } else {
            flush()
            current = epoch
        }
    }

    private mutating func flush() {
        if let open = current { epochs.append(open) }
        current = nil
    }
}
