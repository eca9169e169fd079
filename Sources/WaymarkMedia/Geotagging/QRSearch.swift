import Foundation
import WaymarkCore

/// The QR search of `waymark tag` on its own: which photos show a Waymark time-sync code.
public enum QRSearch {
    /// A photo that shows a Waymark code.
    public struct Photo: Sendable, Codable, Equatable {
        public var file: String
        /// The camera's own reading, as written in EXIF.
        public var captureTime: String?
        /// The texts of the Waymark codes read.
        public var payloads: [String]
        /// The image the codes were read in: an embedded thumbnail or preview, or the full image.
        public var image: QRImageSource
    }

    public struct Result: Sendable {
        public var searched: Int
        public var qrPhotos: [Photo]
    }

    public static func run(folders: [URL], recursive: Bool, scanner: QRScanner = QRScanner(),
                           concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) async throws -> Result {
        let files = try Geotagger.collectPhotos(in: folders, recursive: recursive)
        let photos = await BlockingPool.map(count: files.count, width: concurrency) { index in
            Geotagger.inspect(files[index].url, displayName: files[index].displayName, searchQR: true, scanner: scanner)
        }
        let found = photos.compactMap { photo -> Photo? in
            guard let image = photo.qrImage, !photo.qrCodes.isEmpty else { return nil }
            return Photo(file: photo.displayName, captureTime: photo.metadata?.captureTimeFields?.dateTime,
                         payloads: photo.qrCodes.map(\.text), image: image)
        }
        return Result(searched: files.count, qrPhotos: found)
    }
}
