import Foundation
import NIOConcurrencyHelpers
import WaymarkCore

/// Where the photo uploader finds the server's receipt key: empty until the receipt area has
/// loaded it at start (``ReceiptArea/register(_:)``), which happens before the server accepts a
/// request. Shared by every copy of the uploader.
final class ReceiptSigner: Sendable {
    private let key = NIOLockedValueBox<ReceiptSigningKey?>(nil)

    /// Signs with `key` from now on.
    func use(_ key: ReceiptSigningKey) {
        self.key.withLockedValue { $0 = key }
    }

    /// The key in use, if any.
    var current: ReceiptSigningKey? { key.withLockedValue { $0 } }

    /// The receipt of a new photo: its metadata as it will be stored, signed; `nil` without a key.
    func receipt(for photo: Photo) throws -> PhotoReceipt? {
        guard let key = current else { return nil }
        return try PhotoReceipt.issue(metadata: photo.receiptMetadata, sha256Image: photo.sha256, key: key.privateKey)
    }
}

extension Photo {
    /// What a receipt covers of this photo, with the values exactly as the store writes them
    /// (``ReceiptMetadata`` lists them): Unix seconds of the capture time as stored, and the time
    /// the server received it (`uploadedAt`) to the millisecond.
    var receiptMetadata: ReceiptMetadata {
        ReceiptMetadata(
            photoId: id, ownerId: ownerID, title: title, capturedAt: capturedAt.timeIntervalSince1970,
            latitude: place?.latitude, longitude: place?.longitude, altitude: place?.altitude, accuracy: place?.accuracy,
            azimuth: azimuth, tilt: tilt,
            centroid: centroid.map { ReceiptMetadata.Centroid(latitude: $0.latitude, longitude: $0.longitude, samples: $0.samples) },
            width: width, height: height, mime: mime, receivedAt: ReceiptMetadata.receivedAtText(uploadedAt)
        )
    }
}
