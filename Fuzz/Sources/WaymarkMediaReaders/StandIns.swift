import Foundation

// The two types the TIFF and BMFF readers name whose real definitions live beside the C shim
// (Sources/WaymarkMedia/GPSTags.swift and PhotoMetadata.swift, both `internal import
// CWaymarkMedia`). The harness compiles the readers themselves, through the TIFF and BMFF
// symlinks, against these same-shaped stand-ins: the fields and initialisers the readers use,
// nothing of exiv2.

/// The GPS tags an append-only edit writes (the real one: WaymarkMedia/GPSTags.swift).
struct GPSTags: Sendable, Equatable {
    var latitude: Double
    var longitude: Double
    var altitude: Double?
    var accuracy: Double?
    var time: Date

    init(latitude: Double, longitude: Double, altitude: Double? = nil, accuracy: Double? = nil, time: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
        self.time = time
    }
}

/// The metadata a BMFF photo hands on (the real one: WaymarkMedia/PhotoMetadata.swift).
struct PhotoMetadata: Sendable {
    var dateTimeOriginal: String?
    var subSecTimeOriginal: String?
    var offsetTimeOriginal: String?
    var createDate: String?
    var subSecTimeDigitized: String?
    var offsetTimeDigitized: String?
    var make: String?
    var model: String?
    var mimeType: String
    var existingPosition: (latitude: Double, longitude: Double)?
    var isJPEG: Bool
    var pixelWidth: Int
    var pixelHeight: Int
    var orientation: Int? = nil

    /// What `AppendOnlyEdit.verify`'s last check reads back from a written file. The real one asks
    /// exiv2, which the harness does not link; this one reads the position with the pure-Swift
    /// readers (the file's first Exif block, or the whole TIFF file, through ``BMFFExif``), so the
    /// checks before it — every original byte in place, IFD0 and the GPS IFD as meant — run as
    /// they ship, and the position written must still read back.
    static func read(_ bytes: UnsafeRawBufferPointer, file: String) throws -> (PhotoMetadata, preview: Data?) {
        var exif = BMFFExif()
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            let layout = try JPEGLayout.parse(bytes)
            guard let segment = layout.exifSegment(in: bytes) else { throw JPEGLayoutError.noImage }
            let base = segment.payload.lowerBound + JPEGLayout.exifSignature.count
            try exif.read(tiff: UnsafeRawBufferPointer(rebasing: bytes[base..<segment.end]), as: .wholeBlock)
        } else {
            try exif.read(tiff: bytes, as: .wholeBlock)
        }
        let metadata = PhotoMetadata(
            dateTimeOriginal: exif.dateTimeOriginal, subSecTimeOriginal: exif.subSecTimeOriginal,
            offsetTimeOriginal: exif.offsetTimeOriginal, createDate: exif.createDate,
            subSecTimeDigitized: exif.subSecTimeDigitized, offsetTimeDigitized: exif.offsetTimeDigitized,
            make: exif.make, model: exif.model, mimeType: "application/octet-stream",
            existingPosition: exif.latitude.flatMap { lat in exif.longitude.map { (lat, $0) } },
            isJPEG: bytes.count >= 2 && bytes[0] == 0xFF, pixelWidth: exif.pixelWidth, pixelHeight: exif.pixelHeight
        )
        return (metadata, nil)
    }
}
