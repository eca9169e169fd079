import Foundation
import WaymarkCore

/// Where a scene lies from the nearest populated place of the offline gazetteer (DESIGN §3.9):
/// `line` is the address as people read it ("1.2 km NE of Brno, South Moravian, Czechia"), the
/// other fields its parts; `bearing` (degrees clockwise from north, from the place to the scene)
/// is `null` when the scene is at the place itself.
public struct SceneAddressDTO: Codable, Sendable, Equatable {
    public var line: String
    public var place: String
    /// The first-level division ("South Moravian"); empty when GeoNames has none.
    public var region: String
    /// The country's English name ("Czechia").
    public var country: String
    /// ISO 3166-1 alpha-2 ("CZ").
    public var countryCode: String
    /// Metres from the place to the scene (geodesic, WGS-84).
    public var distance: Double
    public var bearing: Double?
    /// The credit the place names' licence asks for; show it with the address.
    public var attribution: String
    /// The street address from the server's reverse geocoder (`waymark serve --nominatim-url`), on
    /// a scene's own page only; `null` without one, or when it had no answer.
    public var street: StreetAddressDTO?

    public init(line: String, place: String, region: String, country: String, countryCode: String, distance: Double, bearing: Double?,
                attribution: String, street: StreetAddressDTO? = nil) {
        self.line = line
        self.place = place
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.distance = distance
        self.bearing = bearing
        self.attribution = attribution
        self.street = street
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(line, forKey: .line)
        try container.encode(place, forKey: .place)
        try container.encode(region, forKey: .region)
        try container.encode(country, forKey: .country)
        try container.encode(countryCode, forKey: .countryCode)
        try container.encode(distance, forKey: .distance)
        try container.encode(bearing, forKey: .bearing)
        try container.encode(attribution, forKey: .attribution)
        try container.encode(street, forKey: .street)
    }

    enum CodingKeys: String, CodingKey { case line, place, region, country, countryCode, distance, bearing, attribution, street }
}

/// A street address as a Nominatim-compatible reverse geocoder words it, in the language asked
/// for ("Náměstí Svobody 1, Brno-město, Brno, …"), with the credit its data's licence asks for.
public struct StreetAddressDTO: Codable, Sendable, Equatable {
    public var line: String
    public var attribution: String

    public init(line: String, attribution: String) {
        self.line = line
        self.attribution = attribution
    }
}

/// A rephotograph of a scene: the photo and the attitude and heading the phone had when it was taken.
public struct RephotographDTO: Codable, Sendable, Equatable {
    public var photo: PhotoDTO
    /// The device attitude (a unit quaternion in the W3C DeviceOrientation frame).
    public var attitude: Quaternion
    /// Compass heading in degrees, when the phone gave one.
    public var heading: Double?
    @UTCTime public var addedAt: Date

    public init(photo: PhotoDTO, attitude: Quaternion, heading: Double?, addedAt: Date) {
        self.photo = photo
        self.attitude = attitude
        self.heading = heading
        self.addedAt = addedAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(photo, forKey: .photo)
        try container.encode(attitude, forKey: .attitude)
        try container.encode(heading, forKey: .heading)
        try container.encode(_addedAt, forKey: .addedAt)
    }

    enum CodingKeys: String, CodingKey { case photo, attitude, heading, addedAt }
}

