internal import CWaymarkMedia
import Foundation
import WaymarkCore

/// What the QR search found in one photo, and the work it took.
public struct QRPhotoSearch: Sendable, Equatable {
    /// The Waymark time-sync codes read; empty when the photo shows none. Other QR codes are left out.
    public var payloads: [QRPayload] = []
    /// The image the codes were read in; nil when none was found.
    public var source: QRImageSource?
    /// The images searched, in the order they were tried (an image that could not be decoded is not listed).
    public var searched: [QRImageSource] = []
    /// JPEG (or HEIF) decodes made in all.
    public var decodes = 0
    /// The longer side, in pixels, of the image the codes were read in (or of the last one searched).
    public var decodedLongSide = 0
}

/// One image of a photo that may show the QR code.
struct QRCandidateImage {
    enum Pixels {
        /// A JPEG: a slice of the mapped file, or a preview copied out of it.
        case jpeg(Data)
        /// An image decoded on demand to 8-bit greyscale (HEIF).
        case gray(() throws -> (pixels: [UInt8], width: Int, height: Int))
    }

    var source: QRImageSource
    var pixels: Pixels
}

extension QRScanner {
    /// Searches a photo for Waymark time-sync codes, trying its embedded images before its full
    /// image, smallest first: a JPEG's Exif thumbnail, then its Multi-Picture previews, then the
    /// photo itself; a RAW file's previews from the smallest to the largest. The search stops at the
    /// first image that shows a Waymark code — a QR code of anything else does not stop it.
    ///
    /// An image that cannot be decoded is skipped: a photo whose pixels are damaged still gets its GPS.
    public func searchPhoto(_ data: Data, isJPEG: Bool, file: String) -> QRPhotoSearch {
        var search = QRPhotoSearch()
        let candidates = Self.candidates(in: data, isJPEG: isJPEG, file: file, maxLongSide: maxLongSide)
        for (index, candidate) in candidates.enumerated() {
            // The last image (the full image, or a RAW file's largest preview) is searched as
            // thoroughly as ever; the ones before it quickly, as a first try.
            let scanner = index == candidates.count - 1 ? self : quickScanner
            guard let result = try? scanner.scan(candidate) else { continue }
            search.searched.append(candidate.source)
            search.decodes += result.decodes
            search.decodedLongSide = max(result.decodedSize.width, result.decodedSize.height)
            let payloads = result.texts.compactMap(QRPayload.init)
            if !payloads.isEmpty {
                search.payloads = payloads
                search.source = candidate.source
                break
            }
        }
        return search
    }

    /// The scanner for the embedded images tried before the last: a camera's preview of a photo
    /// of the code shows it large enough at about 512–1,024 pixels, and the image searched last
    /// still finds a smaller code.
    var quickScanner: QRScanner {
        QRScanner(firstLongSide: min(firstLongSide, Self.quickFirstLongSide), maxLongSide: min(maxLongSide, Self.quickMaxLongSide))
    }

    static let quickFirstLongSide = 512
    static let quickMaxLongSide = 1024

    private func scan(_ candidate: QRCandidateImage) throws -> Result {
        switch candidate.pixels {
        case .jpeg(let jpeg):
            return try scan(jpeg: jpeg, file: candidate.source.rawValue, waymarkOnly: true)
        case .gray(let decode):
            let image = try decode()
            var result = try scan(gray: image.pixels, width: image.width, height: image.height)
            result.decodes += 1
            return result
        }
    }

    /// The images of a photo to search, in order.
    static func candidates(in data: Data, isJPEG: Bool, file: String, maxLongSide: Int) -> [QRCandidateImage] {
        if isJPEG { return jpegCandidates(in: data) }
        if let bmff = bmffCandidates(in: data, maxLongSide: maxLongSide) { return bmff }
        return rawCandidates(in: data, file: file)
    }

    /// A JPEG's Exif thumbnail, its Multi-Picture images (smallest first), and the JPEG itself.
    private static func jpegCandidates(in data: Data) -> [QRCandidateImage] {
        var embedded: [QRCandidateImage] = []
        data.withUnsafeBytes { file in
            guard let layout = try? JPEGLayout.parse(file) else { return }
            if let thumbnail = layout.exifThumbnail(in: file), JPEGLayout.decodableFrame(file, thumbnail) != nil {
                embedded.append(QRCandidateImage(source: .exifThumbnail, pixels: .jpeg(data[slice: thumbnail])))
            }
            let previews = MultiPicture.images(file, layout: layout).compactMap { range in
                JPEGLayout.decodableFrame(file, range).map { (range: range, pixels: $0.width * $0.height) }
            }
            for preview in previews.sorted(by: { ($0.pixels, $0.range.count) < ($1.pixels, $1.range.count) }) {
                embedded.append(QRCandidateImage(source: .mpfPreview, pixels: .jpeg(data[slice: preview.range])))
            }
        }
        return embedded + [QRCandidateImage(source: .fullImage, pixels: .jpeg(data))]
    }

    /// A RAW (or TIFF) file's JPEG thumbnails and previews, smallest first: those its TIFF
    /// directories point to (DNG's JPEG-compressed previews, which exiv2 0.27 lists as TIFF images)
    /// and those exiv2 finds (also in maker notes, RW2 and RAF). Lossless JPEG sensor data is left out.
    private static func rawCandidates(in data: Data, file: String) -> [QRCandidateImage] {
        var images: [(jpeg: Data, pixels: Int)] = []
        data.withUnsafeBytes { bytes in
            for range in TIFFStructure.embeddedJPEGs(in: bytes) {
                if let frame = JPEGLayout.decodableFrame(bytes, range) { images.append((data[slice: range], frame.width * frame.height)) }
            }
        }
        for preview in rawPreviews(in: data, file: file) where !images.contains(where: { $0.jpeg == preview }) {
            if let frame = preview.withUnsafeBytes({ JPEGLayout.decodableFrame($0, 0..<$0.count) }) {
                images.append((preview, frame.width * frame.height))
            }
        }
        return images.sorted { ($0.pixels, $0.jpeg.count) < ($1.pixels, $1.jpeg.count) }
            .map { QRCandidateImage(source: .rawPreview, pixels: .jpeg($0.jpeg)) }
    }

    /// The JPEG previews exiv2 finds in a RAW (or TIFF) file, smallest first.
    private static func rawPreviews(in data: Data, file: String) -> [Data] {
        var previews = [wm_preview](repeating: wm_preview(), count: Int(WM_MAX_PREVIEWS))
        var count: Int32 = 0
        let read: ()? = try? data.withUnsafeBytes { bytes in
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            try callShim(file: file) { err, len in
                wm_read_previews(base, bytes.count, &previews, Int32(previews.count), &count, err, len)
            }
        }
        guard read != nil else { return [] }
        var jpegs: [Data] = []
        for index in 0..<Int(count) {
            if let bytes = previews[index].jpeg.data { jpegs.append(Data(bytes: bytes, count: previews[index].jpeg.size)) }
            wm_buffer_free(&previews[index].jpeg)
        }
        return jpegs
    }
}

extension Data {
    /// The bytes at `range`, counted from the start of the data, without copying them.
    subscript(slice range: Range<Int>) -> Data {
        self[(startIndex + range.lowerBound)..<(startIndex + range.upperBound)]
    }
}
