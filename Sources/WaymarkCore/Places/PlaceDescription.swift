import Foundation

/// Where a point lies from the nearest place of the gazetteer.
public struct PlaceDescription: Sendable, Equatable {
    /// The nearest place.
    public var place: Gazetteer.Place
    /// The geodesic distance in metres on WGS-84 from the place to the point.
    public var distance: Double
    /// The direction from the place to the point: degrees clockwise from true north (0..<360),
    /// the azimuth at the place of the geodesic to the point; nil when the point is the place.
    public var azimuth: Double?

    /// Creates a description.
    public init(place: Gazetteer.Place, distance: Double, azimuth: Double?) {
        self.place = place
        self.distance = distance
        self.azimuth = azimuth
    }

    /// The direction as a point of the 16-point compass; nil when the point is the place.
    public var direction: CompassPoint? { azimuth.map { CompassPoint(azimuth: $0) } }

    /// The direction on a compass of `resolution`; nil when the point is the place.
    public func direction(_ resolution: CompassPoint.Resolution) -> CompassPoint? {
        azimuth.map { CompassPoint(azimuth: $0, resolution: resolution) }
    }
}

/// A point of the compass, clockwise from north.
public enum CompassPoint: Int, CaseIterable, Sendable {
    case north, northNorthEast, northEast, eastNorthEast
    case east, eastSouthEast, southEast, southSouthEast
    case south, southSouthWest, southWest, westSouthWest
    case west, westNorthWest, northWest, northNorthWest

    /// How finely a compass divides the circle.
    public enum Resolution: Int, Sendable {
        /// N, NE, E, SE, S, SW, W, NW: 45° sectors.
        case eight = 8
        /// N, NNE, NE, … NNW: 22.5° sectors.
        case sixteen = 16
    }

    /// The point whose sector holds `azimuth` (degrees clockwise from north, any value;
    /// each sector is centred on its point, so 22.4° is N on an eight-point compass and 22.6° NE).
    public init(azimuth: Double, resolution: Resolution = .sixteen) {
        let sectors = Double(resolution.rawValue)
        var turn = (azimuth / 360).truncatingRemainder(dividingBy: 1)
        if turn < 0 { turn += 1 }
        let sector = Int((turn * sectors).rounded(.toNearestOrAwayFromZero)) % resolution.rawValue
        self = CompassPoint(rawValue: sector * (16 / resolution.rawValue)) ?? .north
    }

    /// The point's azimuth in degrees (0 for north, 22.5 for north-north-east, …).
    public var azimuth: Double { Double(rawValue) * 22.5 }
}

/// What the gazetteer says about a point: the outcome an address line is made from.
public enum Address: Sendable, Equatable {
    /// The point is within the "close by" distance of a place: the place alone names it.
    case at(PlaceDescription)
    /// The point is near a place: a distance and a direction from it.
    case near(PlaceDescription)
    /// No place lies within `maximumDistance` metres (at sea, on an ice sheet, in a desert):
    /// a line "so far from that town" would mislead, so a shell should say there is no place
    /// near; the nearest place is still given for whoever wants to show it.
    case remote(nearest: PlaceDescription, maximumDistance: Double)

    /// The nearest place and how the point lies from it, whatever the outcome.
    public var placeDescription: PlaceDescription {
        switch self {
        case .at(let description), .near(let description), .remote(let description, _): description
        }
    }
}

/// When a point is "at" a place and when no place is near.
public struct AddressPolicy: Sendable, Equatable {
    /// Closer than this many metres to a place, the place alone describes the point.
    public var closeBy: Double
    /// Farther than this many metres from every place, the outcome is ``Address/remote(nearest:maximumDistance:)``.
    public var maximumDistance: Double

    /// Creates a policy; the defaults are 100 m and 100 km.
    ///
    /// 100 km: a cities1000 place lies within a few tens of kilometres of nearly every inhabited
    /// spot, so 100 km still reads as "near"; beyond it (mid-ocean, Antarctica, the Sahara) a
    /// line such as "2,140 km NE of Adamstown" names a town the user is not near at all.
    public init(closeBy: Double = 100, maximumDistance: Double = 100_000) {
        self.closeBy = closeBy
        self.maximumDistance = maximumDistance
    }
}

extension Gazetteer {
    /// The address outcome for a point under `policy`, or nil for coordinates that are not a
    /// position (see ``nearest(latitude:longitude:)``).
    public func address(latitude: Double, longitude: Double, policy: AddressPolicy = AddressPolicy()) -> Address? {
        guard let description = nearest(latitude: latitude, longitude: longitude) else { return nil }
        if description.distance > policy.maximumDistance { return .remote(nearest: description, maximumDistance: policy.maximumDistance) }
        if description.distance < policy.closeBy || description.azimuth == nil { return .at(description) }
        return .near(description)
    }
}
