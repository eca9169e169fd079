import Foundation

/// Turns NMEA 0183 as it arrives from a receiver into location events, one per epoch.
///
/// It reads sentences exactly as the log reader behind ``TrackFile/read(_:fileName:)`` does
/// (checksums, talkers, fix validity, RMC+GGA/GNS merged per epoch, accuracy `hdop × 5 m`),
/// but incrementally:
/// - An epoch's fix is emitted as soon as both its RMC (the date) and its GGA or GNS (altitude,
///   HDOP) have arrived, otherwise when the next epoch starts or at ``finish()``. GSA supplies
///   the HDOP when the receiver sends no GGA/GNS.
/// - Fixes that arrive before the first RMC wait for its date and are then emitted, back-filled.
/// - Sentences that report no fix yield ``LocationEvent/noFix``, once per epoch.
/// - Garbage, cut-off lines and sentences with a wrong checksum are skipped; they never end
///   the stream.
public struct NMEAStreamParser: Sendable {
    /// The longest line kept while waiting for its end; longer runs without a line end are junk.
    static let maximumLineLength = 4096
    private static let halfDay = 43_200_000

    private var scanner = NMEASentenceScanner()
    private var line: [UInt8] = []
    /// The epoch being merged, and whether it has been emitted already.
    private var open: NMEAEpoch?
    private var openHasRMC = false
    private var openHasGGA = false
    private var openEmitted = false
    /// Epochs seen before any RMC: they wait for its date.
    private var undated: [NMEAEpoch] = []
    private var lastDay: Int?
    private var lastMillisecondOfDay = 0
    private var lastNoFixMillisecondOfDay: Int?
    private var sawRMC = false

    /// A parser at the start of a stream.
    public init() {}

    /// Feeds bytes as they arrive and returns the events they complete; a partial last line is
    /// kept until its end arrives.
    public mutating func consume(_ bytes: some Sequence<UInt8>) -> [LocationEvent] {
        var events: [LocationEvent] = []
        for byte in bytes {
            if byte == 0x0A || byte == 0x0D {
                if !line.isEmpty {
                    events += consume(line: line)
                    line.removeAll(keepingCapacity: true)
                }
            } else if line.count < Self.maximumLineLength {
                line.append(byte)
            } else {
                // No line end for far longer than any sentence: junk, start afresh.
                line.removeAll(keepingCapacity: true)
            }
        }
        return events
    }

    /// Feeds one whole line (without its line end) and returns the events it completes.
    public mutating func consume(line bytes: [UInt8]) -> [LocationEvent] {
        guard let sentence = scanner.scan(bytes, bytes.startIndex..<bytes.endIndex) else { return [] }
        switch sentence {
        case .position(let epoch, let kind):
            return position(epoch, kind)
        case .noFix(let kind, let millisecondOfDay):
            return noFix(kind, millisecondOfDay)
        case .gsa(_, let hdop):
            if let hdop, !openEmitted, var epoch = open, epoch.hdop == nil {
                epoch.hdop = hdop
                open = epoch
            }
            return []
        case .malformed, .other, .badChecksum:
            return []
        }
    }

    /// Ends the stream: returns the event of the last epoch if it is still open.
    ///
    /// A last line without its line end counts only if it carries a checksum: without one,
    /// nothing shows that the receiver did not stop in the middle of a field.
    public mutating func finish() -> [LocationEvent] {
        var events: [LocationEvent] = []
        if line.contains(0x2A) { events += consume(line: line) }
        line.removeAll()
        return events + close()
    }

    // MARK: - Epochs

    private mutating func position(_ epoch: NMEAEpoch, _ kind: NMEASentence.Kind) -> [LocationEvent] {
        var events: [LocationEvent] = []
        if var current = open, current.millisecondOfDay == epoch.millisecondOfDay {
            current.merge(epoch)
            open = current
        } else {
            events += close()
            open = epoch
        }
        if kind == .rmc { openHasRMC = true; sawRMC = true } else { openHasGGA = true }
        if openHasRMC && openHasGGA && !openEmitted, let current = open {
            openEmitted = true
            events += emit(current)
        }
        return events
    }

    private mutating func noFix(_ kind: NMEASentence.Kind, _ millisecondOfDay: Int?) -> [LocationEvent] {
        if let millisecondOfDay {
            // A fix and a no-fix sentence of the same instant: the fix wins.
            if open?.millisecondOfDay == millisecondOfDay { return [] }
            guard millisecondOfDay != lastNoFixMillisecondOfDay else { return [] }
        } else if kind != .rmc && sawRMC {
            // No time to tell epochs apart: count the RMC, sent once per epoch.
            return []
        }
        lastNoFixMillisecondOfDay = millisecondOfDay
        return close() + [.noFix]
    }

    /// Closes the open epoch, emitting it if that has not happened yet.
    private mutating func close() -> [LocationEvent] {
        defer {
            open = nil
            openHasRMC = false
            openHasGGA = false
            openEmitted = false
        }
        guard let current = open, !openEmitted else { return [] }
        return emit(current)
    }

    /// The fix of an epoch with its date resolved, or nothing while no RMC has given a date.
    private mutating func emit(_ epoch: NMEAEpoch) -> [LocationEvent] {
        var events: [LocationEvent] = []
        let day: Int
        if let known = epoch.day {
            day = known
            events += backFill(before: epoch, day: known)
        } else if var carried = lastDay {
            if epoch.millisecondOfDay < lastMillisecondOfDay - Self.halfDay { carried += 1 }
            day = carried
        } else {
            undated.append(epoch)
            // A receiver that never sends RMC: keep a bounded backlog, not the whole session.
            if undated.count > 600 { undated.removeFirst(undated.count - 600) }
            return []
        }
        lastDay = day
        lastMillisecondOfDay = epoch.millisecondOfDay
        events.append(.fix(epoch.fix(day: day)))
        return events
    }

    /// The epochs that waited for a date, dated backwards from the first RMC as the log reader does.
    private mutating func backFill(before epoch: NMEAEpoch, day: Int) -> [LocationEvent] {
        guard !undated.isEmpty else { return [] }
        var days = [Int](repeating: day, count: undated.count)
        var next = epoch.millisecondOfDay
        var backDay = day
        for i in stride(from: undated.count - 1, through: 0, by: -1) {
            if undated[i].millisecondOfDay > next + Self.halfDay { backDay -= 1 }
            days[i] = backDay
            next = undated[i].millisecondOfDay
        }
        defer { undated.removeAll() }
        return undated.indices.map { .fix(undated[$0].fix(day: days[$0])) }
    }
}
