/// Which of a photo's images a time-sync QR code was read in.
///
/// The QR search tries a photo's small embedded images before its full image, smallest first, so
/// the source also tells how much work finding the code took.
public enum QRImageSource: String, Sendable, Codable, Equatable, CaseIterable {
    /// The small thumbnail in a JPEG's Exif block (IFD1, about 160 × 120 pixels).
    case exifThumbnail = "exif-thumbnail"
    /// A preview image of a Multi-Picture Format JPEG (CIPA DC-007), about 1,920 pixels wide.
    case mpfPreview = "mpf-preview"
    /// A JPEG preview or thumbnail embedded in a RAW file (CR2, CR3, NEF, ARW, DNG, ORF, RW2, RAF …).
    case rawPreview = "raw-preview"
    /// The thumbnail image of a HEIF/HEIC file.
    case heifThumbnail = "heif-thumbnail"
    /// The photo's own image, decoded at reduced scale.
    case fullImage = "full-image"
}
