import Foundation

/// A continuous stretch of recording: the fixes between a start (or resume) and a pause (or stop).
///
/// Fixes are in chronological order. Between two tracks of a route the recorder was paused,
/// so nothing is known about where the photographer was.
public struct Track: Sendable, Hashable, Codable {
    public var name: String?
    public var fixes: [Fix]

    public init(name: String? = nil, fixes: [Fix]) {
        self.name = name
        self.fixes = fixes
    }

    /// The time of the first fix, if any.
    public var start: Date? { fixes.first?.time }
    /// The time of the last fix, if any.
    public var end: Date? { fixes.last?.time }
}

/// A recorded route: one or more tracks, and the session nonce its QR codes carried.
public struct Route: Sendable, Hashable {
    /// The session nonce shown in the route's QR codes, when known.
    public var nonce: String?
    /// Seconds between two QR code refreshes while this route was recorded, when known.
    public var qrPeriod: Double?
    public var tracks: [Track]

    public init(nonce: String? = nil, qrPeriod: Double? = nil, tracks: [Track]) {
        self.nonce = nonce
        self.qrPeriod = qrPeriod
        self.tracks = tracks
    }

    /// The tracks in chronological order, each sorted by time, with empty tracks removed.
    public func normalized() -> Route {
        var copy = self
        copy.tracks = tracks
            .map { Track(name: $0.name, fixes: $0.fixes.sorted { $0.time < $1.time }) }
            .filter { !$0.fixes.isEmpty }
            .sorted { ($0.start ?? .distantPast) < ($1.start ?? .distantPast) }
        return copy
    }
}
