import Foundation
import WaymarkCore

/// Who may see a photo: everyone (`public`, the default) or only its owner.
enum Visibility: String, Sendable, Codable {
    case `public`
    case `private`
}

/// Where a photo's place came from (#34): a place read from the photo's own GPS tags is
/// published only when its owner says so (`usePhotoPlace`), on upload or when the photo is later
/// made public.
enum PlaceSource: String, Sendable, Codable {
    /// The fields the phone sent with the photo, or a later edit: the owner gave it.
    case client
    /// The photo's own GPS tags.
    case file
}

/// A place on WGS-84, in degrees and metres.
struct Place: Sendable, Equatable {
    var latitude: Double
    var longitude: Double
    var altitude: Double?
    /// Horizontal accuracy in metres, when the phone gave one.
    var accuracy: Double?
}

/// A stored photo, as the stores hand it out (DESIGN §3.6).
struct Photo: Sendable, Equatable {
    var id: UUID
    var ownerID: UUID
    var title: String
    var capturedAt: Date
    var uploadedAt: Date
    var place: Place?
    /// Where ``place`` came from; `client` for photos stored before it was kept.
    var placeSource: PlaceSource = .client
    /// Degrees clockwise from true north that the camera looked.
    var azimuth: Double?
    /// Degrees above the horizon.
    var tilt: Double?
    var width: Int
    var height: Int
    var bytes: Int
    var mime: String
    /// Lowercase hex SHA-256 of the original: the blob it is stored as.
    var sha256: String
    var visibility: Visibility
    /// The `Idempotency-Key` it was uploaded with: a retry with the same key answers this photo.
    var idempotencyKey: String? = nil
    /// The centre of the convex hull of the phone's last fixes (DESIGN §3.10), when it sent one.
    var centroid: PhotoCentroid? = nil
    /// The server's signed receipt (§3.10), made for a new photo before it is stored and stored
    /// with it. Reads leave it out; ``PhotoStore/receipt(of:)`` reads it.
    var receipt: PhotoReceipt? = nil
}

/// An inspection photo's centroid: the centre of the convex hull of the last `samples` fixes,
/// computed on the phone (DESIGN §3.10).
struct PhotoCentroid: Sendable, Equatable {
    /// Degrees, WGS-84, −90…90.
    var latitude: Double
    /// Degrees, WGS-84, −180…180.
    var longitude: Double
    /// How many fixes, 1…``PhotoCentroid/maxSamples``.
    var samples: Int

    static let maxSamples = 1_000
}

/// A nearby search (DESIGN §3.7).
struct NearbyQuery: Sendable, Equatable {
    enum Order: String, Sendable {
        /// Nearest first; among equal distances the most recent first.
        case distance
        /// Newest first within the radius.
        case recent
    }

    var latitude: Double
    var longitude: Double
    /// Metres, 0 < radius ≤ ``maximumRadius``.
    var radius: Double
    var order: Order = .distance
    var limit: Int = 50
    /// Only photos taken at or after / before these instants.
    var from: Date?
    var to: Date?
    /// The asking account, whose private photos are found too.
    var viewer: UUID?
    /// Where the previous page ended.
    var after: NearbyCursor?

    /// 1 mile, seed 004's radius.
    static let defaultRadius = 1_609.344
    /// 50 km.
    static let maximumRadius = 50_000.0
    static let limits = 1...500
}

/// A photo found by a nearby search, with its geodesic distance in metres.
struct NearbyPhoto: Sendable, Equatable {
    var photo: Photo
    /// Rounded to the millimetre, so that two implementations of the geodesic distance (Vincenty's
    /// here, PostGIS's on PostgreSQL), which differ by far less, sort photos the same way.
    var distance: Double

    init(photo: Photo, distance: Double) {
        self.photo = photo
        self.distance = (distance * 1_000).rounded() / 1_000
    }
}

/// Where a page of a nearby search ended: the last answer's sort key.
struct NearbyCursor: Sendable, Equatable, Codable {
    var distance: Double
    /// Unix seconds with fractions.
    var capturedAt: Double
    var id: UUID

    /// Whether `candidate` comes after this cursor in `order`.
    func precedes(_ candidate: NearbyPhoto, in order: NearbyQuery.Order) -> Bool {
        NearbyCursor(candidate).sortsAfter(self, in: order)
    }

    init(distance: Double, capturedAt: Double, id: UUID) {
        self.distance = distance
        self.capturedAt = capturedAt
        self.id = id
    }

    init(_ found: NearbyPhoto) {
        self.init(distance: found.distance, capturedAt: found.photo.capturedAt.timeIntervalSince1970, id: found.photo.id)
    }

    /// Whether this key sorts after `other`: distance ascending (then newest first) or newest first, then id.
    func sortsAfter(_ other: NearbyCursor, in order: NearbyQuery.Order) -> Bool {
        switch order {
        case .distance:
            if distance != other.distance { return distance > other.distance }
            if capturedAt != other.capturedAt { return capturedAt < other.capturedAt }
        case .recent:
            if capturedAt != other.capturedAt { return capturedAt < other.capturedAt }
        }
        return id.uuidString > other.id.uuidString
    }

    /// Whether the position can be one of a search within `radius`: a distance from 0 to the
    /// radius and a finite time (a sealed cursor is one the server gave, but its search may have
    /// been another's; this keeps a store's loops within their bounds whatever the cursor).
    func fits(radius: Double) -> Bool {
        distance.isFinite && capturedAt.isFinite && distance >= 0 && distance <= radius
    }
}

extension NearbyQuery {
    /// The list a cursor of this search belongs to (``CursorSeal``): `kind` (`nearby-photos`,
    /// `nearby-scenes`) and every parameter that decides which photos the search finds and in
    /// what order; the viewer is left out, so a page after signing in or out goes on.
    func cursorBinding(_ kind: String) -> String {
        [kind, "\(latitude)", "\(longitude)", "\(radius)", order.rawValue,
         from.map { "\($0.timeIntervalSince1970)" } ?? "-", to.map { "\($0.timeIntervalSince1970)" } ?? "-"].joined(separator: "|")
    }

    /// Sorts candidates already within the radius, drops those up to the cursor, keeps one page.
    /// - Returns: The page and whether more follow.
    func page(of candidates: [NearbyPhoto]) -> (items: [NearbyPhoto], more: Bool) {
        let rest = rest(of: candidates)
        return (Array(rest.prefix(limit)), rest.count > limit)
    }

    /// The candidates after the cursor, in order.
    func rest(of candidates: [NearbyPhoto]) -> [NearbyPhoto] {
        let sorted = candidates.sorted { NearbyCursor($1).sortsAfter(NearbyCursor($0), in: order) }
        return after.map { cursor in sorted.filter { cursor.precedes($0, in: order) } } ?? sorted
    }

    /// Whether a photo passes the time filter.
    func admits(capturedAt: Date) -> Bool {
        if let from, capturedAt < from { return false }
        if let to, capturedAt > to { return false }
        return true
    }
}
