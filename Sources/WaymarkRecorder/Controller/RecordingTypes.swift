import Foundation
import WaymarkCore

/// What the photographer asks for while recording, whatever the shell's keys or buttons.
public enum RecorderCommand: Sendable, Hashable {
    /// Pause (SRR-15): the receiver is released and the time stands still.
    case pause
    /// Resume (SRR-16): the next acceptable fix starts a new track.
    case resume
    /// Stop (SRR-17): the route is kept and queued.
    case stop
    /// Switch between metric and imperial units (SRR-10).
    case units
    /// Stop and quit, once confirmed: the next command must be ``yes``; any other goes on recording.
    case quit
    /// Confirms a ``quit``.
    case yes
    /// Declines a ``quit``.
    case no
}

/// Something the shell tells the photographer beside the snapshot; at most one at a time, the
/// most urgent.
public enum RecordingNotice: Sendable {
    /// ``RecorderCommand/quit`` was asked: the shell asks to confirm it.
    case confirmingQuit
    /// The accuracy has been poor for the alert delay (SRR-09): fixes are being ignored.
    case poorAccuracy
    /// The last save of fixes failed; they stay in memory and are retried.
    case cannotSave(any Error)
}

/// One frame of the recording screen: what to draw now.
public struct RecordingUpdate: Sendable {
    /// The engine's state: QR code, distance, time, GPS status.
    public var snapshot: RecorderSnapshot
    /// What to tell the photographer, if anything.
    public var notice: RecordingNotice?
    /// True on the one update where a poor-accuracy alert starts: the shell sounds it (SRR-09).
    public var soundsAlert: Bool

    public init(snapshot: RecorderSnapshot, notice: RecordingNotice?, soundsAlert: Bool) {
        self.snapshot = snapshot
        self.notice = notice
        self.soundsAlert = soundsAlert
    }
}

/// Why a recording ended.
public enum RecordingEnd: Sendable {
    /// The photographer stopped it (or the process was asked to end).
    case stopped
    /// The photographer quit and confirmed it.
    case quit
    /// The time limit the shell set has passed.
    case timeUp
    /// The source is over (a replay or a log reached its end).
    case sourceOver
    /// The source failed for good; the error says what to check.
    case sourceFailed(any Error)
}

/// How a recording came out, once finished.
public enum RecordingOutcome: Sendable {
    /// The route was sealed and queued for upload.
    case queued(RecordedRoute)
    /// Not a single fix was accepted, so the route was removed.
    case nothingRecorded(end: RecordingEnd, routeID: Int64)
}

/// A stopped route, sealed and queued.
public struct RecordedRoute: Sendable {
    /// Why the recording ended.
    public var end: RecordingEnd
    /// The local id of the route.
    public var routeID: Int64
    /// Its tracks, as recorded.
    public var route: Route
    /// The engine's last state: distance and time as the screen showed them.
    public var snapshot: RecorderSnapshot

    /// Accepted fixes over all tracks.
    public var fixCount: Int { route.tracks.reduce(0) { $0 + $1.fixes.count } }
}
