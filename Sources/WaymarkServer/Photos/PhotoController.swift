import Crypto
import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore

/// Photos and places (DESIGN §3.6, §3.7): reading a photo and searching near a place. Browsing
/// needs no account; a signed-in viewer also finds their own private photos. Another account's
/// private photo answers 404, as one that does not exist.
struct PhotoController: Sendable {
    let photos: any PhotoStore
    let accounts: any AccountStore
    let blobs: any BlobStore
    let uploader: PhotoUploader
    /// The gazetteer's places for the maps of photos' PDFs, loaded when the first is asked for.
    let gazetteer: GazetteerLoader
    /// Seals the nearby search's cursors (only those this server gave for the same search are read back).
    let cursors: CursorSeal
    /// Photos whose visibility follows another's (a scene's feet shot), registered by their areas.
    let companions = PhotoCompanions()
    /// What other areas hold on photos (evidence, what officers may see), registered by them.
    let claims = PhotoClaims()

    /// Binds the handlers to the contract's operations (browsing needs no account; writes do).
    func register(on routes: ContractRoutes) {
        routes.on("photosNearby", use: nearby)
        routes.on("photoClusters", use: clusters)
        // Also /api/v1/photos/{id}.pdf (``pdf(_:id:)``): Vapor's router matches whole segments.
        routes.on("getPhoto", use: find)
        routes.on("photoImage", use: image)
        routes.on("uploadPhoto", body: .stream, use: upload)
        routes.on("photoOriginal", use: original)
        routes.on("editPhoto", use: edit)
        routes.on("deletePhoto", use: delete)
    }

    @Sendable func find(_ request: Request) async throws -> Response {
        if let parameter = request.parameters.get("photo_id"), parameter.hasSuffix(Self.pdfSuffix) {
            return try await pdf(request, id: String(parameter.dropLast(Self.pdfSuffix.count)))
        }
        let viewer = request.auth.get(SignedInUser.self)?.account
        guard let id = request.uuidParameter("photo_id"),
              let photo = try await photos.photo(id: id), try await mayView(photo, viewer: viewer, on: request.application.serverDatabase)
        else { throw Self.notFound }
        var owners = OwnerCache(accounts: accounts)
        return try Response.json(try await owners.dto(photo, distance: nil, viewer: viewer?.id))
    }

    @Sendable func nearby(_ request: Request) async throws -> Response {
        let query = try Self.query(request, viewer: request.auth.get(SignedInUser.self)?.account.id, cursors: cursors)
        let page = try await photos.nearby(query)
        var owners = OwnerCache(accounts: accounts)
        var items: [PhotoDTO] = []
        for found in page.items {
            items.append(try await owners.dto(found.photo, distance: found.distance, viewer: query.viewer))
        }
        let next = page.more ? page.items.last.map { cursors.text(NearbyCursor($0), binding: query.cursorBinding(Self.cursorKind)) } : nil
        return try Response.json(WaymarkAPI.Page(items: items, next: next))
    }

    @Sendable func clusters(_ request: Request) async throws -> Response {
        guard let z = request.parameters.get("z").flatMap(Int.init), let x = request.parameters.get("x").flatMap(Int.init),
              let y = request.parameters.get("y").flatMap(Int.init), let tile = MapTile(z: z, x: x, y: y)
        else {
            throw APIError(.notFound, .notFound, "Tiles are /api/v1/photos/clusters/{z}/{x}/{y} with z 0–20 and x, y 0 to 2^z − 1.")
        }
        let viewer = request.auth.get(SignedInUser.self)?.account.id
        let body = PhotoClusters.geoJSON(try await photos.markers(of: tile, viewer: viewer))
        let etag = "\"" + SHA256.hash(data: body).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        let cache = viewer == nil ? "public, max-age=60" : "private, max-age=60"
        if request.headers.first(name: .ifNoneMatch) == etag {
            return Response(status: .notModified, headers: ["ETag": etag, "Cache-Control": cache])
        }
        return Response(status: .ok, headers: ["Content-Type": "application/geo+json", "ETag": etag, "Cache-Control": cache], body: .init(data: body))
    }

