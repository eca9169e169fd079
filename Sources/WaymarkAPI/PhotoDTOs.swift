import Foundation

/// A photo as the API shows it (DESIGN §3.6); `distance` (metres) only in search answers.
public struct PhotoDTO: Codable, Sendable, Equatable {
    /// The owner, as others see them.
    public struct Owner: Codable, Sendable, Equatable {
        public var id: UUID
        public var username: String
        public var displayName: String

        public init(id: UUID, username: String, displayName: String) {
            self.id = id
            self.username = username
            self.displayName = displayName
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id.uuidString.lowercased(), forKey: .id)
            try container.encode(username, forKey: .username)
            try container.encode(displayName, forKey: .displayName)
        }

        enum CodingKeys: String, CodingKey { case id, username, displayName }
    }

    /// Where the image sizes are; `original` only for the owner.
    public struct URLs: Codable, Sendable, Equatable {
        public var thumb: String
        public var medium: String
        public var large: String
        public var original: String?

        public init(thumb: String, medium: String, large: String, original: String?) {
            self.thumb = thumb
            self.medium = medium
            self.large = large
            self.original = original
        }
    }

    /// An inspection photo's centroid (DESIGN §3.10): the centre of the convex hull of the
    /// phone's last `samples` fixes.
    public struct Centroid: Codable, Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var samples: Int

        public init(latitude: Double, longitude: Double, samples: Int) {
            self.latitude = latitude
            self.longitude = longitude
            self.samples = samples
        }
    }

    public var id: UUID
    public var owner: Owner
    public var title: String
    @UTCTime public var capturedAt: Date
    @UTCTime public var uploadedAt: Date
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    public var accuracy: Double?
    public var azimuth: Double?
    public var tilt: Double?
    public var width: Int
    public var height: Int
    public var bytes: Int
    public var mime: String
    public var sha256: String
    /// `public` or `private`.
    public var visibility: String
    public var urls: URLs
    public var distance: Double?
    /// Only when the photo has one.
    public var centroid: Centroid?

    // Ids in lowercase, as in the URLs and the map's GeoJSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(owner, forKey: .owner)
        try container.encode(title, forKey: .title)
        try container.encode(_capturedAt, forKey: .capturedAt)
        try container.encode(_uploadedAt, forKey: .uploadedAt)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(altitude, forKey: .altitude)
        try container.encode(accuracy, forKey: .accuracy)
        try container.encode(azimuth, forKey: .azimuth)
        try container.encode(tilt, forKey: .tilt)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(mime, forKey: .mime)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(visibility, forKey: .visibility)
        try container.encode(urls, forKey: .urls)
        try container.encodeIfPresent(distance, forKey: .distance)
        try container.encodeIfPresent(centroid, forKey: .centroid)
    }

    enum CodingKeys: String, CodingKey {
        case id, owner, title, capturedAt, uploadedAt, latitude, longitude, altitude, accuracy, azimuth, tilt, width, height, bytes, mime,
             sha256, visibility, urls, distance, centroid
    }

    public init(id: UUID, owner: Owner, title: String, capturedAt: Date, uploadedAt: Date, latitude: Double?, longitude: Double?,
                altitude: Double?, accuracy: Double?, azimuth: Double?, tilt: Double?, width: Int, height: Int, bytes: Int, mime: String,
                sha256: String, visibility: String, urls: URLs, distance: Double?, centroid: Centroid? = nil) {
        self.id = id
        self.owner = owner
        self.title = title
        self.capturedAt = capturedAt
        self.uploadedAt = uploadedAt
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
        self.azimuth = azimuth
        self.tilt = tilt
        self.width = width
        self.height = height
        self.bytes = bytes
        self.mime = mime
        self.sha256 = sha256
        self.visibility = visibility
        self.urls = urls
        self.distance = distance
        self.centroid = centroid
    }
}
