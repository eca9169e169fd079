import Foundation
import WaymarkCore

/// The fields Waymark reads from a gpsd JSON report (only class TPV matters).
struct GPSDReport: Decodable, Sendable {
    var `class`: String
    var mode: Int?
    var time: String?
    var lat: Double?
    var lon: Double?
    var altMSL: Double?
    var alt: Double?
    var eph: Double?
    var epx: Double?
    var epy: Double?
    /// Speed over the ground, metres per second.
    var speed: Double?
    /// Course over the ground, degrees from true north (0–360).
    var track: Double?

    /// The fix of a TPV with mode 2 or 3, a position and a time; altitude from `altMSL`, else
    /// `alt`; accuracy from `eph`, else the larger of `epx` and `epy`; speed and course when gpsd
    /// gives them in range (a negative speed or a track outside 0–360 is no reading; 360 is 0).
    var fix: Fix? {
        guard let mode, mode >= 2, let lat, let lon, lat.isFinite, lon.isFinite,
              let time, let date = Self.parseTime(time) else { return nil }
        let accuracy = eph ?? [epx, epy].compactMap { $0 }.max()
        return Fix(latitude: lat, longitude: lon, altitude: altMSL ?? alt, accuracy: accuracy,
                   speed: speed.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil },
                   course: track.flatMap { (0...360).contains($0) ? $0.truncatingRemainder(dividingBy: 360) : nil },
                   time: date)
    }

    /// gpsd's ISO 8601 UTC time, with or without fractional seconds: `2020-07-11T22:37:54.000Z`.
    static func parseTime(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}

/// Turns gpsd's reports into one event per epoch.
///
/// gpsd sends a TPV after each sentence of a cycle, each adding what it learnt (the RMC's
/// 2D position first, then GGA's altitude, then GSA's errors). A fix is emitted as soon as a
/// TPV of its time is complete (3D, altitude and accuracy), otherwise when the next epoch's
/// first TPV arrives; later TPVs of an emitted time are dropped. No-fix reports (mode 0/1)
/// become one ``LocationEvent/noFix`` per change or per reported time.
struct GPSDEpochFilter {
    private var pending: Fix?
    private var lastEmittedTime: Date?
    private var lastWasNoFix = false
    private var lastNoFixTime: String?

    mutating func accept(_ report: GPSDReport) -> [LocationEvent] {
        guard report.class == "TPV" else { return [] }
        guard let mode = report.mode, mode >= 2 else {
            if lastWasNoFix && (report.time == nil || report.time == lastNoFixTime) { return [] }
            lastWasNoFix = true
            lastNoFixTime = report.time
            return flush() + [.noFix]
        }
        guard let fix = report.fix, fix.time != lastEmittedTime else { return [] }
        var events: [LocationEvent] = []
        if let pending, pending.time != fix.time { events += flush() }
        if mode == 3 && fix.altitude != nil && fix.accuracy != nil {
            pending = nil
            events.append(emit(fix))
        } else {
            pending = fix
        }
        return events
    }

    /// The held fix, if any: at the next epoch, or when gpsd goes away.
    mutating func flush() -> [LocationEvent] {
        guard let fix = pending else { return [] }
        pending = nil
        return [emit(fix)]
    }

    private mutating func emit(_ fix: Fix) -> LocationEvent {
        lastEmittedTime = fix.time
        lastWasNoFix = false
        lastNoFixTime = nil
        return .fix(fix)
    }
}
