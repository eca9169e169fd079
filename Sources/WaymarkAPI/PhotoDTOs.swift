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

    public var id: UUID
    public var owner: Owner
    public var title: String
    /// Unix seconds.
    public var capturedAt: Double
    public var uploadedAt: Double
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

    public init(id: UUID, owner: Owner, title: String, capturedAt: Double, uploadedAt: Double, latitude: Double?, longitude: Double?,
                altitude: Double?, accuracy: Double?, azimuth: Double?, tilt: Double?, width: Int, height: Int, bytes: Int, mime: String,
                sha256: String, visibility: String, urls: URLs, distance: Double?) {
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
    }
}
