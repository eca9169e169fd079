/// Where a photo falls on a route, or why it falls nowhere.
///
/// The cases without a position carry the distance in time to the nearest fixes, so that a
/// report can show at once a forgotten time zone or daylight-saving change.
public enum Placement: Sendable, Equatable {
    /// Between two fixes at most `maxGap` apart (or exactly on a fix): the interpolated
    /// position, timed at the photo's UTC.
    case interpolated(Fix)
    /// Outside a track but within `maxExtrapolation` of its first or last fix: that fix, and
    /// the seconds between it and the photo.
    case nearestEnd(Fix, distance: Double)
    /// Between two fixes of one track that are more than `maxGap` apart: seconds to each.
    case inGap(before: Double, after: Double)
    /// In a pause between two tracks, farther than `maxExtrapolation` from both: seconds
    /// since the earlier track ended and until the later one starts.
    case inPause(afterTrackEnd: Double, beforeTrackStart: Double)
    /// Before the route's first fix by more than `maxExtrapolation`: seconds until it.
    case beforeRoute(seconds: Double)
    /// After the route's last fix by more than `maxExtrapolation`: seconds since it.
    case afterRoute(seconds: Double)
    /// The route has no fixes at all.
    case emptyRoute

    /// The position to tag the photo with, if it has one.
    public var fix: Fix? {
        switch self {
        case let .interpolated(fix), let .nearestEnd(fix, _): return fix
        case .inGap, .inPause, .beforeRoute, .afterRoute, .emptyRoute: return nil
        }
    }
}
