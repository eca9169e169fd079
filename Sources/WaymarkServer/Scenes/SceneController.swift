import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore

/// Scenes of rephotography (DESIGN §3.9): finding scenes near a place, a scene's page and its
/// timeline need no account; creating a scene, adding a rephotograph, one's own scenes and
/// deletions need one. The images are photos of §3.6 (the Scene JSON embeds Photo JSON), so
/// serving them, their privacy and their blobs are the photo area's. A scene whose reference
/// photo its owner made private is theirs alone: to anyone else it answers 404.
struct SceneController: Sendable {
    let scenes: any SceneStore
    /// The photo area: the scenes' images are its photos, stored, read and deleted through it.
    let photos: PhotoService
    let accounts: any AccountStore
    let addresses: SceneAddresses
    let clock: WallClock
    /// Seals the lists' cursors (only those this server gave for the same list are read back).
    let cursors: CursorSeal

    func register(on routes: ContractRoutes) {
        routes.on("scenesNearby", use: nearby)
        routes.on("getScene", use: find)
        routes.on("sceneTimeline", use: timeline)
        routes.on("createScene", body: .stream, use: create)
        routes.on("addRephotograph", body: .stream, use: addRephotograph)
        routes.on("deleteScene", use: delete)
        routes.on("removeRephotograph", use: removeRephotograph)
        routes.on("myScenes", use: mine)
    }

    static let notFound = APIError(.notFound, .notFound, "No scene has this id.")

    // MARK: Reading

    @Sendable func nearby(_ request: Request) async throws -> Response {
        let viewer = request.auth.get(SignedInUser.self)?.account.id
        let query = try Self.query(request, viewer: viewer, cursors: cursors)
        let page = try await scenes.nearby(query)
        var owners = OwnerCache(accounts: accounts)
        let counts = try await scenes.rephotographCounts(scenes: page.items.map(\.scene.id), viewer: viewer)
        var items: [SceneDTO] = []
        for found in page.items {
            guard let dto = try await dto(found.scene, viewer: viewer, distance: found.distance, count: counts[found.scene.id] ?? 0,
                                          rephotographs: false, owners: &owners)
            else { continue }
            items.append(dto)
        }
        let next = page.more ? page.items.last.map { cursors.text($0.cursor, binding: query.cursorBinding) } : nil
        return try Response.json(WaymarkAPI.Page(items: items, next: next))
    }

    @Sendable func find(_ request: Request) async throws -> Response {
        let viewer = request.auth.get(SignedInUser.self)?.account.id
        let scene = try await visibleScene(request, viewer: viewer)
        var distance: Double?
        if let from = try Self.position(request) {
            distance = NearbyScene(scene: scene, distance: Geodesy.distance((from.latitude, from.longitude), (scene.latitude, scene.longitude))).distance
        }
        var owners = OwnerCache(accounts: accounts)
        let language = StreetAddresses.language(acceptLanguage: request.headers.first(name: .acceptLanguage))
        guard let dto = try await dto(scene, viewer: viewer, distance: distance, count: nil, rephotographs: true, streetLanguage: language,
                                      owners: &owners) else {
            throw Self.notFound
        }
        return try Response.json(dto)
    }

    @Sendable func timeline(_ request: Request) async throws -> Response {
        let viewer = request.auth.get(SignedInUser.self)?.account.id
        let scene = try await visibleScene(request, viewer: viewer)
        var owners = OwnerCache(accounts: accounts)
        guard let reference = try await visiblePhoto(scene.referencePhotoID, viewer: viewer) else { throw Self.notFound }
        var entries: [(photo: Photo, entry: SceneTimelineEntryDTO)] = [
            (reference, SceneTimelineEntryDTO(kind: "reference", photo: try await owners.dto(reference, distance: nil, viewer: viewer),
                                              attitude: scene.attitude, heading: scene.heading)),
        ]
        for rephotograph in try await scenes.rephotographs(scene: scene.id) {
            guard let photo = try await visiblePhoto(rephotograph.photoID, viewer: viewer) else { continue }
            entries.append((photo, SceneTimelineEntryDTO(kind: "rephotograph", photo: try await owners.dto(photo, distance: nil, viewer: viewer),
                                                         attitude: rephotograph.attitude, heading: rephotograph.heading)))
        }
        // Oldest first; the reference before a rephotograph taken at the same instant.
        let sorted = entries.enumerated().sorted { a, b in
            a.element.photo.capturedAt != b.element.photo.capturedAt ? a.element.photo.capturedAt < b.element.photo.capturedAt : a.offset < b.offset
        }
        return try Response.json(SceneTimelineDTO(items: sorted.map(\.element.entry)))
    }