    static let notFound = APIError(.notFound, .notFound, "No photo has this id.")

    /// Reads and checks the search parameters, naming the one at fault.
    /// What the nearby search's cursors are bound to (``NearbyQuery/cursorBinding(_:)``).
    static let cursorKind = "nearby-photos"

    static func query(_ request: Request, viewer: UUID?, cursors: CursorSeal) throws -> NearbyQuery {
        func number(_ name: String) throws -> Double? {
            guard let text = try? request.query.get(String.self, at: name) else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw APIError.badRequest(.invalidQuery, "\(name) must be a number.")
            }
            return value
        }
        guard let latitude = try number("latitude"), let longitude = try number("longitude") else {
            throw APIError.badRequest(.invalidQuery, "latitude and longitude are required: ?latitude=46.05&longitude=14.5.")
        }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw APIError.badRequest(.invalidQuery, "latitude must be −90 to 90 and longitude −180 to 180.")
        }
        let radius = try number("radius") ?? NearbyQuery.defaultRadius
        guard radius > 0, radius <= NearbyQuery.maximumRadius else {
            throw APIError.badRequest(.invalidQuery, "radius must be more than 0 and at most \(Int(NearbyQuery.maximumRadius)) metres.")
        }
        var query = NearbyQuery(latitude: latitude, longitude: longitude, radius: radius, viewer: viewer)
        if let sort = try? request.query.get(String.self, at: "sort") {
            guard let order = NearbyQuery.Order(rawValue: sort) else {
                throw APIError.badRequest(.invalidQuery, "sort must be distance or recent.")
            }
            query.order = order
        }
        if let limit = try number("limit") {
            guard let whole = Int(exactly: limit), NearbyQuery.limits.contains(whole) else {
                throw APIError.badRequest(.invalidQuery, "limit must be a whole number from 1 to 500.")
            }
            query.limit = whole
        }
        query.from = try request.queryInstant("from")
        query.to = try request.queryInstant("to")
        if let text = try? request.query.get(String.self, at: "cursor"), !text.isEmpty {
            guard let cursor = cursors.open(NearbyCursor.self, from: text, binding: query.cursorBinding(Self.cursorKind)),
                  cursor.fits(radius: query.radius)
            else { throw APIError.invalidCursor }
            query.after = cursor
        }
        return query
    }
}


/// Owners of the photos of one answer, each read once.
struct OwnerCache {
    let accounts: any AccountStore
    private var known: [UUID: PhotoDTO.Owner] = [:]

    init(accounts: any AccountStore) {
        self.accounts = accounts
    }

    mutating func dto(_ photo: Photo, distance: Double?, viewer: UUID?) async throws -> PhotoDTO {
        let owner: PhotoDTO.Owner
        if let cached = known[photo.ownerID] {
            owner = cached
        } else {
            let account = try await accounts.account(id: photo.ownerID)
            owner = PhotoDTO.Owner(id: photo.ownerID, username: account?.username ?? "", displayName: account?.displayName ?? "")
            known[photo.ownerID] = owner
        }
        let base = "/api/v1/photos/\(photo.id.uuidString.lowercased())"
        return PhotoDTO(
            id: photo.id, owner: owner, title: photo.title, capturedAt: photo.capturedAt,
            uploadedAt: photo.uploadedAt, latitude: photo.place?.latitude, longitude: photo.place?.longitude,
            altitude: photo.place?.altitude, accuracy: photo.place?.accuracy, azimuth: photo.azimuth, tilt: photo.tilt,
            width: photo.width, height: photo.height, bytes: photo.bytes, mime: photo.mime, sha256: photo.sha256,
            visibility: photo.visibility.rawValue,
            urls: PhotoDTO.URLs(thumb: base + "/image/thumb", medium: base + "/image/medium", large: base + "/image/large",
                                original: photo.ownerID == viewer ? base + "/original" : nil),
            distance: distance,
            centroid: photo.centroid.map { PhotoDTO.Centroid(latitude: $0.latitude, longitude: $0.longitude, samples: $0.samples) }
        )
    }
}