/// A scene of rephotography as the API shows it (DESIGN §3.9). `rephotographs` is given by the
/// scene's own page (`GET /api/v1/scenes/{id}`), `distance` (metres) by searches and when the
/// page is asked with a position.
public struct SceneDTO: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String?
    public var creator: PhotoDTO.Owner
    /// The place where the photographer stood (the pin as they placed it).
    public var latitude: Double
    public var longitude: Double
    public var accuracy: Double?
    @UTCTime public var capturedAt: Date
    @UTCTime public var createdAt: Date
    public var attitude: Quaternion
    public var heading: Double?
    public var reference: PhotoDTO
    /// `null` when the feet shot was deleted or its owner made it private.
    public var feetShot: PhotoDTO?
    public var rephotographCount: Int
    public var rephotographs: [RephotographDTO]?
    /// `null` when the server has no gazetteer.
    public var address: SceneAddressDTO?
    public var distance: Double?

    public init(id: UUID, name: String?, creator: PhotoDTO.Owner, latitude: Double, longitude: Double, accuracy: Double?, capturedAt: Date,
                createdAt: Date, attitude: Quaternion, heading: Double?, reference: PhotoDTO, feetShot: PhotoDTO?, rephotographCount: Int,
                rephotographs: [RephotographDTO]?, address: SceneAddressDTO?, distance: Double?) {
        self.id = id
        self.name = name
        self.creator = creator
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.capturedAt = capturedAt
        self.createdAt = createdAt
        self.attitude = attitude
        self.heading = heading
        self.reference = reference
        self.feetShot = feetShot
        self.rephotographCount = rephotographCount
        self.rephotographs = rephotographs
        self.address = address
        self.distance = distance
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(creator, forKey: .creator)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(accuracy, forKey: .accuracy)
        try container.encode(_capturedAt, forKey: .capturedAt)
        try container.encode(_createdAt, forKey: .createdAt)
        try container.encode(attitude, forKey: .attitude)
        try container.encode(heading, forKey: .heading)
        try container.encode(reference, forKey: .reference)
        try container.encode(feetShot, forKey: .feetShot)
        try container.encode(rephotographCount, forKey: .rephotographCount)
        try container.encodeIfPresent(rephotographs, forKey: .rephotographs)
        try container.encode(address, forKey: .address)
        try container.encodeIfPresent(distance, forKey: .distance)
    }

    enum CodingKeys: String, CodingKey {
        case id, name, creator, latitude, longitude, accuracy, capturedAt, createdAt, attitude, heading, reference, feetShot,
             rephotographCount, rephotographs, address, distance
    }
}

/// One photo of a scene's timeline: the reference or a rephotograph, oldest first.
public struct SceneTimelineEntryDTO: Codable, Sendable, Equatable {
    /// `reference` or `rephotograph`.
    public var kind: String
    public var photo: PhotoDTO
    public var attitude: Quaternion
    public var heading: Double?

    public init(kind: String, photo: PhotoDTO, attitude: Quaternion, heading: Double?) {
        self.kind = kind
        self.photo = photo
        self.attitude = attitude
        self.heading = heading
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(photo, forKey: .photo)
        try container.encode(attitude, forKey: .attitude)
        try container.encode(heading, forKey: .heading)
    }

    enum CodingKeys: String, CodingKey { case kind, photo, attitude, heading }
}

/// `GET /api/v1/scenes/{id}/timeline`.
public struct SceneTimelineDTO: Codable, Sendable, Equatable {
    public var items: [SceneTimelineEntryDTO]

    public init(items: [SceneTimelineEntryDTO]) {
        self.items = items
    }
}

/// The `metadata` part of `POST /api/v1/scenes`, as a client writes it.
public struct NewSceneMetadata: Codable, Sendable, Equatable {
    public var name: String?
    public var latitude: Double
    public var longitude: Double
    /// ISO 8601 with its zone ("2026-06-01T10:00:00+02:00").
    public var capturedAt: String
    public var attitude: Quaternion
    public var heading: Double?
    public var accuracy: Double?

    public init(name: String? = nil, latitude: Double, longitude: Double, capturedAt: String, attitude: Quaternion, heading: Double? = nil,
                accuracy: Double? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.capturedAt = capturedAt
        self.attitude = attitude
        self.heading = heading
        self.accuracy = accuracy
    }
}

/// The `metadata` part of `POST /api/v1/scenes/{id}/photos`, as a client writes it.
public struct RephotographMetadata: Codable, Sendable, Equatable {
    /// ISO 8601 with its zone.
    public var capturedAt: String
    public var attitude: Quaternion
    public var heading: Double?
    public var latitude: Double?
    public var longitude: Double?
    public var accuracy: Double?

    public init(capturedAt: String, attitude: Quaternion, heading: Double? = nil, latitude: Double? = nil, longitude: Double? = nil,
                accuracy: Double? = nil) {
        self.capturedAt = capturedAt
        self.attitude = attitude
        self.heading = heading
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }
}
