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
        guard let id = UUID(uuidString: text), let photo = try await photos.photo(id: id), try await Self.mayView(photo, viewer: viewer, on: database)
        else { throw Self.notFound }
        // What the receipt endpoint and the task pages show only to these.
        let privileged = photo.ownerID == viewer?.id || viewer.map { [.officer, .admin].contains($0.role) } == true

        var owners = OwnerCache(accounts: accounts)
        let owner = try await owners.dto(photo, distance: nil, viewer: viewer?.id).owner
        var task: TaskRecord?
        var receipt = PhotoReport.Receipt.notForViewer
        if privileged {
            let tasks = SQLTaskStore(database: database, clock: .system)
            if let link = try await tasks.link(photo: photo.id) { task = try await tasks.task(id: link.task) }
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

    /// `attachment; filename="<title>.pdf"; filename*=UTF-8''<title>.pdf`: the title made safe
    /// for every file system (letters, digits, space, `-`, `_`; runs of anything else one `_`; at
    /// most 80 characters; ASCII in `filename`, the letters of other scripts kept in `filename*`),
    /// else `photo-<date taken>`.
    static func pdfDisposition(_ photo: Photo) -> String {
        var stem = ""
        for character in photo.title {
            let safe = character.isLetter || character.isNumber || character == " " || character == "-" || character == "_"
            let next: Character = safe ? character : "_"
            if next == "_" || next == " ", stem.last == "_" || stem.last == " " || stem.isEmpty { continue }
            stem.append(next)
        }
        stem = String(stem.prefix(80)).trimmingCharacters(in: CharacterSet(charactersIn: " _"))
        if stem.isEmpty {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate]
            stem = "photo-" + formatter.string(from: photo.capturedAt)
        }
        let ascii = String(stem.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || " -_".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
        })
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-_")
        let encoded = stem.addingPercentEncoding(withAllowedCharacters: allowed) ?? ascii
        return "attachment; filename=\"\(ascii).pdf\"; filename*=UTF-8''\(encoded).pdf"
    }
}
