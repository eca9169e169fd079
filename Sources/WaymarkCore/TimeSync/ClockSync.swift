import Foundation

/// Ways to learn a camera clock's offset (and drift) from UTC.
public enum ClockSync {
    /// The fastest drift a real camera clock is believed to have: 1000 ppm (86 s a day).
    static let maxDrift = 1e-3
    /// Slack (seconds) for rounding when testing a sample against its bound.
    static let tolerance = 1e-6

    /// Fits the clock offset (and, when one offset cannot explain them all, a drift) from QR photos.
    ///
    /// Each QR photo says the true time lay in `[t, t + qrPeriod)`. When one offset fits every
    /// photo within its bound, that offset is used, with no drift. Otherwise a line (offset and
    /// drift) is fitted to the largest group of photos that agree, by trying every pair; photos
    /// outside that group are returned as rejected, with their residual in seconds.
    ///
    /// - Throws: ``ClockSyncError`` when there are no samples, two photos cannot be
    ///   reconciled, the drift would exceed 1000 ppm, or no group of photos agrees.
    public static func fit(_ samples: [QRSample]) throws -> (correction: ClockCorrection, rejected: [(photo: String, residual: Double)]) {
        guard !samples.isEmpty else { throw ClockSyncError.noSamples }
        for sample in samples where !(1...30).contains(sample.qrPeriod) {
            throw ClockSyncError.invalidQRPeriod(photo: sample.photo, period: sample.qrPeriod)
        }
        let source = ClockCorrection.Source.qrCodes(count: samples.count)

        // One offset for all: the intersection of every sample's offset interval.
        let low = samples.map { $0.offset - $0.bound }.max() ?? 0
        let high = samples.map { $0.offset + $0.bound }.min() ?? 0
        if low <= high + tolerance {
            let reference = samples.map(\.x).reduce(0, +) / Double(samples.count)
            let correction = ClockCorrection(
                source: source, errorBound: max(0, high - low) / 2,
                model: .linear(offset: (low + high) / 2, drift: 0, reference: reference))
            return (correction, [])
        }

        let line = try consensusLine(samples)
        let rejected = samples.indices.filter { !line.inliers.contains($0) }
            .map { (photo: samples[$0].photo, residual: line.residual(samples[$0])) }
        let correction = ClockCorrection(
            source: .qrCodes(count: line.inliers.count), errorBound: line.errorBound,
            model: .linear(offset: line.offset, drift: line.drift, reference: line.reference))
        return (correction, rejected)
    }

    /// A clock offset from one photo of a clock whose true time is known (`--sync PHOTO=TIME`).
    ///
    /// The offset is `trueTime` minus the camera's reading. When the camera wrote no subseconds,
    /// both the camera and (usually) the clock in the photo show whole seconds, so their
    /// truncations cancel and the sync photo itself maps to the middle of `trueTime`'s second.
    /// The error bound is 1 s when the camera wrote no subseconds, else 0.5 s (a clock read in a photo).
    public static func manual(photo: String, camera: CameraTime, trueTime: Date) -> ClockCorrection {
        ClockCorrection(
            source: .manualSync(photo: photo), errorBound: camera.hasSubseconds ? 0.5 : 1,
            model: .linear(offset: trueTime.timeIntervalSince1970 - camera.seconds, drift: 0, reference: camera.midpoint))
    }

    /// A fixed offset given by hand: seconds to add to camera time to reach UTC.
    public static func fixedOffset(_ seconds: Double) -> ClockCorrection {
        ClockCorrection(source: .fixedOffset, errorBound: nil, model: .linear(offset: seconds, drift: 0, reference: 0))
    }

    /// The camera clock shows correct local time in an IANA time zone; daylight saving is
    /// applied photo by photo.
    ///
    /// - Throws: ``ClockSyncError/unknownTimeZone(_:)`` for a name the system does not know.
    public static func timeZone(_ identifier: String) throws -> ClockCorrection {
        guard let zone = TimeZone(identifier: identifier) else { throw ClockSyncError.unknownTimeZone(identifier) }
        return ClockCorrection(source: .timeZone(identifier), errorBound: nil, model: .zone(zone))
    }

