import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore

/// `PATCH /api/v1/photos/{id}`: what an owner may change. Absent fields stay as they are;
/// `latitude` and `longitude` null (both) remove the place.
struct PhotoEdit: Decodable, Sendable {
    var title: String?
    var visibility: String?
    /// With `visibility: public`, whether the place may be published (seed 004's checkbox):
    /// `true` publishes it, `false` removes it; absent, a place read from the photo's own GPS tags
    /// is removed and one the owner gave stays.
    var usePhotoPlace: Bool?
    var latitude: Double??
    var longitude: Double??

    enum CodingKeys: String, CodingKey { case title, visibility, usePhotoPlace, latitude, longitude }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Absent leaves them as they are; null is no title or visibility, and is refused.
        title = container.contains(.title) ? try container.decode(String.self, forKey: .title) : nil
        visibility = container.contains(.visibility) ? try container.decode(String.self, forKey: .visibility) : nil
        usePhotoPlace = container.contains(.usePhotoPlace) ? try container.decode(Bool.self, forKey: .usePhotoPlace) : nil
        latitude = container.contains(.latitude) ? .some(try container.decodeNil(forKey: .latitude) ? nil : try container.decode(Double.self, forKey: .latitude)) : nil
        longitude = container.contains(.longitude) ? .some(try container.decodeNil(forKey: .longitude) ? nil : try container.decode(Double.self, forKey: .longitude)) : nil
    }
}

extension PhotoController {
    @Sendable func upload(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        return try await created(try await acceptUpload(request, fields: { fields, _ in fields }), viewer: user.account.id)
    }

