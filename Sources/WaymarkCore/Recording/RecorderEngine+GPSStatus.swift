import Foundation

extension RecorderEngine {
    /// Seconds without any event after which the receiver counts as silent (status ``GPSStatus/none``).
    static let silenceLimit: Double = 10

    /// The GPS status icon at `instant` (SRR-08), from the latest event.
    ///
    /// Green up to a tenth of the threshold, blue up to half, orange up to the threshold (and for
    /// a fix without accuracy), red beyond it, without a fix or for an impossible one; none before any event or when the
    /// receiver has said nothing for more than 10 s.
    public func status(at instant: RecorderInstant) -> GPSStatus {
        guard let lastEvent, instant.uptime - lastEvent.uptime <= Self.silenceLimit else { return .none }
        switch lastEvent.event {
        case .noFix:
            return .red
        case let .fix(fix):
            guard Self.isValid(fix) else { return .red }
            return Self.status(accuracy: fix.accuracy, threshold: settings.accuracyThreshold)
        }
    }

    /// The status for one accuracy under a threshold.
    static func status(accuracy: Double?, threshold: Double) -> GPSStatus {
        guard let accuracy else { return .orange }
        if accuracy <= threshold / 10 { return .green }
        if accuracy <= threshold / 2 { return .blue }
        if accuracy <= threshold { return .orange }
        return .red
    }

    /// The accuracy (metres) of the latest event, when it reported one.
    public var lastAccuracy: Double? {
        guard case let .fix(fix)? = lastEvent?.event else { return nil }
        return fix.accuracy
    }

    /// Whether the sound alert is due at `instant` (SRR-09); true once per alert, so poll it.
    ///
    /// It is due when no acceptable fix has arrived for ``RecorderSettings/alertDelay`` seconds
    /// since the later of the last acceptable fix and the start (or resume), then again every
    /// `alertDelay` seconds while that lasts. Never while paused or stopped, nor with a
    /// non-positive delay. A caller that polls late gets one alert, not one per missed period.
    public mutating func alertDue(at instant: RecorderInstant) -> Bool {
        let delay = settings.alertDelay
        guard phase == .recording || phase == .waitingForFix, delay > 0, delay.isFinite,
              instant.uptime >= nextAlert else { return false }
        let missed = ((instant.uptime - nextAlert) / delay).rounded(.down)
        nextAlert += (missed + 1) * delay
        return true
    }
}
