import Foundation
import WaymarkCore

/// The QR search of `waymark tag` on its own: which photos show a Waymark time-sync code.
public enum QRSearch {
    public struct Photo: Sendable {
        public var file: String
        public var captureTime: String?
        public var payloads: [String]
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
        let found = photos.filter { !$0.qrCodes.isEmpty }.map { photo in
            Photo(file: photo.displayName, captureTime: photo.metadata?.captureTimeFields?.dateTime,
                  payloads: photo.qrCodes.map(\.text))
        }
        return Result(searched: files.count, qrPhotos: found)
    }
}
