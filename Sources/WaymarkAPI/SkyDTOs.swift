import Foundation

/// The navigation satellites above a place at a time: `GET /api/v1/sky` (issue #15, the `/sky` page).
public struct SkyView: Codable, Sendable, Equatable {
    /// The orbit data the answer was computed from: the element sets of the chosen constellation(s).
    public struct Elements: Codable, Sendable, Equatable {
        /// How many element sets of the chosen constellation(s) the server holds.
        public var satellites: Int
        /// The oldest and newest epoch among them (ISO 8601, UTC), `null` when there are none.
        public var oldestEpoch: String?
        public var newestEpoch: String?

        public init(satellites: Int, oldestEpoch: String?, newestEpoch: String?) {
            self.satellites = satellites
            self.oldestEpoch = oldestEpoch
            self.newestEpoch = newestEpoch
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(satellites, forKey: .satellites)
            try container.encode(oldestEpoch, forKey: .oldestEpoch)
            try container.encode(newestEpoch, forKey: .newestEpoch)
        }

        enum CodingKeys: String, CodingKey { case satellites, oldestEpoch, newestEpoch }
    }

    /// One satellite above the horizon.
    public struct Satellite: Codable, Sendable, Equatable {
        /// The name line of its element set, e.g. `GPS BIIR-2  (PRN 13)`.
        public var name: String
        /// The NORAD catalogue number.
        public var catalogNumber: Int
        /// `gps`, `galileo`, `glonass` or `beidou`.
        public var constellation: String
        /// Degrees clockwise from true north, 0..<360.
        public var azimuth: Double
        /// Degrees above the horizon, more than 0.
        public var elevation: Double
        /// How far the time lies from the element set's epoch, in days (never negative).
        public var epochAgeDays: Double

        public init(name: String, catalogNumber: Int, constellation: String, azimuth: Double, elevation: Double, epochAgeDays: Double) {
            self.name = name
            self.catalogNumber = catalogNumber
            self.constellation = constellation
            self.azimuth = azimuth
            self.elevation = elevation
            self.epochAgeDays = epochAgeDays
        }
    }

    /// The instant shown (ISO 8601, UTC).
    public var time: String
    public var elements: Elements
    /// Highest first.
    public var satellites: [Satellite]

    public init(time: String, elements: Elements, satellites: [Satellite]) {
        self.time = time
        self.elements = elements
        self.satellites = satellites
    }
}
