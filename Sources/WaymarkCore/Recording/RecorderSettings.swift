import Foundation

/// Metric or imperial units for distances (SRR-10).
public enum UnitSystem: String, Sendable, Codable, CaseIterable {
    case metric
    case imperial

    /// The other system: what a tap on the distance panel switches to.
    public var toggled: UnitSystem { self == .metric ? .imperial : .metric }
}

/// The recorder's settings (SSN-01).
public struct RecorderSettings: Sendable, Hashable, Codable {
    /// Fixes whose accuracy (metres) is worse than this are ignored (SRR-06).
    public var accuracyThreshold: Double
    /// Seconds of poor accuracy before the alert sounds, and between repeats (SRR-09).
    public var alertDelay: Double
    /// Seconds each QR code is shown before the next (SRR-13): 5–30, or 1 for precise sync.
    public var qrPeriod: Int
    /// Upload only over a wireless network ("Background Task").
    public var wifiOnly: Bool
    /// Units for distances (SRR-10).
    public var units: UnitSystem

    public init(accuracyThreshold: Double = 100, alertDelay: Double = 30, qrPeriod: Int = 5,
                wifiOnly: Bool = false, units: UnitSystem = .metric) {
        self.accuracyThreshold = accuracyThreshold
        self.alertDelay = alertDelay
        self.qrPeriod = qrPeriod
        self.wifiOnly = wifiOnly
        self.units = units
    }
}
