import Foundation

/// Where a recording is (SRR-05, SRR-07, SRR-15…17).
public enum RecorderPhase: String, Sendable, Hashable, CaseIterable {
    /// Started or resumed, but no fix with an acceptable accuracy yet: no track is open (SRR-07).
    case waitingForFix
    /// Fixes are being added to the current track.
    case recording
    /// Paused by the photographer: the clock is stopped and events are ignored (SRR-15).
    case paused
    /// Stopped for good; the route has been handed over (SRR-17).
    case stopped
}

/// The colour of the GPS status icon (SRR-08).
public enum GPSStatus: String, Sendable, Hashable, CaseIterable {
    /// No event yet, or the receiver has been silent for more than 10 s.
    case none
    /// Accuracy at most a tenth of the threshold.
    case green
    /// Accuracy at most half the threshold.
    case blue
    /// Accuracy at most the threshold, or a fix without accuracy.
    case orange
    /// Accuracy worse than the threshold, or no fix.
    case red
}

/// What the recorder did with a location event.
public enum FixVerdict: Sendable, Equatable {
    /// The fix was added to track `track` (0-based); `startsTrack` when it is that track's first fix.
    case accepted(track: Int, startsTrack: Bool)
    /// The event added nothing, for this reason.
    case ignored(IgnoredFix)
}

/// Why an event added no fix to the route.
public enum IgnoredFix: Sendable, Equatable, CustomStringConvertible {
    /// The recording is paused (SRR-15).
    case paused
    /// The recording is stopped (SRR-17).
    case stopped
    /// The receiver has no position.
    case noFix
    /// The accuracy (metres) is worse than the threshold (SRR-06).
    case inaccurate(Double)
    /// The same GPS time as the last accepted fix.
    case duplicate
    /// Earlier than the last accepted fix.
    case outOfOrder
    /// More than a day ahead of a plausible wall clock.
    case future
    /// More than 1000 weeks behind a plausible wall clock: a receiver hit by the GPS week rollover.
    case weekRollover
    /// More than an hour ahead of what the last accepted fix and the time since predict.
    case timeJump
    /// Not a position on Earth: NaN or infinite values, latitude beyond ±90°, longitude beyond
    /// ±180°, or a negative accuracy.
    case invalidPosition

    public var description: String {
        switch self {
        case .paused: return "recording is paused"
        case .stopped: return "recording is stopped"
        case .noFix: return "the GPS receiver has no position yet — is its antenna in the open?"
        case let .inaccurate(accuracy):
            return "accuracy \(Int(accuracy.rounded())) m is worse than the threshold set in the settings"
        case .duplicate: return "same time as the previous fix"
        case .outOfOrder: return "earlier than the previous fix"
        case .future: return "fix time more than a day ahead of this computer's clock"
        case .weekRollover:
            return "fix time about 19.6 years behind this computer's clock — the GPS receiver's firmware has the week rollover bug"
        case .timeJump: return "fix time jumped more than an hour ahead of the previous fix"
        case .invalidPosition: return "the receiver reported an impossible position or accuracy"
        }
    }
}

/// Everything the recording screen shows, at one instant (SRR-01).
public struct RecorderSnapshot: Sendable, Equatable {
    public var phase: RecorderPhase
    /// The GPS status icon (SRR-08).
    public var status: GPSStatus
    /// The accuracy (metres) of the latest event, when it reported one.
    public var lastAccuracy: Double?
    /// Metres recorded, summed within tracks.
    public var distance: Double
    /// Seconds recorded, pauses excluded.
    public var elapsed: Double
    /// `distance` written in the selected units (SRR-01, SRR-10).
    public var distanceText: String
    /// `elapsed` written for the screen (SRR-01).
    public var elapsedText: String
    /// The QR code to show and the time left on its gauge (SRR-12…14).
    public var qr: QRCode
    /// Non-empty tracks so far.
    public var trackCount: Int
    /// Accepted fixes so far, over all tracks.
    public var fixCount: Int
    /// GPS time minus wall clock (seconds), when a live source has told it.
    public var clockCorrection: Double?
    /// Why the latest event was ignored; `nil` when it was accepted or there was none.
    public var lastIgnored: IgnoredFix?

    public init(phase: RecorderPhase, status: GPSStatus, lastAccuracy: Double?, distance: Double, elapsed: Double,
                distanceText: String, elapsedText: String, qr: QRCode, trackCount: Int, fixCount: Int,
                clockCorrection: Double?, lastIgnored: IgnoredFix?) {
        self.phase = phase
        self.status = status
        self.lastAccuracy = lastAccuracy
        self.distance = distance
        self.elapsed = elapsed
        self.distanceText = distanceText
        self.elapsedText = elapsedText
        self.qr = qr
        self.trackCount = trackCount
        self.fixCount = fixCount
        self.clockCorrection = clockCorrection
        self.lastIgnored = lastIgnored
    }
}

/// The time-sync QR code to show now (SRR-11…14, DESIGN §3.1).
public struct QRCode: Sendable, Equatable {
    /// What the code encodes: the start of the current period (Unix seconds) and the session nonce.
    public var payload: QRPayload
    /// Seconds until the next code, for the gauge: in `(0, period]`.
    public var secondsLeft: Double
    /// Seconds each code is shown.
    public var period: Int

    public init(payload: QRPayload, secondsLeft: Double, period: Int) {
        self.payload = payload
        self.secondsLeft = secondsLeft
        self.period = period
    }
}
