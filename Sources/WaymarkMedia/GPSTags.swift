internal import CWaymarkMedia
import Foundation

/// How the GPS tags went into a photo.
public enum GPSWriteMethod: String, Sendable, Codable {
    /// A JPEG's Exif block grew by the new directories.
    case exifBlockExtended = "exif-block-extended"
    /// A JPEG without Exif got a new Exif block.
    case exifBlockAdded = "exif-block-added"
    /// The new directories were appended to a TIFF-based file.
    case appendedToFile = "appended-to-file"
}

/// The GPS tags Waymark writes into a photo (DESIGN §3.4).
public struct GPSTags: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    /// Horizontal positioning error in metres (GPSHPositioningError).
    public var accuracy: Double?
    /// The UTC instant of the photo (GPSDateStamp and GPSTimeStamp).
    public var time: Date

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, accuracy: Double? = nil, time: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
        self.time = time
    }

    /// Returns the photo's bytes with these GPS tags added; every other byte of its TIFF structure
    /// stays where it was (see ``write(intoPhotoAt:file:syncFolder:)``).
    public func written(into photo: Data, file: String) throws -> Data {
        try photo.withUnsafeBytes { original in
            let edit = try plan(original, file: file)
            let result = edit.applied(to: original)
            try result.withUnsafeBytes { try check(edit, written: $0, original: original, file: file) }
            return result
        }
    }

    /// Adds these GPS tags to the photo at `url` without moving a byte of its TIFF structure, safely.
    ///
    /// A new GPS IFD and a copy of IFD0 that points to it are appended to the Exif block (JPEG) or
    /// the file (TIFF-based RAW), and the header points to the new IFD0; maker notes, thumbnails,
    /// previews and image data stay at the same offsets, whatever those offsets are relative to.
    /// The new file goes to a temporary file, is read back and checked byte for byte and with
    /// exiv2, and only then replaces the photo. With `dryRun` the edit is planned but not written.
    ///
    /// - Throws: `MediaError` with `wouldDamageMetadata` when the photo's structure does not allow
    ///   it (the caller writes a sidecar instead), or a plain `MediaError` when writing failed; the
    ///   photo is unchanged either way.
    @discardableResult
    public func write(intoPhotoAt url: URL, file: String, dryRun: Bool = false, syncFolder: Bool = true) throws -> GPSWriteMethod {
        let original = try MappedFile(url, displayName: file)
        let bytes = UnsafeRawBufferPointer(original.bytes)
        let edit = try plan(bytes, file: file)
        if !dryRun {
            // The new bytes, kept together so that every chunk has a stable address while it is written.
            var scratch: [UInt8] = []
            var chunks: [(range: Range<Int>, isNew: Bool)] = []
            for piece in edit.pieces(originalLength: bytes.count) {
                switch piece {
                case .original(let range): chunks.append((range, false))
                case .new(let new):
                    chunks.append((scratch.count..<(scratch.count + new.count), true))
                    scratch += new
                }
            }
            try scratch.withUnsafeBytes { newBytes in
                let buffers = chunks.map { UnsafeRawBufferPointer(rebasing: ($0.isNew ? newBytes : bytes)[$0.range]) }
                try SafeFile.write(chunks: buffers, to: url, preservingAttributesOf: url, syncFolder: syncFolder) { written in
                    try check(edit, written: written, original: bytes, file: file)
                }
            }
        }
        switch edit.kind {
        case .jpegExifExtended: return .exifBlockExtended
        case .jpegExifAdded: return .exifBlockAdded
        case .tiffAppended: return .appendedToFile
        }
    }

    private func plan(_ photo: UnsafeRawBufferPointer, file: String) throws -> AppendOnlyEdit {
        if BMFFPhoto.isBMFF(photo) {
            throw MediaError(file: file, message: "CR3 and HEIF/HEIC files are not rewritten, since adding GPS would move their boxes "
                                 + "(darktable, digiKam and Lightroom read the sidecar)", wouldDamageMetadata: true)
        }
        do {
            return try AppendOnlyEdit.plan(photo, tags: self)
        } catch {
            throw MediaError(file: file, message: "cannot take GPS in place: \(error)", wouldDamageMetadata: true)
        }
    }

    private func check(_ edit: AppendOnlyEdit, written: UnsafeRawBufferPointer, original: UnsafeRawBufferPointer, file: String) throws {
        do {
            try edit.verify(written: written, original: original, tags: self)
        } catch {
            throw MediaError(file: file, message: "the new file did not check out (\(error)); the original is unchanged. Please report this photo.")
        }
    }

    /// An XMP sidecar packet carrying these tags, updating `existing` (an earlier sidecar) when given.
    public func sidecar(updating existing: Data?, file: String) throws -> Data {
        var gps = raw
        var out = wm_buffer()
        defer { wm_buffer_free(&out) }
        let old = existing ?? Data()
        try old.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws in
            let base = bytes.bindMemory(to: UInt8.self).baseAddress
            try callShim(file: file) { err, len in wm_make_sidecar(base, bytes.count, &gps, &out, err, len) }
        }
        guard let pointer = out.data else { throw MediaError(file: file, message: "exiv2 returned no XMP packet") }
        return Data(bytes: pointer, count: out.size)
    }

    private var raw: wm_gps {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: time)
        var gps = wm_gps()
        gps.latitude = latitude
        gps.longitude = longitude
        gps.has_altitude = altitude == nil ? 0 : 1
        gps.altitude = altitude ?? 0
        gps.has_accuracy = accuracy == nil ? 0 : 1
        gps.accuracy = accuracy ?? 0
        gps.year = Int32(parts.year ?? 1970)
        gps.month = Int32(parts.month ?? 1)
        gps.day = Int32(parts.day ?? 1)
        gps.hour = Int32(parts.hour ?? 0)
        gps.minute = Int32(parts.minute ?? 0)
        gps.second = Double(parts.second ?? 0) + Double(parts.nanosecond ?? 0) / 1e9
        return gps
    }
}
