import Foundation

/// One position reported by a GPS receiver, at the time of the fix itself.
///
/// `time` always comes from the GPS fix, never from a device's wall clock.
public struct Fix: Sendable, Hashable, Codable {
    /// Latitude in degrees, WGS-84, positive north.
    public var latitude: Double
    /// Longitude in degrees, WGS-84, positive east.
    public var longitude: Double
    /// Altitude in metres above mean sea level, when the receiver reported one.
    public var altitude: Double?
    /// Horizontal accuracy (radius, metres), when the receiver reported one.
    public var accuracy: Double?
    /// The instant of the fix.
    public var time: Date

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, accuracy: Double? = nil, time: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
        self.time = time
    }
}
