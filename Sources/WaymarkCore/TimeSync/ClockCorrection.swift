import Foundation

/// How to turn a camera's clock readings into UTC, and how sure we are of it.
public struct ClockCorrection: Sendable {
    /// Where a correction came from, for the report.
    public enum Source: Sendable, Equatable {
        /// Fitted from this many QR photos.
        case qrCodes(count: Int)
        /// Set by hand from a clock visible in this photo (`--sync PHOTO=TIME`).
        case manualSync(photo: String)
        /// A fixed offset given by hand (`--offset`).
        case fixedOffset
        /// The camera clock runs in this IANA time zone (`--timezone`).
        case timeZone(String)
        /// Each photo's own OffsetTimeOriginal.
        case cameraOffsets
    }

    /// The rule behind the correction.
    enum Model: Sendable {
        /// UTC = camera + offset + drift · (camera − reference).
        case linear(offset: Double, drift: Double, reference: Double)
        /// Camera wall time in a time zone, with its daylight-saving rules.
        case zone(TimeZone)
        /// Camera wall time with the photo's own UTC offset; photos without one are read in `fallback`.
        case photoOffsets(fallback: TimeZone)
    }

    /// Where the correction came from.
    public var source: Source
    /// How far (seconds) a corrected time may be from the truth; `nil` when unknown (for
    /// example with a time zone only, where the camera clock's own error is unknown).
    public var errorBound: Double?
    let model: Model

    init(source: Source, errorBound: Double?, model: Model) {
        self.source = source
        self.errorBound = errorBound
        self.model = model
    }

    /// The UTC instant of a camera reading.
    ///
    /// A reading without subseconds stands for the middle of its second. With a time zone the
    /// zone's offset is looked up for each photo, so daylight-saving changes are honoured.
    public func utc(for camera: CameraTime) -> Date {
        switch model {
        case let .linear(offset, drift, reference):
            let time = camera.midpoint
            return Date(timeIntervalSince1970: time + offset + drift * (time - reference))
        case let .zone(zone):
            return Self.utc(wallTime: camera.midpoint, in: zone)
        case let .photoOffsets(fallback):
            if let offset = camera.utcOffset {
                return Date(timeIntervalSince1970: camera.midpoint - Double(offset))
            }
            return Self.utc(wallTime: camera.midpoint, in: fallback)
        }
    }

    /// Seconds added to camera time at the reference time; `nil` when the offset depends on
    /// the photo (time zone, per-photo offsets).
    public var offset: Double? {
        if case let .linear(offset, _, _) = model { return offset }
        return nil
    }

    /// How fast the camera clock runs slow, in seconds per second (0 unless fitted).
    public var drift: Double {
        if case let .linear(_, drift, _) = model { return drift }
        return 0
    }

    /// ``drift`` in parts per million.
    public var driftPPM: Double { drift * 1_000_000 }

    /// The camera time (seconds, as in ``CameraTime/seconds``) at which ``offset`` applies exactly.
    public var referenceCameraTime: Double? {
        if case let .linear(_, _, reference) = model { return reference }
        return nil
    }

    /// A one-line account for people, e.g.
    /// `camera clock is 1 h 03 min 12.4 s behind (from 2 QR photos, ±1.2 s, drift +35 ppm)`.
    public var summary: String {
        var details: [String] = []
        switch source {
        case let .qrCodes(count): details.append("from \(count) QR photo\(count == 1 ? "" : "s")")
        case let .manualSync(photo): details.append("set by hand from \(photo)")
        case .fixedOffset: details.append("--offset")
        case .timeZone: details.append("--timezone; the camera clock's own error is unknown")
        case .cameraOffsets: details.append("from the photos' own UTC offsets")
        }
        if let errorBound { details.append(String(format: "±%.1f s", errorBound)) }
        if drift != 0 { details.append(String(format: "drift %+.0f ppm", driftPPM)) }
        let suffix = " (" + details.joined(separator: ", ") + ")"
        switch model {
        case let .linear(offset, _, _):
            if abs(offset) < 0.05 { return "camera clock is right" + suffix }
            return "camera clock is \(Self.duration(abs(offset))) \(offset > 0 ? "behind" : "ahead")" + suffix
        case let .zone(zone):
            return "camera clock shows local time in \(zone.identifier), daylight saving time included" + suffix
        case .photoOffsets:
            return "camera clock shows local time with its UTC offset in each photo" + suffix
        }
    }

    /// `"1 h 03 min 12.4 s"`, `"2 min 05.0 s"`, `"12.4 s"`.
    static func duration(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        let hours = tenths / 36_000
        let minutes = tenths / 600 % 60
        let secondTenths = tenths % 600
        let secondText = String(format: "%d.%d s", secondTenths / 10, secondTenths % 10)
        if hours > 0 { return String(format: "%d h %02d min %04.1f s", hours, minutes, Double(secondTenths) / 10) }
        if minutes > 0 { return String(format: "%d min %04.1f s", minutes, Double(secondTenths) / 10) }
        return secondText
    }

    /// The UTC instant of a naive wall time (seconds since 1970 read as UTC) in a time zone.
    ///
    /// In the hour skipped when clocks go forward, the wall time is read with the offset in
    /// force before the change; in the hour repeated when they go back, the first occurrence wins.
    static func utc(wallTime: Double, in zone: TimeZone) -> Date {
        let before = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wallTime - 86_400)))
        let after = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wallTime + 86_400)))
        // Try the larger offset first: in a repeated hour that gives the earlier instant.
        for offset in [max(before, after), min(before, after)] {
            let candidate = wallTime - offset
            if Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: candidate))) == offset {
                return Date(timeIntervalSince1970: candidate)
            }
        }
        // Skipped hour: no instant shows this wall time; read it with the offset before the change.
        return Date(timeIntervalSince1970: wallTime - before)
    }
}
