import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import WaymarkAPI
import WaymarkCore
import WaymarkMedia

/// Why an upload was refused; the API words it.
enum UploadProblem: Error, Equatable {
    case notMultipart
    case malformedBody
    case missingPhoto
    case tooLarge
    case field(String, String)
    case notAnImage
    case rawWithoutPreview
    case brokenImage
    case tooManyPixels(width: Int, height: Int)
    case idempotencyKeyReused
}

/// What a client sent with a photo (DESIGN §3.6), checked.
struct PhotoFields: Sendable, Equatable {
    var title: String?
    var capturedAt: Date?
    var place: Place?
    var azimuth: Double?
    var tilt: Double?
    var visibility: Visibility = .public
    /// The owner confirmed that the photo's own GPS position may be published (seed 004's
    /// checkbox); a private photo uses it anyway.
    var usePhotoPlace = false
    /// The zone of `capturedAt` in seconds east of UTC, as the phone wrote it (its local clock).
    var capturedAtOffset: Int?
    /// An inspection photo's centroid (DESIGN §3.10): the form field `centroid`, JSON
    /// `{"latitude": …, "longitude": …, "samples": n}`.
    var centroid: PhotoCentroid?

    /// The times an RFC 3339 date-time in UTC can write (years 1 to 9999): one written at an edge
    /// year with an offset can fall outside them, and is refused.
    static let captureYears = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799)

    /// The form fields a photo upload may carry; any other part is skipped unread.
    static let names: Set<String> = ["title", "capturedAt", "latitude", "longitude", "altitude", "accuracy", "azimuth", "tilt",
                                     "visibility", "centroid", "usePhotoPlace"]

    /// Reads the text fields, naming the first one at fault.
    init(_ fields: [String: String]) throws(UploadProblem) {
        func number(_ name: String, _ range: ClosedRange<Double>) throws(UploadProblem) -> Double? {
            // Absent is none; given, even empty, it must be a number.
            guard let text = fields[name]?.trimmingCharacters(in: .whitespaces) else { return nil }
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw .field(name, "\(name) must be a number from \(range.lowerBound) to \(range.upperBound).")
            }
            return value
        }
        title = fields["title"]?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let title, title.unicodeScalars.count > 200 || AccountRules.hasControlCharacters(fields["title"] ?? "") {
            throw .field("title", "title must be at most 200 characters, with no control characters.")
        }
        if let text = fields["capturedAt"] {
            guard let (date, offset) = InternetTime.read(text) else {
                throw .field("capturedAt", "capturedAt must be an ISO 8601 time with its zone, e.g. 2026-06-01T10:00:00+02:00.")
            }
            guard Self.captureYears.contains(date) else {
                throw .field("capturedAt", "capturedAt must be a time from the year 1 to 9999, e.g. 2026-06-01T10:00:00+02:00.")
            }
            capturedAt = date
            capturedAtOffset = offset
        }
        let latitude = try number("latitude", -90...90), longitude = try number("longitude", -180...180)
        // Checked whether or not a place comes with them: a field given is a field read.
        let altitude = try number("altitude", -1_000...100_000), accuracy = try number("accuracy", 0...100_000)
        switch (latitude, longitude) {
        case let (latitude?, longitude?):
            place = Place(latitude: latitude, longitude: longitude, altitude: altitude, accuracy: accuracy)
        case (nil, nil):
            place = nil
        default:
            throw .field("latitude", "latitude and longitude go together: give both or neither.")
        }
        azimuth = try number("azimuth", 0...360)
        tilt = try number("tilt", -90...90)
        if let text = fields["visibility"] {
            guard let value = Visibility(rawValue: text) else { throw .field("visibility", "visibility must be public or private.") }
            visibility = value
        }
        if let text = fields["centroid"] {
            centroid = try Self.centroid(text)
        }
        switch fields["usePhotoPlace"] {
        case nil, "false": usePhotoPlace = false
        case "true": usePhotoPlace = true
        default: throw .field("usePhotoPlace", "usePhotoPlace must be true or false.")
        }
    }
}