    /// Reads, checks and stores the photo of a signed-in user's multipart upload (§3.6), and
    /// returns it; a retry under a used `Idempotency-Key` returns the photo stored the first time.
    /// Other areas that take photos (task evidence, scenes) call this with their own extra checks:
    /// `fields` gets the form's text fields as parsed and as sent, and may refuse them (throwing
    /// an ``APIError`` or an ``UploadProblem``) or add to them; nothing is stored before it returns.
    func acceptUpload(_ request: Request, fields extra: (PhotoFields, [String: String]) throws -> PhotoFields) async throws -> Photo {
        let user = try request.auth.require(SignedInUser.self)
        let key = try IdempotencyKey.of(request)
        let write = try await IdempotentWrite(key: key) { try await photos.photo(owner: user.account.id, idempotencyKey: $0) }
        let temporary = try blobs.makeTemporaryFile()
        do {
            let upload: MultipartUpload
            do {
                upload = try await MultipartUpload.read(request, filePart: "photo", into: temporary, fields: PhotoFields.names,
                                                       maxFileBytes: PhotoUploader.maxBytes)
            } catch let problem as MultipartUpload.Problem {
                throw Self.error(problem)
            }
            guard let file = upload.file else { throw Self.error(.missingPhoto) }
            guard file.bytes > 0 else { throw Self.error(.notAnImage) }
            let fields: PhotoFields
            do {
                fields = try extra(try PhotoFields(upload.fields), upload.fields)
            } catch let problem as UploadProblem {
                throw Self.error(problem)
            }
            // A retry was checked as the first request was (a malformed one is refused, not
            // answered with the photo), and sends the same file.
            let outcome = try await write.answer(sameRequest: { $0.sha256 == file.sha256 }, reused: Self.error(.idempotencyKeyReused)) {
                let photo: Photo
                do {
                    photo = try await uploader.store(file, fields: fields, owner: user.account.id, idempotencyKey: key)
                } catch let problem as UploadProblem {
                    throw Self.error(problem)
                }
                request.logger.info("photo stored", metadata: ["photo": "\(photo.id)", "bytes": "\(photo.bytes)"])
                return photo
            }
            try? FileManager.default.removeItem(at: temporary)
            return outcome.made
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    func created(_ photo: Photo, viewer: UUID) async throws -> Response {
        var owners = OwnerCache(accounts: accounts)
        let response = try Response.json(try await owners.dto(photo, distance: nil, viewer: viewer), status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/photos/\(photo.id.uuidString.lowercased())")
        return response
    }

    @Sendable func image(_ request: Request) async throws -> Response {
        let photo = try await visiblePhoto(request)
        guard let size = request.parameters.get("size"), PhotoUploader.sizes.contains(where: { $0.name == size }),
              let file = blobs.file(sha256: photo.sha256, derivative: size + ".jpg")
        else {
            throw APIError(.notFound, .notFound, "Sizes are thumb, medium and large.")
        }
        let response: Response
        if Self.acceptsWebP(request.headers[.accept]), let webp = uploader.webp(sha256: photo.sha256, size: size) {
            response = try await serve(webp, photo: photo, tag: "\(photo.sha256.prefix(32))-\(size)-webp", type: "image/webp", request: request)
        } else {
            response = try await serve(file, photo: photo, tag: "\(photo.sha256.prefix(32))-\(size)", type: "image/jpeg", request: request)
        }
        // Caches keep the JPEG and the WebP apart.
        response.headers.replaceOrAdd(name: .vary, value: "Accept")
        return response
    }

    /// Whether an `Accept` header names `image/webp` explicitly (as browsers that decode it do;
    /// `*/*` and `image/*` keep the JPEG) with a quality above zero.
    static func acceptsWebP(_ accept: [String]) -> Bool {
        for range in accept.flatMap({ $0.split(separator: ",") }) {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "image/webp" else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
        return false
    }

    @Sendable func original(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        let photo = try await visiblePhoto(request)
        guard photo.ownerID == user.account.id, let file = blobs.file(sha256: photo.sha256, derivative: nil) else { throw Self.notFound }
        let response = try await serve(file, photo: photo, tag: String(photo.sha256.prefix(32)), type: photo.mime, request: request)
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
        return response
    }

    /// A stored image, with a strong ETag from its content, `no-cache` (a cache asks again each
    /// time and gets 304 while the photo may still be seen, so a photo made private is not kept
    /// by a shared cache, #34; `private` for a private photo), and `Range` (Vapor's file
    /// streaming answers 206 and 304).
    private func serve(_ file: URL, photo: Photo, tag: String, type: String, request: Request) async throws -> Response {
        let etag = "\"\(tag)\""
        let caching = photo.visibility == .public ? "public, no-cache" : "private, no-cache"
        if request.headers.first(name: .ifNoneMatch) == etag {
            return Response(status: .notModified, headers: ["ETag": etag, "Cache-Control": caching])
        }
        let response = try await request.fileio.asyncStreamFile(at: file.path)
        response.headers.replaceOrAdd(name: .eTag, value: etag)
        response.headers.replaceOrAdd(name: .contentType, value: type)
        response.headers.replaceOrAdd(name: .cacheControl, value: caching)
        return response
    }

    @Sendable func edit(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        var photo = try await visiblePhoto(request)
        guard photo.ownerID == user.account.id else { throw Self.notFound }
        let edit = try request.decodeJSON(PhotoEdit.self)
        // Evidence sent with an inspection task stays as the agency received it (#34).
        if try await claims.isEvidence(photo.id, on: request.application.serverDatabase) {
            throw Self.photoSent
        }
        let wasPublic = photo.visibility == .public
        if let title = edit.title {
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.unicodeScalars.count <= 200, !AccountRules.hasControlCharacters(title) else {
                throw APIError.badRequest(.invalidTitle, "title must be at most 200 characters, with no control characters.")
            }
            if !trimmed.isEmpty { photo.title = trimmed }
        }
        if let visibility = edit.visibility {
            guard let value = Visibility(rawValue: visibility) else { throw APIError.badRequest(.invalidVisibility, "visibility must be public or private.") }
            photo.visibility = value
        }
        switch (edit.latitude, edit.longitude) {
        case (nil, nil):
            break
        case (.some(nil), .some(nil)):
            photo.place = nil
        case let (.some(latitude?), .some(longitude?)):
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw APIError.badRequest(.invalidPlace, "latitude must be −90 to 90 and longitude −180 to 180.")
            }
            photo.place = Place(latitude: latitude, longitude: longitude)
            photo.placeSource = .client
        default:
            throw APIError.badRequest(.invalidPlace, "latitude and longitude go together: give both, or both null to remove the place.")
        }
        // Made public, a place is published only when the owner says so, as on upload (#34): one
        // read from the photo's own GPS tags needs `usePhotoPlace: true`; `false` removes any.
        if !wasPublic, photo.visibility == .public {
            switch edit.usePhotoPlace {
            case true?: break
            case false?: photo.place = nil
            case nil: if photo.placeSource == .file { photo.place = nil }
            }
        }
        try await photos.update(photo)
        if (photo.visibility == .public) != wasPublic {
            try await follow(photo)
        }
        var owners = OwnerCache(accounts: accounts)
        return try Response.json(try await owners.dto(photo, distance: nil, viewer: user.account.id))
    }

    /// 409 `photo_sent`: the photo is evidence of a task that was sent.
    static let photoSent = APIError(.conflict, .photoSent, "This photo was sent with an inspection task, so it is evidence and can never be changed or deleted.")

    /// Gives the photos that follow `photo` (a scene's feet shot its reference) its visibility.
    private func follow(_ photo: Photo) async throws {
        for id in try await companions.following(photo.id) {
            guard var companion = try await photos.photo(id: id), companion.ownerID == photo.ownerID,
                  companion.visibility != photo.visibility
            else { continue }
            companion.visibility = photo.visibility
            if photo.visibility == .public, companion.placeSource == .file { companion.place = nil }
            try await photos.update(companion)
        }
    }

    @Sendable func delete(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        let photo = try await visiblePhoto(request)
        guard photo.ownerID == user.account.id else { throw Self.notFound }
        do {
            guard try await remove(photo) else { throw Self.notFound }
        } catch PhotoStoreError.evidence {
            throw Self.photoSent
        }
        request.logger.info("photo deleted", metadata: ["photo": "\(photo.id)"])
        return Response(status: .noContent)
    }

    /// Deletes a photo, and its blob when no other photo refers to the same bytes; false when it
    /// was already gone; ``PhotoStoreError/evidence`` for a photo sent with a task, which stays. Under the content's lock, so that an upload of the same bytes cannot lose
    /// its blob in between. Every area that deletes photos (tasks, scenes) deletes them here.
    @discardableResult
    func remove(_ photo: Photo) async throws -> Bool {
        let photos = self.photos, blobs = self.blobs, claims = self.claims
        return try await uploader.locks.withLock(photo.sha256) {
            guard try await photos.delete(id: photo.id, claims: claims) != nil else { return false }
            if try await photos.references(sha256: photo.sha256) == 0 {
                try blobs.delete(sha256: photo.sha256)
            }
            return true
        }
    }

    /// The photo of the path, if the viewer may see it (else 404, as for one that does not exist).
    private func visiblePhoto(_ request: Request) async throws -> Photo {
        guard let id = request.uuidParameter("photo_id"),
              let photo = try await photos.photo(id: id),
              try await mayView(photo, viewer: request.auth.get(SignedInUser.self)?.account, on: request.application.serverDatabase)
        else { throw Self.notFound }
        return photo
    }

    /// Who sees a photo: everyone a public one; its owner a private one; officers and admins also
    /// the private photos of inspection tasks, which they check (DESIGN §3.5, §3.10).
    func mayView(_ photo: Photo, viewer: Account?, on database: ServerDatabase) async throws -> Bool {
        if photo.visibility == .public || photo.ownerID == viewer?.id { return true }
        guard let viewer, viewer.role != .user else { return false }
        return try await claims.staffMaySee(photo.id, on: database)
    }

    static func error(_ problem: MultipartUpload.Problem) -> APIError {
        switch problem {
        case .notMultipart:
            return APIError(.unsupportedMediaType, .unsupportedMediaType, "Send multipart/form-data with the photo in a part named photo.")
        case .malformed:
            return .badRequest(.invalidMultipart, "The multipart body is malformed or incomplete.")
        case .tooLarge:
            return APIError(.payloadTooLarge, .payloadTooLarge, "The photo is larger than 100 MB.")
        case .fieldTooLong(let name):
            return .badRequest(.invalidField, "\(name) is too long.")
        case .tooManyParts:
            return .badRequest(.invalidMultipart, "The form has more than \(MultipartFormLimits.defaultMaxParts) parts; send the photo and its fields only.")
        }
    }

    static func error(_ problem: UploadProblem) -> APIError {
        switch problem {
        case .notMultipart: return error(MultipartUpload.Problem.notMultipart)
        case .malformedBody: return error(MultipartUpload.Problem.malformed)
        case .tooLarge: return error(MultipartUpload.Problem.tooLarge)
        case .missingPhoto: return .badRequest(.missingPhoto, "The part named photo is missing.")
        case let .field(_, reason): return .badRequest(.invalidField, reason)
        case .notAnImage:
            return APIError(.unsupportedMediaType, .notAnImage, "This file is not a JPEG, HEIC, PNG, WebP, TIFF or camera RAW photo, whatever its name says.")
        case .rawWithoutPreview:
            return APIError(.unsupportedMediaType, .rawWithoutPreview,
                            "This camera RAW file has no embedded preview large enough to show, and Waymark does not develop RAW files; upload a JPEG made from it.")
        case .brokenImage:
            return APIError(.unprocessableEntity, .brokenImage, "The image is damaged or incomplete; upload the whole file again.")
        case let .tooManyPixels(width, height):
            return APIError(.payloadTooLarge, .tooManyPixels, "The image has \(width) × \(height) pixels, more than 100 megapixels; scale it down first.")
        case .idempotencyKeyReused:
            return APIError(.conflict, .idempotencyKeyReused, "This Idempotency-Key was used for another photo.")
        }
    }
}
