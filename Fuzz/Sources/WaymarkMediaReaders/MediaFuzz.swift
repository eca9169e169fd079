import Foundation

/// The fuzz readers of the photo structures Waymark reads itself (waymark-fuzz calls these with
/// each input): `tiff` (a TIFF block or TIFF-based RAW), `jpeg` (a JPEG's marker layout) and
/// `bmff` (a CR3 or HEIF/HEIC). Each runs every entry point that reads those bytes as Waymark
/// does — the structure, the values read out of it, the embedded JPEGs found, and for TIFF and
/// JPEG the append-only GPS edit planned, applied and verified — and traps (`precondition`) when
/// what they hand back breaks a promise: a range outside the file, a planned edit whose result
/// does not check out.
public enum MediaFuzz {
    /// The tags every planned edit writes.
    static let tags = GPSTags(latitude: 46.378_9, longitude: -13.836_1, altitude: 2864, accuracy: 3,
                              time: Date(timeIntervalSince1970: 1_717_236_000.25))

    public static func tiff(_ data: Data) {
        data.withUnsafeBytes { bytes in
            if let structure = try? TIFFStructure.parse(bytes) {
                check(structure, in: bytes)
                _ = try? structure.appendix(for: tags, blockLength: bytes.count)
            }
            for role in [BMFFExif.Role.wholeBlock, .ifd0, .exifIFD, .gpsIFD] {
                var exif = BMFFExif()
                if (try? exif.read(tiff: bytes, as: role)) != nil { check(exif) }
            }
            for range in TIFFStructure.embeddedJPEGs(in: bytes) {
                precondition(isJPEGStart(range, in: bytes), "embeddedJPEGs handed out \(range) of \(bytes.count) bytes")
                _ = JPEGLayout.decodableFrame(bytes, range)
            }
            appendOnlyEdit(bytes)
        }
    }

    public static func jpeg(_ data: Data) {
        data.withUnsafeBytes { bytes in
            if let layout = try? JPEGLayout.parse(bytes) {
                var end = 2
                for segment in layout.segments {
                    precondition(segment.start >= end && segment.payload.lowerBound == segment.start + 4
                                 && segment.payload.upperBound <= bytes.count, "segment \(segment) of \(bytes.count) bytes")
                    end = segment.end
                }
                precondition(layout.segments.last?.marker == 0xDA, "the layout does not end at SOS")
                precondition(layout.imageEnd >= end + 2 && layout.imageEnd <= bytes.count, "image end \(layout.imageEnd) of \(bytes.count)")
                if let exif = layout.exifSegment(in: bytes) { precondition(exif.marker == 0xE1) }
                if let thumbnail = layout.exifThumbnail(in: bytes) {
                    precondition(isJPEGStart(thumbnail, in: bytes), "exifThumbnail handed out \(thumbnail) of \(bytes.count) bytes")
                    _ = JPEGLayout.decodableFrame(bytes, thumbnail)
                }
                for image in MultiPicture.images(bytes, layout: layout) {
                    precondition(image.lowerBound >= 0 && image.upperBound <= bytes.count, "MPF image \(image) of \(bytes.count) bytes")
                    _ = JPEGLayout.decodableFrame(bytes, image)
                }
            }
            if let frame = JPEGLayout.decodableFrame(bytes, 0..<bytes.count) {
                precondition(frame.width > 0 && frame.height > 0)
            }
            appendOnlyEdit(bytes)
        }
    }

    public static func bmff(_ data: Data) {
        data.withUnsafeBytes { bytes in
            let isBMFF = BMFFPhoto.isBMFF(bytes)
            if let photo = try? BMFFPhoto.parse(bytes) {
                precondition(isBMFF, "a file without ftyp at offset 4 read as \(photo.kind)")
                for range in [photo.thumbnail, photo.preview].compactMap({ $0 }) {
                    precondition(isJPEGStart(range, in: bytes), "BMFFPhoto handed out \(range) of \(bytes.count) bytes")
                    _ = JPEGLayout.decodableFrame(bytes, range)
                }
                check(photo.exif)
                _ = photo.metadata.existingPosition
            }
            for (kind, range) in BMFFPhoto.embeddedJPEGs(bytes) {
                precondition(isJPEGStart(range, in: bytes), "embeddedJPEGs handed out the \(kind) \(range) of \(bytes.count) bytes")
            }
        }
    }

    /// Plans the edit that adds GPS, and when it is planned, applies it in memory and verifies the
    /// result as `GPSTags.written(into:file:)` does: a planned edit that does not check out is a
    /// planner bug (the real write would refuse it and ask for the photo).
    static func appendOnlyEdit(_ bytes: UnsafeRawBufferPointer) {
        guard let edit = try? AppendOnlyEdit.plan(bytes, tags: tags) else { return }
        precondition(edit.insertAt >= 0 && edit.insertAt <= bytes.count, "insertion at \(edit.insertAt) of \(bytes.count)")
        for patch in edit.patches {
            precondition(patch.offset >= 0 && patch.offset + patch.bytes.count <= bytes.count, "patch at \(patch.offset) of \(bytes.count)")
        }
        let written = edit.applied(to: bytes)
        precondition(written.count == bytes.count + edit.inserted.count)
        written.withUnsafeBytes { new in
            do {
                try edit.verify(written: new, original: bytes, tags: tags)
            } catch {
                preconditionFailure("a planned \(edit.kind) edit of \(bytes.count) bytes does not verify: \(error)")
            }
        }
    }

    /// Reads the values Waymark reads out of a parsed structure (bounded: its first entries).
    static func check(_ structure: TIFFStructure, in bytes: UnsafeRawBufferPointer) {
        precondition(structure.directoryOffsets.first == structure.ifd0.offset, "IFD0 is not the first directory")
        precondition(Set(structure.directoryOffsets).count == structure.directoryOffsets.count, "a directory listed twice")
        precondition(structure.directoryOffsets.count <= TIFFStructure.maxDirectories)
        for offset in structure.directoryOffsets { precondition(offset >= 8 && offset < bytes.count, "directory at \(offset)") }
        var directories = [structure.ifd0]
        for tag in [TIFFStructure.exifPointerTag, TIFFStructure.gpsPointerTag, TIFFStructure.interopPointerTag] {
            if let directory = structure.directory(pointedToBy: tag, in: structure.ifd0, bytes: bytes) { directories.append(directory) }
        }
        if let gps = structure.gps {
            directories.append(gps)
            _ = structure.coordinate(0x0002, reference: 0x0001, in: gps, bytes: bytes)
            _ = structure.coordinate(0x0004, reference: 0x0003, in: gps, bytes: bytes)
        }
        for directory in directories {
            for entry in directory.entries.prefix(64) {
                _ = structure.string(entry.tag, in: directory, bytes: bytes)
                if let values = structure.integers(entry.tag, in: directory, bytes: bytes) {
                    precondition(values.count <= TIFFStructure.maxValuesRead)
                }
                _ = structure.rationals(entry.tag, in: directory, bytes: bytes)
            }
        }
    }

    static func check(_ exif: BMFFExif) {
        if let latitude = exif.latitude { precondition(latitude.isFinite && exif.longitude != nil) }
        if let longitude = exif.longitude { precondition(longitude.isFinite && exif.latitude != nil) }
    }

    static func isJPEGStart(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer) -> Bool {
        range.lowerBound >= 0 && range.upperBound <= bytes.count && range.count >= 4
            && bytes[range.lowerBound] == 0xFF && bytes[range.lowerBound + 1] == 0xD8
    }
}
