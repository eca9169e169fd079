import Foundation

/// Places photo times on a route (DESIGN §3.4), in O(log n) per photo.
public struct Correlator: Sendable {
    /// The route, normalised: tracks in order, fixes sorted, empty tracks removed.
    public let route: Route
    /// The limits in use.
    public let options: CorrelationOptions
    /// Fix times per track, as seconds since 1970, for binary search.
    private let times: [[Double]]
    /// Each track's first fix time.
    private let starts: [Double]

    /// Prepares a route for placing photos.
    public init(route: Route, options: CorrelationOptions = .init()) {
        self.route = route.normalized()
        self.options = options
        self.times = self.route.tracks.map { $0.fixes.map(\.time.timeIntervalSince1970) }
        self.starts = times.compactMap(\.first)
    }

    /// Where a photo taken at `utc` falls on the route.
    public func place(_ utc: Date) -> Placement {
        let t = utc.timeIntervalSince1970
        guard let firstStart = starts.first else { return .emptyRoute }
        // The last track that starts at or before t.
        guard let k = Self.lastIndex(in: starts, notAfter: t) else {
            let before = firstStart - t
            guard before <= options.maxExtrapolation, let first = route.tracks.first?.fixes.first else {
                return .beforeRoute(seconds: before)
            }
            return .nearestEnd(first, distance: before)
        }

        let track = route.tracks[k]
        let trackTimes = times[k]
        if let end = trackTimes.last, t <= end {
            return placeInside(track: track, times: trackTimes, t: t, utc: utc)
        }

        let lastFix = track.fixes[track.fixes.count - 1]
        let afterEnd = t - trackTimes[trackTimes.count - 1]
        guard k + 1 < route.tracks.count else {
            return afterEnd <= options.maxExtrapolation ? .nearestEnd(lastFix, distance: afterEnd) : .afterRoute(seconds: afterEnd)
        }
        let nextFix = route.tracks[k + 1].fixes[0]
        let beforeStart = starts[k + 1] - t
        if afterEnd <= options.maxExtrapolation, afterEnd <= beforeStart {
            return .nearestEnd(lastFix, distance: afterEnd)
        }
        if beforeStart <= options.maxExtrapolation {
            return .nearestEnd(nextFix, distance: beforeStart)
        }
        return .inPause(afterTrackEnd: afterEnd, beforeTrackStart: beforeStart)
    }

    /// Placement within one track's time span.
    private func placeInside(track: Track, times: [Double], t: Double, utc: Date) -> Placement {
        guard let i = Self.lastIndex(in: times, notAfter: t) else { return .emptyRoute }
        let a = track.fixes[i]
        if times[i] == t || i + 1 == times.count { return .interpolated(a) }
        let b = track.fixes[i + 1]
        let gap = times[i + 1] - times[i]
        guard gap <= options.maxGap else { return .inGap(before: t - times[i], after: times[i + 1] - t) }
        return .interpolated(Self.interpolate(a, b, fraction: (t - times[i]) / gap, time: utc))
    }

    /// The position a fraction of the way from `a` to `b`, crossing the antimeridian the short way.
    static func interpolate(_ a: Fix, _ b: Fix, fraction u: Double, time: Date) -> Fix {
        let deltaLon = remainder(b.longitude - a.longitude, 360)
        var longitude = remainder(a.longitude + u * deltaLon, 360)
        if longitude == -180 { longitude = 180 }
        let altitude = a.altitude.flatMap { altA in b.altitude.map { altB in altA + u * (altB - altA) } }
        let accuracy = a.accuracy.flatMap { accA in b.accuracy.map { accB in max(accA, accB) } }
        return Fix(latitude: a.latitude + u * (b.latitude - a.latitude), longitude: longitude,
                   altitude: altitude, accuracy: accuracy, time: time)
    }

    /// The index of the last element `<= value` in a sorted array, or `nil` if all are greater.
    static func lastIndex(in sorted: [Double], notAfter value: Double) -> Int? {
        var low = 0, high = sorted.count  // invariant: answer + 1 in low...high
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}