extension PhotoFields {
    /// Reads the `centroid` field: a JSON object of exactly `latitude` (−90…90), `longitude`
    /// (−180…180) and `samples` (a whole number, 1…1000).
    static func centroid(_ text: String) throws(UploadProblem) -> PhotoCentroid {
        let problem = UploadProblem.field("centroid", #"centroid must be JSON {"latitude": −90…90, "longitude": −180…180, "samples": a whole number from 1 to 1000}, e.g. {"latitude":46.05,"longitude":14.5,"samples":10}."#)
        guard let members = try? JSONDecoder().decode([String: Double].self, from: Data(text.utf8)),
              Set(members.keys) == ["latitude", "longitude", "samples"],
              let latitude = members["latitude"], let longitude = members["longitude"], let samples = members["samples"],
              (-90...90).contains(latitude), (-180...180).contains(longitude),
              let count = Int(exactly: samples), (1...PhotoCentroid.maxSamples).contains(count)
        else { throw problem }
        return PhotoCentroid(latitude: latitude, longitude: longitude, samples: count)
    }
}

/// Stores an uploaded photo: checks the file by its bytes, reads its metadata, makes the
/// derivatives off the event loop, keeps the original as a content-addressed blob, and records
/// the photo. Typed outcomes only.
struct PhotoUploader: Sendable {
    let photos: any PhotoStore
    let blobs: any BlobStore
    let media: NIOThreadPool
    let clock: WallClock
    /// Shared with the deletions of ``PhotoController``.
    let locks: BlobLocks
    /// The WebP variants being made.
    let pendingWebP = PendingWork()
    /// Signs each new photo's receipt (DESIGN §3.10) once the receipt area has given it the key.
    let receipts = ReceiptSigner()

    /// The sizes made at upload.
    static let sizes: [(name: String, size: ImageDerivative.Size)] = [("thumb", .thumb), ("medium", .medium), ("large", .large)]
    /// 100 MB.
    static let maxBytes = 100 * 1_000_000

    /// Makes a photo of an uploaded file (already hashed, in a temporary file of the blob store).
    /// The temporary file is adopted as the blob or removed; nothing is left behind on a refusal.
    func store(_ file: MultipartUpload.File, fields: PhotoFields, owner: UUID, idempotencyKey: String? = nil) async throws -> Photo {
        do {
            let (probe, metadata) = try await media.runIfActive { () throws -> (ImageProbe, PhotoMetadata?) in
                let probe: ImageProbe
                do {
                    probe = try ImageProbe.probe(file: file.url)
                } catch let error as ImageError {
                    throw Self.problem(error)
                }
                return (probe, try? PhotoMetadata.read(contentsOf: file.url))
            }
            // Every derivative before anything is stored: a broken image fails here. The blob and
            // the photo that refers to it are stored under the content's lock (``BlobLocks``).
            let sha = file.sha256, blobs = self.blobs, media = self.media, photos = self.photos
            var made = makePhoto(file, probe: probe, metadata: metadata, fields: fields, owner: owner, idempotencyKey: idempotencyKey)
            // Signed before anything is stored, and stored with the photo in one row.
            made.receipt = try receipts.receipt(for: made)
            let photo = made
            return try await locks.withLock(sha) {
                try await media.runIfActive {
                    for (name, size) in Self.sizes where blobs.file(sha256: sha, derivative: name + ".jpg") == nil {
                        let derivative: ImageDerivative
                        do {
                            derivative = try probe.derivative(size)
                        } catch let error as ImageError {
                            throw Self.problem(error)
                        }
                        try blobs.storeDerivative(derivative.data, of: sha, name: name + ".jpg")
                    }
                    try blobs.adopt(file.url, sha256: sha)
                }
                do {
                    try await photos.insert([photo])
                } catch {
                    // Refused (a concurrent retry under the same key stored its photo first, which
                    // the caller's IdempotentWrite answers): the blob goes unless that photo has it.
                    if try await photos.references(sha256: sha) == 0 { try? blobs.delete(sha256: sha) }
                    throw error
                }
                return photo
            }
        } catch {
            // Nothing is left behind: the temporary file is gone once adopted, else removed here.
            try? FileManager.default.removeItem(at: file.url)
            throw error
        }
    }