    @Sendable func mine(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self).account.id
        let limit = try request.queryLimit(SceneNearbyQuery.limits, otherwise: 50)
        var cursor: SceneListCursor?
        if let text = try? request.query.get(String.self, at: "cursor"), !text.isEmpty {
            guard let value = cursors.open(SceneListCursor.self, from: text, binding: SceneListCursor.binding(owner: user)), value.createdAt.isFinite
            else { throw APIError.invalidCursor }
            cursor = value
        }
        let found = try await scenes.scenes(owner: user, after: cursor, limit: limit + 1)
        let page = Array(found.prefix(limit))
        let counts = try await scenes.rephotographCounts(scenes: page.map(\.id), viewer: user)
        var owners = OwnerCache(accounts: accounts)
        var items: [SceneDTO] = []
        for scene in page {
            guard let dto = try await dto(scene, viewer: user, distance: nil, count: counts[scene.id] ?? 0, rephotographs: false, owners: &owners)
            else { continue }
            items.append(dto)
        }
        let next = found.count > limit ? page.last.map { cursors.text(SceneListCursor(createdAt: $0.createdAt.timeIntervalSince1970, id: $0.id), binding: SceneListCursor.binding(owner: user)) } : nil
        return try Response.json(WaymarkAPI.Page(items: items, next: next))
    }

    // MARK: Helpers

    /// The scene of the path, if the viewer may see its reference photo (else 404, as for one that does not exist).
    func visibleScene(_ request: Request, viewer: UUID?) async throws -> Scene {
        guard let id = request.uuidParameter("scene_id"), let scene = try await scenes.scene(id: id),
              try await visiblePhoto(scene.referencePhotoID, viewer: viewer) != nil
        else { throw Self.notFound }
        return scene
    }

    /// A photo the viewer may see.
    func visiblePhoto(_ id: UUID, viewer: UUID?) async throws -> Photo? {
        guard let photo = try await photos.photo(id: id), photo.visibility == .public || photo.ownerID == viewer else { return nil }
        return photo
    }

    /// The Scene JSON; `nil` when the viewer may not see the reference photo. `count` is the
    /// number of rephotographs when known; with `rephotographs` they are listed (and counted).
    /// `streetLanguage` asks for the street address too (a scene's own page, see ``SceneAddresses``).
    func dto(_ scene: Scene, viewer: UUID?, distance: Double?, count: Int?, rephotographs listed: Bool,
             streetLanguage: String? = nil, owners: inout OwnerCache) async throws -> SceneDTO? {
        guard let reference = try await visiblePhoto(scene.referencePhotoID, viewer: viewer) else { return nil }
        let referenceDTO = try await owners.dto(reference, distance: nil, viewer: viewer)
        var feetShot: PhotoDTO?
        if let id = scene.feetShotPhotoID, let photo = try await visiblePhoto(id, viewer: viewer) {
            feetShot = try await owners.dto(photo, distance: nil, viewer: viewer)
        }
        var list: [RephotographDTO]?
        if listed {
            var items: [RephotographDTO] = []
            for rephotograph in try await scenes.rephotographs(scene: scene.id) {
                guard let photo = try await visiblePhoto(rephotograph.photoID, viewer: viewer) else { continue }
                items.append(RephotographDTO(photo: try await owners.dto(photo, distance: nil, viewer: viewer), attitude: rephotograph.attitude,
                                             heading: rephotograph.heading, addedAt: rephotograph.addedAt))
            }
            list = items
        }
        return SceneDTO(
            id: scene.id, name: scene.name, creator: referenceDTO.owner, latitude: scene.latitude, longitude: scene.longitude,
            accuracy: scene.accuracy, capturedAt: scene.capturedAt, createdAt: scene.createdAt,
            attitude: scene.attitude, heading: scene.heading, reference: referenceDTO, feetShot: feetShot,
            rephotographCount: list?.count ?? count ?? 0, rephotographs: list,
            address: await addresses.address(latitude: scene.latitude, longitude: scene.longitude, streetLanguage: streetLanguage),
            distance: distance)
    }

    /// `latitude` and `longitude` of the query, both or neither.
    static func position(_ request: Request) throws -> (latitude: Double, longitude: Double)? {
        let latitude = try number(request, "latitude"), longitude = try number(request, "longitude")
        switch (latitude, longitude) {
        case (nil, nil):
            return nil
        case let (latitude?, longitude?):
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw APIError.badRequest(.invalidQuery, "latitude must be −90 to 90 and longitude −180 to 180.")
            }
            return (latitude, longitude)
        default:
            throw APIError.badRequest(.invalidQuery, "latitude and longitude go together: give both or neither.")
        }
    }

    private static func number(_ request: Request, _ name: String) throws -> Double? {
        guard let text = try? request.query.get(String.self, at: name) else { return nil }
        guard let value = Double(text), value.isFinite else { throw APIError.badRequest(.invalidQuery, "\(name) must be a number.") }
        return value
    }

    /// Reads and checks a nearby search, naming the parameter at fault.
    static func query(_ request: Request, viewer: UUID?, cursors: CursorSeal) throws -> SceneNearbyQuery {
        guard let position = try position(request) else {
            throw APIError.badRequest(.invalidQuery, "latitude and longitude are required: ?latitude=49.195&longitude=16.608.")
        }
        var query = SceneNearbyQuery(latitude: position.latitude, longitude: position.longitude, viewer: viewer)
        if let radius = try number(request, "radius") {
            guard radius > 0, radius <= NearbyQuery.maximumRadius else {
                throw APIError.badRequest(.invalidQuery, "radius must be more than 0 and at most \(Int(NearbyQuery.maximumRadius)) metres.")
            }
            query.radius = radius
        }
        if let limit = try number(request, "limit") {
            guard let whole = Int(exactly: limit), SceneNearbyQuery.limits.contains(whole) else {
                throw APIError.badRequest(.invalidQuery, "limit must be a whole number from 1 to 500.")
            }
            query.limit = whole
        }
        if let text = try? request.query.get(String.self, at: "cursor"), !text.isEmpty {
            guard let cursor = cursors.open(NearbyCursor.self, from: text, binding: query.cursorBinding), cursor.fits(radius: query.radius)
            else { throw APIError.invalidCursor }
            query.after = cursor
        }
        return query
    }
}
