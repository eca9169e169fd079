import Foundation
import WaymarkCore

/// A photo file found in the folders, and what its first read found out.
struct InspectedPhoto: Sendable {
    var url: URL
    /// The path shown to the user: the folder as given plus the path inside it.
    var displayName: String
    var metadata: PhotoMetadata?
    var camera: CameraTime?
    var qrCodes: [QRPayload] = []
    /// The image the QR codes were read in (an embedded thumbnail or preview, or the full image).
    var qrImage: QRImageSource?
    var error: String?

    /// Takes what the QR search of the photo found.
    mutating func found(_ search: QRPhotoSearch) {
        qrCodes = search.payloads
        qrImage = search.source
    }
}

extension Geotagger {
    /// File extensions of the photos Waymark looks at (exiv2 reads them; writes most, sidecars the rest).
    public static let photoExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "tif", "tiff", "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "sr2", "srf",
        "orf", "rw2", "pef", "raf", "srw", "heic", "heif",
    ]

    /// The photos in the folders, sorted by path; hidden files, sidecars and leftovers are skipped.
    static func collectPhotos(in folders: [URL], recursive: Bool) throws -> [(url: URL, displayName: String)] {
        var found: [(URL, String)] = []
        let manager = FileManager.default
        for folder in folders {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
                throw GeotagError("\(folder.relativePath) does not exist. Give the folder that holds the photos.")
            }
            let base = folder.relativePath.hasSuffix("/") ? String(folder.relativePath.dropLast()) : folder.relativePath
            guard isDirectory.boolValue else {
                // A single photo given directly.
                found.append((folder, base))
                continue
            }
            var relatives: [String] = []
            if recursive {
                guard let enumerator = manager.enumerator(atPath: folder.path) else { continue }
                while let relative = enumerator.nextObject() as? String { relatives.append(relative) }
            } else {
                relatives = try manager.contentsOfDirectory(atPath: folder.path)
            }
            for relative in relatives {
                let name = (relative as NSString).lastPathComponent
                guard !name.hasPrefix("."), photoExtensions.contains((name as NSString).pathExtension.lowercased()) else { continue }
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                let display = base == "." ? relative : "\(base)/\(relative)"
                found.append((folder.appendingPathComponent(relative), display))
            }
        }
        return found.sorted { $0.1.localizedStandardCompare($1.1) == .orderedAscending }
    }

    /// Reads one photo's metadata (exiv2 touches only the metadata pages of the mapped file) and,
    /// when asked, looks for time-sync QR codes in it.
    static func inspect(_ url: URL, displayName: String, searchQR: Bool, scanner: QRScanner) -> InspectedPhoto {
        var photo = InspectedPhoto(url: url, displayName: displayName)
        do {
            let data = try Data(contentsOf: url, options: .alwaysMapped)
            let (metadata, _) = try PhotoMetadata.read(data, file: displayName)
            photo.metadata = metadata
            if let fields = metadata.captureTimeFields {
                photo.camera = CameraTime(exif: fields.dateTime, subSeconds: fields.subSeconds, offset: fields.offset)
            }
            if searchQR { photo.found(scanner.searchPhoto(data, isJPEG: metadata.isJPEG, file: displayName)) }
        } catch let error as MediaError {
            photo.error = error.message
        } catch {
            photo.error = "cannot be read: \(error.localizedDescription)"
        }
        return photo
    }

    /// Looks for time-sync QR codes in a photo already inspected: in its embedded thumbnail and
    /// previews first, smallest first, then in its full image (a RAW file's largest preview).
    static func searchQR(in photo: InspectedPhoto, scanner: QRScanner) -> QRPhotoSearch {
        guard let metadata = photo.metadata, let data = try? Data(contentsOf: photo.url, options: .alwaysMapped) else { return QRPhotoSearch() }
        return scanner.searchPhoto(data, isJPEG: metadata.isJPEG, file: photo.displayName)
    }

    /// The photos most likely to show the recorder's QR code: the first and last `count` of each
    /// shooting session, sessions being separated by more than `sessionGap` seconds of camera time.
    static func likelyQRPhotos(_ photos: [InspectedPhoto], count: Int = 12, sessionGap: Double = 3600) -> [Int] {
        let dated = photos.indices.compactMap { index in photos[index].camera.map { (index, $0) } }.sorted { $0.1 < $1.1 }
        var sessions: [[(index: Int, time: CameraTime)]] = []
        for (index, time) in dated {
            if let last = sessions.last?.last, time.seconds - last.time.seconds <= sessionGap {
                sessions[sessions.count - 1].append((index, time))
            } else {
                sessions.append([(index, time)])
            }
        }
        var chosen: [Int] = []
        for session in sessions.map({ $0.map(\.index) }) {
            for index in session.prefix(count) + session.suffix(count) where !chosen.contains(index) { chosen.append(index) }
        }
        return chosen
    }
}
