import Foundation
import WaymarkCore

/// What an OwnTracks device sent, opened on this computer (DESIGN §3.13): its sealed key opened
/// with the passphrase and the device's nonce, each message decrypted, the locations kept by
/// their own `tst`, in time order, one fix per instant.
public struct OwnTracksHistory: Sendable {
    /// The device's fixes, oldest first.
    public var fixes: [Fix]
    /// Messages that did not open under the device's key (altered, or sent under another key).
    public var unreadable: Int
    /// Messages that opened but hold no location (transitions, waypoints, status…) or a broken one.
    public var notLocations: Int
    /// Locations outside the span asked for.
    public var outsideSpan: Int

    /// Why the history cannot be read at all.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The sealed key does not open with this passphrase and nonce.
        case keyDoesNotOpen
        /// It opens, but what it holds is no OwnTracks key.
        case notAKey

        public var description: String {
            switch self {
            case .keyDoesNotOpen: "the OwnTracks device's key does not open with this passphrase and nonce"
            case .notAKey: "the OwnTracks device's sealed key holds no OwnTracks key"
            }
        }
    }

    /// Opens the device's key, sealed under the passphrase with its nonce.
    public static func key(sealed envelope: RouteEnvelope, passphrase: String, nonce: String) throws(Failure) -> OwnTracksKey {
        let plaintext: Data
        do {
            plaintext = try envelope.open(.owntracksKey, passphrase: passphrase, nonce: nonce)
        } catch {
            throw .keyDoesNotOpen
        }
        guard let text = String(data: plaintext, encoding: .utf8), let key = OwnTracksKey(text) else { throw .notAKey }
        return key
    }

    /// What a device sent, opened: its key with the passphrase and nonce, then its messages.
    public static func open(sealedKey: RouteEnvelope, messages: [String], span: DateInterval?,
                            passphrase: String, nonce: String) throws(Failure) -> OwnTracksHistory {
        OwnTracksHistory(messages: messages, key: try key(sealed: sealedKey, passphrase: passphrase, nonce: nonce), span: span)
    }

    /// The fixes of `messages` (their `data`) under `key`, those in `span` when one is given.
    public init(messages: [String], key: OwnTracksKey, span: DateInterval? = nil) {
        var byTime: [Date: Fix] = [:]
        (fixes, unreadable, notLocations, outsideSpan) = ([], 0, 0, 0)
        for data in messages {
            guard case .success(let json) = OwnTracksBox.open(data, key: key) else { unreadable += 1; continue }
            guard case .success(let fix) = OwnTracksLocation.fix(fromMessage: json) else { notLocations += 1; continue }
            if let span, !span.contains(fix.time) { outsideSpan += 1; continue }
            // A message sent twice (OwnTracks retries after a lost answer) is one fix.
            byTime[fix.time] = byTime[fix.time] ?? fix
        }
        fixes = byTime.values.sorted { $0.time < $1.time }
    }

    /// The fixes as a route: one track, or none when there are no fixes.
    public func route(nonce: String) -> Route {
        Route(nonce: nonce, tracks: fixes.isEmpty ? [] : [Track(name: "OwnTracks", fixes: fixes)])
    }

    /// One fix per `interval` seconds, for the data vault (seed 002 FR3a: a position at a sensible
    /// interval, not every one OwnTracks sent): the first fix of each interval, the intervals counted
    /// from the Unix epoch, so that pushing an overlapping span again picks the same fixes.
    public func onePerInterval(_ interval: TimeInterval) -> [Fix] {
        precondition(interval > 0)
        var seen = Set<Int64>()
        return fixes.filter { seen.insert(Int64((($0.time.timeIntervalSince1970) / interval).rounded(.down))).inserted }
    }
}
