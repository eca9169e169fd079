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
    /// Speed over the ground in metres per second, when the receiver reported one (gpsd's
    /// `speed`); never negative.
    public var speed: Double?
    /// Course over the ground in degrees clockwise from true north, 0..<360, when the receiver
    /// reported one (gpsd's `track`).
    public var course: Double?
    /// The instant of the fix.
    public var time: Date

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, accuracy: Double? = nil,
                speed: Double? = nil, course: Double? = nil, time: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
        self.speed = speed
        self.course = course
        self.time = time
    }

    /// The fix as a route keeps it (DESIGN §3.2): position, altitude, accuracy and time, without
    /// the receiver's speed and course of the moment.
    public var withoutMotion: Fix {
        Fix(latitude: latitude, longitude: longitude, altitude: altitude, accuracy: accuracy, time: time)
    }
}
