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
    var error: String?
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

    /// Reads one photo's metadata and, when asked, looks for time-sync QR codes in it.
    static func inspect(_ url: URL, displayName: String, searchQR: Bool, scanner: QRScanner) -> InspectedPhoto {
        var photo = InspectedPhoto(url: url, displayName: displayName)
        do {
            let data = try Data(contentsOf: url, options: .alwaysMapped)
            let (metadata, preview) = try PhotoMetadata.read(data, file: displayName, wantPreview: searchQR)
            photo.metadata = metadata
            if let fields = metadata.captureTimeFields {
                photo.camera = CameraTime(exif: fields.dateTime, subSeconds: fields.subSeconds, offset: fields.offset)
            }
            if searchQR, let jpeg = metadata.isJPEG ? data : preview {
                // A photo whose pixels cannot be decoded still gets its GPS; it just is no QR photo.
                if let result = try? scanner.scan(jpeg: jpeg, file: displayName) {
                    photo.qrCodes = result.texts.compactMap(QRPayload.init)
                }
            }
        } catch let error as MediaError {
            photo.error = error.message
        } catch {
            photo.error = "cannot be read: \(error.localizedDescription)"
        }
        return photo
    }
}
