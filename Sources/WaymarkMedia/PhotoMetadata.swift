internal import CWaymarkMedia
import Foundation
import WaymarkCore

/// The metadata of a photo that geotagging needs, read with exiv2 (ISO-BMFF files — CR3, HEIF/HEIC — with ``BMFFPhoto``).
public struct PhotoMetadata: Sendable, Equatable {
    /// EXIF DateTimeOriginal ("YYYY:MM:DD HH:MM:SS"), the camera's naive local time of the shot.
    public var dateTimeOriginal: String?
    public var subSecTimeOriginal: String?
    public var offsetTimeOriginal: String?
    /// EXIF CreateDate (DateTimeDigitized), the fallback when DateTimeOriginal is missing.
    public var createDate: String?
    public var subSecTimeDigitized: String?
    public var offsetTimeDigitized: String?
    public var make: String?
    public var model: String?
    public var mimeType: String
    /// The position already in the photo, if any.
    public var existingPosition: (latitude: Double, longitude: Double)?
    public var isJPEG: Bool
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// EXIF Orientation, 1–8: how the stored pixels are turned upright (6: 90° clockwise); nil when
    /// absent or out of range, which means 1. Image derivatives apply it (see ``ImageProbe``).
    public var orientation: Int? = nil

    public static func == (a: PhotoMetadata, b: PhotoMetadata) -> Bool {
        a.dateTimeOriginal == b.dateTimeOriginal && a.subSecTimeOriginal == b.subSecTimeOriginal
            && a.offsetTimeOriginal == b.offsetTimeOriginal && a.createDate == b.createDate
            && a.mimeType == b.mimeType
            && a.existingPosition?.latitude == b.existingPosition?.latitude
            && a.existingPosition?.longitude == b.existingPosition?.longitude
    }

    /// The capture time fields to use: DateTimeOriginal with its sub-seconds and offset, else CreateDate.
    public var captureTimeFields: (dateTime: String, subSeconds: String?, offset: String?)? {
        if let original = dateTimeOriginal { return (original, subSecTimeOriginal, offsetTimeOriginal) }
        if let created = createDate { return (created, subSecTimeDigitized, offsetTimeDigitized) }
        return nil
    }

    /// The capture time as the camera wrote it (DateTimeOriginal, else CreateDate), with its
    /// sub-seconds and its UTC offset when the camera wrote one; nil when there is none or it is malformed.
    public var captureTime: CameraTime? {
        captureTimeFields.flatMap { CameraTime(exif: $0.dateTime, subSeconds: $0.subSeconds, offset: $0.offset) }
    }

    /// Reads the metadata of the photo file at `url`, mapped into memory (exiv2 touches only the
    /// pages that hold metadata, so a large RAW costs little). Blocking: call it off any event loop.
    /// - Throws: ``MediaError`` when the file cannot be read or is no photo exiv2 (or the ISO-BMFF reader) knows.
    public static func read(contentsOf url: URL) throws -> PhotoMetadata {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw MediaError(file: url.lastPathComponent, message: "cannot be read: \(error.localizedDescription)")
        }
        return try read(data, file: url.lastPathComponent).0
    }

    /// Reads a photo's metadata from its bytes; for a non-JPEG, also returns its largest embedded JPEG preview.
    public static func read(_ data: Data, file: String, wantPreview: Bool = false) throws -> (PhotoMetadata, preview: Data?) {
        try data.withUnsafeBytes { try read($0, file: file, wantPreview: wantPreview) }
    }

    /// Reads a photo's metadata from bytes in memory (a mapped file); see ``read(_:file:wantPreview:)``.
    static func read(_ bytes: UnsafeRawBufferPointer, file: String, wantPreview: Bool = false) throws -> (PhotoMetadata, preview: Data?) {
        // exiv2 0.27 cannot read ISO-BMFF (CR3, HEIF/HEIC); Waymark's own box walker does.
        if BMFFPhoto.isBMFF(bytes) { return try readBMFF(bytes, file: file, wantPreview: wantPreview) }
        var info = wm_info()
        var preview = wm_buffer()
        defer { wm_buffer_free(&preview) }
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        try withUnsafeMutablePointer(to: &preview) { previewPointer in
            try callShim(file: file) { err, len in
                wm_read_info(base, bytes.count, &info, wantPreview ? previewPointer : nil, err, len)
            }
        }
        let metadata = PhotoMetadata(
            dateTimeOriginal: field(&info.date_time_original),
            subSecTimeOriginal: field(&info.subsec_time_original),
            offsetTimeOriginal: field(&info.offset_time_original),
            createDate: field(&info.create_date),
            subSecTimeDigitized: field(&info.subsec_time_digitized),
            offsetTimeDigitized: field(&info.offset_time_digitized),
            make: field(&info.make),
            model: field(&info.model),
            mimeType: field(&info.mime_type) ?? "application/octet-stream",
            existingPosition: info.has_gps != 0 ? (info.gps_latitude, info.gps_longitude) : nil,
            isJPEG: info.is_jpeg != 0,
            pixelWidth: Int(info.pixel_width),
            pixelHeight: Int(info.pixel_height),
            orientation: info.orientation != 0 ? Int(info.orientation) : nil
        )
        let previewData = preview.data.map { Data(bytes: $0, count: preview.size) }
        return (metadata, previewData)
    }

    /// Reads a CR3 or HEIF/HEIC file; the preview is its largest embedded JPEG (CR3's PRVW), if any.
    private static func readBMFF(_ bytes: UnsafeRawBufferPointer, file: String, wantPreview: Bool) throws -> (PhotoMetadata, preview: Data?) {
        let photo: BMFFPhoto
        do {
            photo = try BMFFPhoto.parse(bytes)
        } catch {
            throw MediaError(file: file, message: "reading metadata: \(error)")
        }
        let largest = [photo.thumbnail, photo.preview].compactMap { $0 }.max { $0.count < $1.count }
        let preview = wantPreview ? largest.map { Data(UnsafeRawBufferPointer(rebasing: bytes[$0])) } : nil
        var metadata = photo.metadata
        metadata.orientation = photo.exif.orientation.flatMap { (1...8).contains($0) ? $0 : nil }
        return (metadata, preview)
    }
}

/// A C string field of a shim struct, nil when empty.
func field<T>(_ tuple: inout T) -> String? {
    let text = withUnsafeBytes(of: &tuple) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    return trimmed.isEmpty ? nil : trimmed
}
