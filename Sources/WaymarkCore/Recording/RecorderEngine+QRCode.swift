import Foundation

extension RecorderEngine {
    /// How many of the latest accepted fixes the clock correction is taken over.
    static let clockSampleCount = 30

    /// GPS time minus the wall clock, in seconds, once a live source has delivered a fix.
    ///
    /// The largest `fix.time − wall clock at arrival` over the last 30 accepted fixes: the
    /// delay between the fix and its arrival only makes a sample smaller, so the largest is
    /// the closest to the truth. `nil` for a replay (its times are not the present) and before
    /// the first fix.
    public var clockCorrection: Double? { clockSamples.max() }

    /// The time-sync QR code to show at `instant` (SRR-11…14, DESIGN §3.1).
    ///
    /// "Now" is the wall clock corrected by GPS time (``clockCorrection``), so a computer whose
    /// clock is wrong still shows the true time. Codes are aligned on multiples of the period in
    /// Unix time: the code shows `t = ⌊now / period⌋ · period`, and changes at `t + period`.
    public func qrCode(at instant: RecorderInstant) -> QRCode {
        let period = max(1, settings.qrPeriod)
        let now = instant.wall.timeIntervalSince1970 + (clockCorrection ?? 0)
        let start = (now / Double(period)).rounded(.down) * Double(period)
        return QRCode(payload: QRPayload(time: Int(start), nonce: nonce),
                      secondsLeft: start + Double(period) - now, period: period)
    }

    /// Keeps the clock sample of an accepted fix from a live source.
    mutating func recordClockSample(_ fix: Fix, at instant: RecorderInstant) {
        guard sourceIsLive else { return }
        clockSamples.append(fix.time.timeIntervalSince(instant.wall))
        if clockSamples.count > Self.clockSampleCount {
            clockSamples.removeFirst(clockSamples.count - Self.clockSampleCount)
        }
    }
}
