import Foundation
import WaymarkCore

/// A scene of rephotography (DESIGN §3.9), as the store hands it out: a reference photo, the
/// feet shot (the ground where the photographer stood), the place (the pin as the photographer
/// placed it), the capture time and the phone's attitude and heading at the shutter.
struct Scene: Sendable, Equatable {
    var id: UUID
    var ownerID: UUID
    var name: String?
    var referencePhotoID: UUID
    /// `nil` once the feet shot's photo was deleted through the photo API.
    var feetShotPhotoID: UUID?
    var latitude: Double
    var longitude: Double
    /// Horizontal accuracy of the phone's fix in metres, when it gave one.
    var accuracy: Double?
    var capturedAt: Date
    var attitude: Quaternion
    /// Compass heading in degrees clockwise from true north.
    var heading: Double?
    var createdAt: Date
    /// The `Idempotency-Key` it was created with.
    var idempotencyKey: String?
}

/// A rephotograph: a photo of a scene taken later, with the attitude and heading it was taken at.
struct Rephotograph: Sendable, Equatable {
    var sceneID: UUID
    var photoID: UUID
    var attitude: Quaternion
    var heading: Double?
    /// Who added it (the photo's owner).
    var addedBy: UUID
    var addedAt: Date
    var idempotencyKey: String?
}

/// A nearby search of scenes (DESIGN §3.7's last point).
struct SceneNearbyQuery: Sendable, Equatable {
    var latitude: Double
    var longitude: Double
    /// Metres, 0 < radius ≤ ``NearbyQuery/maximumRadius``.
    var radius: Double = Self.defaultRadius
    var limit: Int = 50
    /// The asking account, whose scenes with a private reference are found too.
    var viewer: UUID?
    /// Where the previous page ended (distance, capture time, id: the same order as photos').
    var after: NearbyCursor?

    static let defaultRadius = 2_500.0
    static let limits = 1...500

    /// The list a cursor of this search belongs to (``CursorSeal``): the place and the radius.
    var cursorBinding: String { ["nearby-scenes", "\(latitude)", "\(longitude)", "\(radius)"].joined(separator: "|") }
}

/// A scene found by a nearby search, with its geodesic distance in metres (rounded to the
/// millimetre, as ``NearbyPhoto`` is, so that both databases order alike).
struct NearbyScene: Sendable, Equatable {
    var scene: Scene
    var distance: Double

    init(scene: Scene, distance: Double) {
        self.scene = scene
        self.distance = (distance * 1_000).rounded() / 1_000
    }

    var cursor: NearbyCursor {
        NearbyCursor(distance: distance, capturedAt: scene.capturedAt.timeIntervalSince1970, id: scene.id)
    }
}
