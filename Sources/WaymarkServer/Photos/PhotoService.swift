import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore

/// The photo area as the other areas use it (DESIGN §3.6): tasks take evidence photos, scenes
/// store their images as photos, receipts are shown to whoever may see the photo. Through this
/// and nothing else, so the photo area alone reads and writes its tables and blobs; what the
/// other areas hold on a photo comes back through their registrations (``claims``,
/// ``companions``).
struct PhotoService: Sendable {
    private let area: PhotoController

    init(_ area: PhotoController) {
        self.area = area
    }

    /// Binds the photo area's own handlers (``PhotoArea``).
    func register(on routes: ContractRoutes) {
        area.register(on: routes)
    }

    /// What other areas hold on photos: evidence, and what officers may see.
    var claims: PhotoClaims { area.claims }
    /// Photos whose visibility follows another's.
    var companions: PhotoCompanions { area.companions }
    /// Where the uploader finds the receipt key (the receipt area sets it).
    var receipts: ReceiptSigner { area.uploader.receipts }
    /// Seals the cursors of lists of things with places.
    var cursors: CursorSeal { area.cursors }

    func photo(id: UUID) async throws -> Photo? {
        try await area.photos.photo(id: id)
    }

    /// The photo an owner uploaded with an `Idempotency-Key`.
    func photo(owner: UUID, idempotencyKey: String) async throws -> Photo? {
        try await area.photos.photo(owner: owner, idempotencyKey: idempotencyKey)
    }

    /// The signed receipt stored with a photo, if it has one.
    func receipt(of photo: UUID) async throws -> PhotoReceipt? {
        try await area.photos.receipt(of: photo)
    }

    /// Whether `viewer` may see `photo` (else the areas answer 404, as for one that does not exist).
    func mayView(_ photo: Photo, viewer: Account?, on database: ServerDatabase) async throws -> Bool {
        try await area.mayView(photo, viewer: viewer, on: database)
    }

    /// A signed-in user's multipart upload of one photo (``PhotoController/acceptUpload(_:fields:)``),
    /// with the calling area's extra checks of its fields.
    func accept(_ request: Request, fields extra: (PhotoFields, [String: String]) throws -> PhotoFields) async throws -> Photo {
        try await area.acceptUpload(request, fields: extra)
    }

    /// Stores a file another area's form read as a photo of `owner`. A failed attempt leaves
    /// nothing of its blob behind; its ``UploadProblem`` is thrown for the area to word.
    func store(_ file: MultipartUpload.File, fields: PhotoFields, owner: UUID) async throws -> Photo {
        do {
            return try await area.uploader.store(file, fields: fields, owner: owner)
        } catch {
            let photos = area.photos, blobs = area.blobs
            try? await area.uploader.locks.withLock(file.sha256) {
                if try await photos.references(sha256: file.sha256) == 0 { try blobs.delete(sha256: file.sha256) }
            }
            throw error
        }
    }

    /// A temporary file beside the blobs, for an area's form to stream an image into.
    func makeTemporaryFile() throws -> URL {
        try area.blobs.makeTemporaryFile()
    }

    /// The 201 answer with the photo, as `POST /api/v1/photos` gives it.
    func created(_ photo: Photo, viewer: UUID) async throws -> Response {
        try await area.created(photo, viewer: viewer)
    }

    /// Deletes a photo and, when no other photo refers to the same bytes, its blob; false when it
    /// was already gone; ``PhotoStoreError/evidence`` for evidence, which stays.
    @discardableResult
    func remove(_ photo: Photo) async throws -> Bool {
        try await area.remove(photo)
    }

    /// The words of an upload's refusal.
    static func error(_ problem: UploadProblem) -> APIError {
        PhotoController.error(problem)
    }
}
