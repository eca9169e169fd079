import Foundation

extension QRScanner {
    /// The images of an ISO-BMFF photo to search, smallest first; nil when the data is no such file.
    ///
    /// A Canon CR3's JPEGs (THMB, then PRVW) come from ``BMFFPhoto``; a HEIF/HEIC file's thumbnail
    /// and primary image are decoded by ``HEIFImage`` (to at most `maxLongSide`) only when it is
    /// their turn. A file whose boxes cannot be read has nothing to search.
    static func bmffCandidates(in data: Data, maxLongSide: Int) -> [QRCandidateImage]? {
        let (isBMFF, photo) = data.withUnsafeBytes { bytes in
            BMFFPhoto.isBMFF(bytes) ? (true, try? BMFFPhoto.parse(bytes)) : (false, nil)
        }
        guard isBMFF, let photo else { return isBMFF ? [] : nil }
        switch photo.kind {
        case .cr3:
            let jpegs = [photo.thumbnail, photo.preview].compactMap { $0 }.sorted { $0.count < $1.count }
            return jpegs.map { QRCandidateImage(source: .rawPreview, pixels: .jpeg(data[slice: $0])) }
        case .heif:
            func heif(thumbnail: Bool) -> QRCandidateImage.Pixels {
                .gray { try data.withUnsafeBytes { try HEIFImage.gray($0, thumbnail: thumbnail, maxLongSide: maxLongSide) } }
            }
            return [QRCandidateImage(source: .heifThumbnail, pixels: heif(thumbnail: true)),
                    QRCandidateImage(source: .fullImage, pixels: heif(thumbnail: false))]
        }
    }
}
