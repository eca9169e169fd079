import Foundation
import WaymarkCore

/// The kind of network the computer is on, for the seed's rule that cached locations are uploaded
/// over Wi-Fi (WLAN) only unless the user asks otherwise.
public enum NetworkKind: String, Sendable, Equatable, CaseIterable {
    /// A wireless network.
    case wifi
    /// A network known not to be wireless (Ethernet).
    case other
    /// No network at all.
    case offline
    /// Connected through something whose kind cannot be told (a VPN, a mobile modem, a system
    /// without a probe).
    case unknown

    /// The variable that overrides the probe (for tests and odd set-ups): `wifi`, `other`, `offline` or `unknown`.
    public static let variable = "WAYMARK_NETWORK"

    /// The kind for a connection as the recorder's probe tells it.
    public init(_ connection: ConnectionKind) {
        switch connection {
        case .wireless: self = .wifi
        case .wired: self = .other
        case .none: self = .offline
        case .unknown: self = .unknown
        }
    }

    /// Whether the Wi-Fi-only rule lets an upload start.
    public var allowsUpload: Bool { self == .wifi }

    /// The kind now: `WAYMARK_NETWORK` when it names one, else what `probe` tells.
    ///
    /// The probe is the recorder's `NetworkProbe().connection()` (the default route's interface,
    /// wireless when `/sys/class/net/IF/wireless` exists), passed in because this library does not
    /// depend on the recorder's.
    public static func current(environment: [String: String], probe: () -> ConnectionKind) -> NetworkKind {
        if let forced = environment[variable].flatMap(NetworkKind.init(rawValue:)) { return forced }
        return NetworkKind(probe())
    }
}
