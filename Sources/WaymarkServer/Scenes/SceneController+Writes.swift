import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore

extension SceneController {
    /// `POST /api/v1/scenes`: a scene from its `metadata`, `image` (the reference) and `feetShot`.
    /// All or nothing: when either image is refused or anything else fails, the photo stored
    /// first is deleted again, with its blob when nothing else refers to it.
    @Sendable func create(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self).account.id
        let key = try IdempotencyKey.of(request)
        let write = try await IdempotentWrite(key: key) { try await scenes.scene(owner: user, idempotencyKey: $0) }
        let temporary = ["image": try photos.makeTemporaryFile(), "feetShot": try photos.makeTemporaryFile()]
        // A temporary file is gone once adopted as a blob; any other is removed here.
        defer { for url in temporary.values { try? FileManager.default.removeItem(at: url) } }
        let upload = try await read(request, files: temporary)
        let metadata: SceneMetadata
        do {
            metadata = try SceneMetadata.scene(try Self.metadataText(upload))
        } catch let problem as SceneMetadata.Problem {
            throw APIError.badRequest(.invalidMetadata, problem.reason)
        }
        let image = try Self.file(upload, "image"), feetShot = try Self.file(upload, "feetShot")
        // A retry was checked as the first request was (a malformed one is refused, not
        // answered with the scene), and asks for the same scene: its name, place and time.
        let outcome = try await write.answer(
            sameRequest: { stored in
                stored.name == metadata.name && stored.latitude == (metadata.latitude ?? 0) && stored.longitude == (metadata.longitude ?? 0)
                    && abs(stored.capturedAt.timeIntervalSince(metadata.capturedAt)) < 0.001
            },
            reused: APIError(.conflict, .idempotencyKeyReused, "This Idempotency-Key was used for another scene; send a new scene under a new key.")
        ) {
            let place = Place(latitude: metadata.latitude ?? 0, longitude: metadata.longitude ?? 0, accuracy: metadata.accuracy)
            var fields = try PhotoFields([:])
            fields.title = metadata.name
            fields.capturedAt = metadata.capturedAt
            fields.capturedAtOffset = metadata.capturedAtOffset
            fields.place = place
            fields.azimuth = metadata.heading
            let reference = try await store(image, part: "image", fields: fields, owner: user)
            var feetFields = try PhotoFields([:])
            feetFields.place = place
            let feet: Photo
            do {
                feet = try await store(feetShot, part: "feetShot", fields: feetFields, owner: user)
            } catch {
                try await discard(reference)
                throw error
            }
            let scene = Scene(id: UUID(), ownerID: user, name: metadata.name, referencePhotoID: reference.id, feetShotPhotoID: feet.id,
                              latitude: place.latitude, longitude: place.longitude, accuracy: metadata.accuracy, capturedAt: metadata.capturedAt,
                              attitude: metadata.attitude, heading: metadata.heading, createdAt: clock.now(), idempotencyKey: key)
            do {
                try await scenes.insert(scene)
            } catch {
                try await discard(reference)
                try await discard(feet)
                throw error
            }
            request.logger.info("scene created", metadata: ["scene": "\(scene.id)"])
            return scene
        }
        return try await created(outcome.made, viewer: user)
    }

    /// `POST /api/v1/scenes/{id}/photos`: a rephotograph from its `metadata` and `image`; anyone
    /// signed in may add one to a scene they can see.
    @Sendable func addRephotograph(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self).account.id
        let scene = try await visibleScene(request, viewer: user)
        let key = try IdempotencyKey.of(request)
        let write = try await IdempotentWrite(key: key) { try await scenes.rephotograph(addedBy: user, idempotencyKey: $0) }
        let temporary = try photos.makeTemporaryFile()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let upload = try await read(request, files: ["image": temporary])
        let metadata: SceneMetadata
        do {
            metadata = try SceneMetadata.rephotograph(try Self.metadataText(upload))
        } catch let problem as SceneMetadata.Problem {
            throw APIError.badRequest(.invalidMetadata, problem.reason)
        }
        let image = try Self.file(upload, "image")
        let outcome = try await write.answer(
            sameRequest: { $0.sceneID == scene.id },
            reused: APIError(.conflict, .idempotencyKeyReused, "This Idempotency-Key was used for a rephotograph of another scene.")
        ) {
            var fields = try PhotoFields([:])
            fields.capturedAt = metadata.capturedAt
            fields.capturedAtOffset = metadata.capturedAtOffset
            fields.azimuth = metadata.heading
            // Where the phone was, else the scene's place: a rephotograph is taken where the scene was.
            fields.place = Place(latitude: metadata.latitude ?? scene.latitude, longitude: metadata.longitude ?? scene.longitude,
                                 accuracy: metadata.latitude == nil ? scene.accuracy : metadata.accuracy)
            let photo = try await store(image, part: "image", fields: fields, owner: user)
            let rephotograph = Rephotograph(sceneID: scene.id, photoID: photo.id, attitude: metadata.attitude, heading: metadata.heading,
                                            addedBy: user, addedAt: clock.now(), idempotencyKey: key)
            do {
                try await scenes.addRephotograph(rephotograph)
            } catch {
                try await discard(photo)
                // The scene was deleted meanwhile.
                guard try await scenes.scene(id: scene.id) != nil else { throw Self.notFound }
                throw error
            }
            request.logger.info("rephotograph added", metadata: ["scene": "\(scene.id)", "photo": "\(photo.id)"])
            return rephotograph
        }
        return try await createdRephotograph(outcome.made, viewer: user)
    }

    /// `DELETE /api/v1/scenes/{id}`: its creator deletes it, with its photos (the reference, the
    /// feet shot and the rephotographs) and their blobs when nothing else refers to them.
    @Sendable func delete(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self).account.id
        let scene = try await visibleScene(request, viewer: user)
        guard scene.ownerID == user else { throw Self.notFound }
        let photoIDs = [scene.referencePhotoID] + (scene.feetShotPhotoID.map { [$0] } ?? [])
            + (try await scenes.rephotographs(scene: scene.id)).map(\.photoID)
        guard try await scenes.delete(id: scene.id) else { throw Self.notFound }
        // The creator's own photos go with the scene; others' rephotographs stay theirs, as
        // photos of their own (out of the scene).
        for id in photoIDs where try await scenes.references(photo: id) == 0 {
            if let photo = try await photos.photo(id: id), photo.ownerID == user { try await discard(photo) }
        }
        request.logger.info("scene deleted", metadata: ["scene": "\(scene.id)"])
        return Response(status: .noContent)
    }

    /// `DELETE /api/v1/scenes/{id}/photos/{photo_id}`: the rephotograph's author or the scene's
    /// creator takes it out of the scene; the photo and its blob go with it when it is the
    /// requester's own (another's rephotograph stays theirs, out of the scene).
    @Sendable func removeRephotograph(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self).account.id
        let scene = try await visibleScene(request, viewer: user)
        guard let photoID = request.uuidParameter("photo_id") else { throw Self.rephotographNotFound }
        if scene.ownerID == user, photoID == scene.referencePhotoID || photoID == scene.feetShotPhotoID {
            throw APIError(.conflict, .partOfScene, "The reference photo and the feet shot make the scene; delete the scene itself (DELETE /api/v1/scenes/\(scene.id.uuidString.lowercased())).")
        }
        guard let rephotograph = try await scenes.rephotographs(scene: scene.id).first(where: { $0.photoID == photoID }),
              rephotograph.addedBy == user || scene.ownerID == user,
              try await visiblePhoto(photoID, viewer: user) != nil || scene.ownerID == user
        else { throw Self.rephotographNotFound }
        guard try await scenes.removeRephotograph(scene: scene.id, photo: photoID) else { throw Self.rephotographNotFound }
        if try await scenes.references(photo: photoID) == 0, let photo = try await photos.photo(id: photoID), photo.ownerID == user {
            try await discard(photo)
        }
        request.logger.info("rephotograph removed", metadata: ["scene": "\(scene.id)", "photo": "\(photoID)"])
        return Response(status: .noContent)
    }

    static let rephotographNotFound = APIError(.notFound, .notFound, "This scene has no rephotograph with this id that you may remove.")

    // MARK: Helpers

    private func created(_ scene: Scene, viewer: UUID) async throws -> Response {
        var owners = OwnerCache(accounts: accounts)
        guard let dto = try await dto(scene, viewer: viewer, distance: nil, count: nil, rephotographs: true, owners: &owners) else {
            throw Self.notFound
        }
        let response = try Response.json(dto, status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/scenes/\(scene.id.uuidString.lowercased())")
        return response
    }

    private func createdRephotograph(_ rephotograph: Rephotograph, viewer: UUID) async throws -> Response {
        guard let photo = try await photos.photo(id: rephotograph.photoID) else { throw Self.notFound }
        var owners = OwnerCache(accounts: accounts)
        let dto = RephotographDTO(photo: try await owners.dto(photo, distance: nil, viewer: viewer), attitude: rephotograph.attitude,
                                  heading: rephotograph.heading, addedAt: rephotograph.addedAt)
        let response = try Response.json(dto, status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/scenes/\(rephotograph.sceneID.uuidString.lowercased())")
        return response
    }

    /// Reads the multipart body: the file parts into their temporary files, and `metadata`.
    private func read(_ request: Request, files: [String: URL]) async throws -> MultipartUpload {
        do {
            return try await MultipartUpload.read(request, files: files, fields: ["metadata": SceneMetadata.maxBytes], maxFileBytes: PhotoUploader.maxBytes)
        } catch let problem as MultipartUpload.Problem {
            throw Self.error(problem, parts: files.keys.sorted())
        }
    }

    private static func metadataText(_ upload: MultipartUpload) throws -> String {
        guard let text = upload.fields["metadata"] else {
            throw APIError.badRequest(.missingMetadata, "The part named metadata is missing: a JSON object with the place, the capture time and the attitude.")
        }
        return text
    }

    private static func file(_ upload: MultipartUpload, _ part: String) throws -> MultipartUpload.File {
        guard let file = upload.files[part] else { throw APIError.badRequest(.missingImage, "The part named \(part) is missing.") }
        guard file.bytes > 0 else { throw Self.error(.notAnImage, part: part) }
        return file
    }

    /// Stores one image as a photo; a refusal names the part. Anything a failed attempt left of
    /// its blob (a derivative made before the image turned out broken) is removed.
    private func store(_ file: MultipartUpload.File, part: String, fields: PhotoFields, owner: UUID) async throws -> Photo {
        do {
            return try await photos.store(file, fields: fields, owner: owner)
        } catch let problem as UploadProblem {
            throw Self.error(problem, part: part)
        }
    }

    /// Deletes a photo stored for a scene, and its blob when no photo refers to it any more, as
    /// the photo area deletes photos. Tried three times: a scene that failed must not leave its
    /// photo behind because of a passing database error (PostgreSQL may pick any transaction as a
    /// deadlock's victim, or end a connection).
    func discard(_ photo: Photo) async throws {
        var attempt = 0
        while true {
            do {
                try await photos.remove(photo)
                return
            } catch {
                attempt += 1
                guard attempt < 3 else { throw error }
                try await Task.sleep(for: .milliseconds(20 * attempt))
            }
        }
    }

    static func error(_ problem: UploadProblem, part: String) -> APIError {
        var error = PhotoService.error(problem)
        error.reason = "\(part): \(error.reason)"
        return error
    }

    static func error(_ problem: MultipartUpload.Problem, parts: [String]) -> APIError {
        switch problem {
        case .notMultipart:
            let names = (["metadata"] + parts.sorted { $0 == "image" || $1 != "image" }).joined(separator: ", ")
            return APIError(.unsupportedMediaType, .unsupportedMediaType, "Send multipart/form-data with the parts \(names).")
        case .malformed:
            return .badRequest(.invalidMultipart, "The multipart body is malformed or incomplete.")
        case .tooLarge:
            return APIError(.payloadTooLarge, .payloadTooLarge, "An image is larger than 100 MB.")
        case .fieldTooLong(let name):
            return .badRequest(.invalidMetadata, "\(name) is longer than \(SceneMetadata.maxBytes) bytes.")
        case .tooManyParts:
            return .badRequest(.invalidMultipart, "The form has more than \(MultipartFormLimits.defaultMaxParts) parts; send only \((["metadata"] + parts).joined(separator: ", ")).")
        }
    }
}