    /// Each photo's own OffsetTimeOriginal gives UTC; photos without one are read in `fallbackTimeZone` (default UTC).
    ///
    /// - Throws: ``ClockSyncError/unknownTimeZone(_:)`` for a fallback name the system does not know.
    public static func cameraOffsets(fallbackTimeZone: String = "UTC") throws -> ClockCorrection {
        guard let zone = TimeZone(identifier: fallbackTimeZone) else { throw ClockSyncError.unknownTimeZone(fallbackTimeZone) }
        return ClockCorrection(source: .cameraOffsets, errorBound: nil, model: .photoOffsets(fallback: zone))
    }
}

extension ClockSync {
    /// A fitted line: offset at `reference` plus drift, and the samples that agree with it.
    struct Line {
        var offset: Double
        var drift: Double
        var reference: Double
        var inliers: [Int]
        var errorBound: Double

        func predicted(at x: Double) -> Double { offset + drift * (x - reference) }
        func residual(_ sample: QRSample) -> Double { sample.offset - predicted(at: sample.x) }
    }

    /// Tries every pair of samples as a candidate line and keeps the one most samples agree with.
    static func consensusLine(_ samples: [QRSample]) throws -> Line {
        var best: [Int]?
        var tiedGroups = false
        var steepest: Double?
        for i in samples.indices {
            for j in samples.indices where j > i {
                let dx = samples[j].x - samples[i].x
                guard abs(dx) > 1 else { continue }
                let drift = (samples[j].offset - samples[i].offset) / dx
                guard abs(drift) <= maxDrift else {
                    steepest = max(steepest ?? 0, abs(drift))
                    continue
                }
                let candidate = Line(offset: samples[i].offset, drift: drift, reference: samples[i].x, inliers: [], errorBound: 0)
                let inliers = samples.indices.filter { abs(candidate.residual(samples[$0])) <= samples[$0].bound + tolerance }
                if let current = best {
                    if inliers.count > current.count {
                        best = inliers
                        tiedGroups = false
                    } else if inliers.count == current.count, inliers != current {
                        tiedGroups = true
                    }
                } else {
                    best = inliers
                }
            }
        }

        guard let found = best, found.count >= 2, !tiedGroups else {
            if samples.count == 2 {
                throw ClockSyncError.disagreeingPair(
                    first: samples[0].photo, second: samples[1].photo,
                    disagreement: abs(samples[0].offset - samples[1].offset))
            }
            if let steepest, best == nil {
                throw ClockSyncError.driftTooLarge(photos: samples.map(\.photo), ppm: steepest * 1e6)
            }
            throw ClockSyncError.noConsensus(offsets: samples.map { .init(photo: $0.photo, offset: $0.offset) })
        }

        // A line through two noisy centres can miss a sample the fitted line accepts: grow once more.
        var line = weightedFit(samples, inliers: found)
        let grown = samples.indices.filter { found.contains($0) || abs(line.residual(samples[$0])) <= samples[$0].bound + tolerance }
        if grown.count > found.count { line = weightedFit(samples, inliers: grown) }
        guard abs(line.drift) <= maxDrift else {
            throw ClockSyncError.driftTooLarge(photos: line.inliers.map { samples[$0].photo }, ppm: abs(line.drift) * 1e6)
        }
        return line
    }

    /// Weighted least squares (weights 1/bound²) of offset against camera time over `inliers`.
    ///
    /// The error bound is the larger of the worst inlier residual and the mean bound shrunk by
    /// the square root of the number of inliers.
    static func weightedFit(_ samples: [QRSample], inliers: [Int]) -> Line {
        let chosen = inliers.map { samples[$0] }
        let weights = chosen.map { 1 / ($0.bound * $0.bound) }
        let totalWeight = weights.reduce(0, +)
        let reference = zip(chosen, weights).map { $0.x * $1 }.reduce(0, +) / totalWeight
        let meanOffset = zip(chosen, weights).map { $0.offset * $1 }.reduce(0, +) / totalWeight
        let sxx = zip(chosen, weights).map { $1 * pow($0.x - reference, 2) }.reduce(0, +)
        let sxy = zip(chosen, weights).map { $1 * ($0.x - reference) * ($0.offset - meanOffset) }.reduce(0, +)
        let drift = sxx > 0 ? sxy / sxx : 0
        var line = Line(offset: meanOffset, drift: drift, reference: reference, inliers: inliers, errorBound: 0)
        let worstResidual = chosen.map { abs(line.residual($0)) }.max() ?? 0
        let meanBound = chosen.map(\.bound).reduce(0, +) / Double(chosen.count)
        line.errorBound = max(worstResidual, meanBound / Double(chosen.count).squareRoot())
        return line
    }
}
