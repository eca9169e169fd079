import Foundation

/// A camera RAW file stands for its photo through its largest embedded JPEG preview: libvips
/// does not decode sensor data, and the camera's own rendering is what a person expects to see.
enum RAWPreview {
    /// The MIME types exiv2 (and the ISO-BMFF reader, for CR3) give camera RAW files.
    static let rawMIMETypes: Set<String> = [
        "image/x-canon-cr2", "image/x-canon-cr3", "image/x-canon-crw", "image/x-nikon-nef", "image/x-nikon-nrw",
        "image/x-sony-arw", "image/x-sony-sr2", "image/x-sony-srf", "image/x-olympus-orf", "image/x-panasonic-rw2",
        "image/x-panasonic-raw", "image/x-pentax-pef", "image/x-samsung-srw", "image/x-fuji-raf", "image/x-minolta-mrw",
        "image/x-adobe-dng", "image/x-sigma-x3f", "image/x-kodak-dcr", "image/x-kodak-kdc", "image/x-epson-erf",
        "image/x-hasselblad-3fr", "image/x-leaf-mos", "image/x-phaseone-iiq",
    ]

    /// The probe of a camera RAW file, made from its largest embedded JPEG preview; nil when the
    /// file is no camera RAW (then libvips's answer stands).
    ///
    /// A file is a camera RAW when exiv2 names a RAW type (CR2, NEF, ORF, RW2, …, CR3), or when it
    /// is a TIFF whose main image, by its metadata, is larger than the first image libvips reads
    /// (DNG and ARW put a small thumbnail first).
    ///
    /// - Parameter libvips: the header libvips read, when it read one (a TIFF).
    /// - Throws: ``ImageError/notAnImage(reason:)`` for a RAW without a JPEG preview of at least
    ///   ``ImageProbe/minimumPreviewSide`` pixels; ``ImageError/tooManyPixels(width:height:limit:)``
    ///   when its only large enough previews are over the limit.
    static func find(in input: VipsShim.Input, name: String, libvips: VipsShim.Header?, pixelLimit: Int) throws(ImageError) -> ImageProbe? {
        let data: Data
        switch input {
        case .memory(let bytes): data = bytes
        case .file(let url):
            // Mapped: exiv2 and the preview search touch only the pages they read.
            guard let mapped = try? Data(contentsOf: url, options: .alwaysMapped) else { return nil }
            data = mapped
        }
        guard !data.isEmpty, let metadata = try? PhotoMetadata.read(data, file: name).0 else { return nil }
        var isRAW = rawMIMETypes.contains(metadata.mimeType)
        if let libvips, libvips.format == .tiff, metadata.pixelWidth * metadata.pixelHeight > libvips.width * libvips.height {
            isRAW = true
        }
        guard isRAW else { return nil }
        let mimeType = metadata.mimeType == "image/tiff" ? "image/x-raw" : metadata.mimeType

        var best: (jpeg: Data, header: VipsShim.Header)?
        var overLimit: VipsShim.Header?
        for jpeg in embeddedJPEGs(in: data, name: name) {
            let (header, status, _) = VipsShim.probe(.memory(jpeg), pixelLimit: pixelLimit)
            guard max(header.width, header.height) >= ImageProbe.minimumPreviewSide else { continue }
            if status == 0 {
                if header.width * header.height > (best.map { $0.header.width * $0.header.height } ?? 0) { best = (jpeg, header) }
            } else if case .tooManyPixels = VipsShim.error(status: status, message: "", width: 0, height: 0, pixelLimit: pixelLimit) {
                overLimit = header
            }
        }
        guard let best else {
            if let overLimit { throw .tooManyPixels(width: overLimit.width, height: overLimit.height, limit: pixelLimit) }
            throw .rawWithoutPreview(mimeType: mimeType)
        }
        // A camera's preview is stored as the sensor saw it; the RAW file's orientation turns it upright.
        let ownOrientation = (1...8).contains(best.header.orientation) ? best.header.orientation : 1
        return ImageProbe(format: .raw, mimeType: mimeType, loader: best.header.loader,
                          width: best.header.width, height: best.header.height, orientation: metadata.orientation ?? ownOrientation,
                          pixelLimit: pixelLimit, source: .memory(best.jpeg), orientationOverride: metadata.orientation)
    }

    /// The embedded JPEGs of a RAW file, copied out of it: the ones the QR search reads (those its
    /// TIFF directories point to, those exiv2 finds, a CR3's THMB and PRVW).
    private static func embeddedJPEGs(in data: Data, name: String) -> [Data] {
        QRScanner.candidates(in: data, isJPEG: false, file: name, maxLongSide: 0).compactMap { candidate in
            guard case .jpeg(let jpeg) = candidate.pixels else { return nil }
            return jpeg.withUnsafeBytes { Data($0) }
        }
    }
}
