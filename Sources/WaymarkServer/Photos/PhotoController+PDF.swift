import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore
import WaymarkMedia

/// `GET /api/v1/photos/{id}.pdf` (DESIGN §3.10): the photo with all of its data, its receipt and a
/// small map, as a PDF to download (``PhotoPDF``). Whoever may see the photo gets it; another
/// account's private photo answers 404, as the photo's JSON does. The receipt and the task are in
/// it for those who may read them elsewhere: the owner, officers and admins. Drawn on the image
/// work's threads, never on the event loop.
extension PhotoController {
    /// The `.pdf` form of `{photo_id}`: Vapor's router matches whole segments, so ``find(_:)`` hands it here.
    static let pdfSuffix = ".pdf"

    func pdf(_ request: Request, id text: String) async throws -> Response {
        let viewer = request.auth.get(SignedInUser.self)?.account
        let database = request.application.serverDatabase
        guard let id = UUID(uuidString: text), let photo = try await photos.photo(id: id), try await mayView(photo, viewer: viewer, on: database)
        else { throw Self.notFound }
        // What the receipt endpoint and the task pages show only to these.
        let privileged = photo.ownerID == viewer?.id || viewer.map { [.officer, .admin].contains($0.role) } == true

        var owners = OwnerCache(accounts: accounts)
        let owner = try await owners.dto(photo, distance: nil, viewer: viewer?.id).owner
        var task: TaskRecord?
        var receipt = PhotoReport.Receipt.notForViewer
        if privileged {
            task = try await claims.task(of: photo.id)
            receipt = try await photos.receipt(of: photo.id).map { .shown($0) } ?? .none
        }
        let places: [PhotoReport.NearbyPlace]? = if let place = photo.place, let gazetteer = await gazetteer.gazetteer() {
            PhotoReport.NearbyPlace.nearest(in: gazetteer, latitude: place.latitude, longitude: place.longitude)
        } else {
            nil
        }
        let image = blobs.file(sha256: photo.sha256, derivative: "large.jpg")
        let logger = request.logger, shown = (task: task, receipt: receipt)
        let document = try await uploader.media.runIfActive { () throws -> Data in
            let data = image.flatMap { try? Data(contentsOf: $0) }
            if data == nil { logger.warning("the photo's large image is missing; its PDF shows none", metadata: ["photo": "\(photo.id)"]) }
            let report = PhotoReport(photo: photo, owner: owner, task: shown.task, receipt: shown.receipt, image: data, places: places)
            return try PhotoPDF.render(report)
        }
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: "application/pdf")
        headers.replaceOrAdd(name: .contentDisposition, value: Self.pdfDisposition(photo))
        headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
        return Response(status: .ok, headers: headers, body: .init(data: document))
    }

    /// `attachment; filename="<title>.pdf"` (``Attachment``), else `photo-<date taken>`.
    static func pdfDisposition(_ photo: Photo) -> String {
        Attachment.disposition(name: photo.title, fallback: "photo-" + Attachment.day(photo.capturedAt), extension: "pdf")
    }
}