    /// The WebP variant of a derivative (`thumb`, `medium` or `large`) when it has been made;
    /// otherwise `nil`, and it is made in the background from the original (once, under the
    /// content's lock) and kept beside the JPEG. So the first asker gets the JPEG at once, never
    /// waiting for an encoder, later ones a third fewer bytes, and uploads do not pay for it.
    func webp(sha256 sha: String, size name: String) -> URL? {
        let blobs = self.blobs, media = self.media, locks = self.locks, pending = self.pendingWebP, file = name + ".webp"
        if let made = blobs.file(sha256: sha, derivative: file) { return made }
        guard let size = Self.sizes.first(where: { $0.name == name })?.size, pending.claim(sha + "/" + name) else { return nil }
        Task {
            defer { pending.release(sha + "/" + name) }
            _ = try? await locks.withLock(sha) {
                try await media.runIfActive {
                    // A deletion under the same lock may have come first: then there is nothing to make.
                    guard blobs.file(sha256: sha, derivative: file) == nil, let original = blobs.file(sha256: sha, derivative: nil) else { return }
                    let derivative = try ImageProbe.probe(file: original).derivative(size, encoding: .webp())
                    try blobs.storeDerivative(derivative.data, of: sha, name: file)
                }
            }
        }
        return nil
    }

    private func makePhoto(_ file: MultipartUpload.File, probe: ImageProbe, metadata: PhotoMetadata?, fields: PhotoFields, owner: UUID,
                           idempotencyKey: String?) -> Photo {
        let now = clock.now()
        let cameraTime = metadata?.captureTime
        let captured = fields.capturedAt
            ?? cameraTime.map { Date(timeIntervalSince1970: $0.seconds - Double($0.utcOffset ?? 0)) }
            ?? now
        var place = fields.place, placeSource = PlaceSource.client
        if place == nil, fields.visibility == .private || fields.usePhotoPlace, let gps = metadata?.existingPosition {
            place = Place(latitude: gps.latitude, longitude: gps.longitude)
            placeSource = .file
        }
        var title = fields.title ?? ""
        if title.isEmpty {
            // Seed 004's default: the capture time as the camera (or the phone) read it.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            formatter.timeZone = TimeZone(identifier: "UTC")
            if let cameraTime, fields.capturedAt == nil {
                // The camera's own wall-clock reading.
                title = "PShare: " + formatter.string(from: Date(timeIntervalSince1970: cameraTime.seconds))
            } else {
                // The phone's local time, in the zone it sent (UTC when none is known). The offset
                // is added to the instant rather than given to the formatter as a zone: Foundation
                // on Linux traps on a formatter zone beyond ±14 h, which ISO 8601 allows.
                let offset = Double(fields.capturedAtOffset ?? 0)
                title = "PShare: " + formatter.string(from: captured.addingTimeInterval(offset))
            }
        }
        return Photo(id: UUID(), ownerID: owner, title: title, capturedAt: captured, uploadedAt: now, place: place, placeSource: placeSource,
                     azimuth: fields.azimuth, tilt: fields.tilt, width: probe.displayWidth, height: probe.displayHeight,
                     bytes: file.bytes, mime: probe.mimeType, sha256: file.sha256, visibility: fields.visibility,
                     idempotencyKey: idempotencyKey, centroid: fields.centroid)
    }

    static func problem(_ error: ImageError) -> UploadProblem {
        switch error {
        case .notAnImage: return .notAnImage
        case .rawWithoutPreview: return .rawWithoutPreview
        case .broken, .unreadable: return .brokenImage
        case let .tooManyPixels(width, height, _): return .tooManyPixels(width: width, height: height)
        }
    }
}

/// Keys of work under way, so that each is started once.
final class PendingWork: Sendable {
    private let keys = NIOLockedValueBox<Set<String>>([])

    /// Whether `key` was free (and is now taken).
    func claim(_ key: String) -> Bool { keys.withLockedValue { $0.insert(key).inserted } }

    func release(_ key: String) { _ = keys.withLockedValue { $0.remove(key) } }
}
