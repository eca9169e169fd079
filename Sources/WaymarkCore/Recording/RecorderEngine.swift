import Foundation

/// The recording screen's logic (SRR-04…17), as a value: fixes in, tracks, distance, elapsed
/// time, GPS status, alerts and QR codes out.
///
/// It never reads a clock and never waits: every method takes the instant it happens at, so a
/// caller drives it from a ``RecorderClock`` and tests from instants built by hand. Durations
/// (elapsed time, alerts, sanity checks) use the monotonic ``RecorderInstant/uptime``; the wall
/// clock only serves the QR code's date and the checks that need a date.
///
/// Elapsed time runs from the start (and each resume), including while waiting for the first
/// fix: the session, with its QR codes, is running.
public struct RecorderEngine: Sendable {
    /// Where the recording is.
    public internal(set) var phase: RecorderPhase
    /// The settings the recording runs with; only the units change while recording (SRR-10).
    public internal(set) var settings: RecorderSettings
    /// The session nonce every QR code of this recording carries (SRR-11).
    public let nonce: String
    /// Whether fix times are live GPS time, and so may correct the wall clock for the QR code.
    public let sourceIsLive: Bool
    /// Accepted fixes per track, in order; only non-empty tracks (SRR-05).
    public internal(set) var tracks: [[Fix]]
    /// Metres recorded, summed within tracks only, never across a pause.
    public internal(set) var distance: Double

    // MARK: Internal state

    /// Seconds recorded before the running stretch began.
    var elapsedBefore: Double = 0
    /// Uptime at which the running stretch (start or resume) began; `nil` while paused or stopped.
    var runningSince: Double?
    /// Whether the last track in ``tracks`` is still being extended; false after a pause.
    var trackOpen = false
    /// The last accepted fix and the instant it arrived.
    var lastAccepted: (fix: Fix, at: RecorderInstant)?
    /// The latest event (paused and stopped ones aside) and its uptime, for the GPS status.
    var lastEvent: (event: LocationEvent, uptime: Double)?
    /// Why the latest event was ignored.
    var lastIgnored: IgnoredFix?
    /// GPS time minus wall clock for the last ``clockSampleCount`` accepted fixes of a live source.
    var clockSamples: [Double] = []
    /// Uptime of the next sound alert (SRR-09).
    var nextAlert: Double
    /// Consecutive fixes rejected for their time that agree with each other (see `handle`).
    var timeStreak: (fix: Fix, at: RecorderInstant, count: Int)?

    /// Starts a recording at once: the clock runs, and the first acceptable fix opens track 0.
    ///
    /// - Parameters:
    ///   - settings: Threshold, alert delay, QR period and units.
    ///   - nonce: The session nonce, e.g. ``QRPayload/makeNonce()``.
    ///   - sourceIsLive: ``LocationSource/isLive`` of the source; only live GPS time corrects the clock.
    ///   - start: When recording starts.
    public init(settings: RecorderSettings, nonce: String, sourceIsLive: Bool, start: RecorderInstant) {
        self.settings = settings
        self.nonce = nonce
        self.sourceIsLive = sourceIsLive
        self.phase = .waitingForFix
        self.tracks = []
        self.distance = 0
        self.runningSince = start.uptime
        self.nextAlert = start.uptime + settings.alertDelay
    }

    /// Pauses the recording (SRR-15): the clock stops, the current track ends, events are ignored.
    ///
    /// Does nothing unless recording or waiting for a fix.
    public mutating func pause(at instant: RecorderInstant) {
        guard phase == .recording || phase == .waitingForFix else { return }
        elapsedBefore = elapsed(at: instant)
        runningSince = nil
        trackOpen = false
        phase = .paused
    }

    /// Resumes a paused recording (SRR-16): the clock runs again, and the next acceptable fix
    /// starts a new track (SRR-05, SRR-07).
    ///
    /// Does nothing unless paused.
    public mutating func resume(at instant: RecorderInstant) {
        guard phase == .paused else { return }
        runningSince = instant.uptime
        phase = .waitingForFix
        nextAlert = instant.uptime + settings.alertDelay
        // What the receiver said before the pause says nothing about now.
        lastEvent = nil
        lastIgnored = nil
    }

    /// A gap in the recording: the receiver went unheard for a while (a browser hides the page,
    /// SRR-03), while the photographer did not pause.
    ///
    /// The clock keeps running, but the next acceptable fix starts a new track, so no distance
    /// bridges the gap (SRR-05). What the receiver said before says nothing about now: the
    /// status is ``GPSStatus/none`` until the next event. Does nothing unless recording or
    /// waiting for a fix.
    public mutating func breakTrack(at instant: RecorderInstant) {
        guard phase == .recording || phase == .waitingForFix else { return }
        trackOpen = false
        phase = .waitingForFix
        lastEvent = nil
        lastIgnored = nil
    }

    /// Stops the recording for good (SRR-17) and returns the route: its non-empty tracks in order.
    ///
    /// Later events are ignored as ``IgnoredFix/stopped``; stopping again returns the same route.
    public mutating func stop(at instant: RecorderInstant) -> Route {
        if phase != .stopped {
            elapsedBefore = elapsed(at: instant)
            runningSince = nil
            trackOpen = false
            phase = .stopped
        }
        return Route(nonce: nonce, qrPeriod: Double(settings.qrPeriod), tracks: tracks.map { Track(fixes: $0) })
    }

    /// Switches distances between metric and imperial units (SRR-10).
    public mutating func toggleUnits() {
        settings.units = settings.units.toggled
    }

    /// Seconds recorded at `instant`, pauses excluded (SRR-04, SRR-15).
    public func elapsed(at instant: RecorderInstant) -> Double {
        guard let runningSince else { return elapsedBefore }
        return elapsedBefore + max(0, instant.uptime - runningSince)
    }

    /// Accepted fixes over all tracks.
    public var fixCount: Int { tracks.reduce(0) { $0 + $1.count } }

    /// Everything the recording screen shows at `instant`.
    public func snapshot(at instant: RecorderInstant) -> RecorderSnapshot {
        let elapsed = elapsed(at: instant)
        return RecorderSnapshot(
            phase: phase, status: status(at: instant), lastAccuracy: lastAccuracy, distance: distance,
            elapsed: elapsed, distanceText: RecorderFormat.distance(distance, units: settings.units),
            elapsedText: RecorderFormat.duration(elapsed), qr: qrCode(at: instant), trackCount: tracks.count,
            fixCount: fixCount, clockCorrection: clockCorrection, lastIgnored: lastIgnored)
    }
}
