import Foundation

/// The Exif fields geotagging needs, gathered from the TIFF blocks of an ISO-BMFF file.
struct BMFFExif: Sendable, Equatable {
    var dateTimeOriginal: String?
    var subSecTimeOriginal: String?
    var offsetTimeOriginal: String?
    var createDate: String?
    var subSecTimeDigitized: String?
    var offsetTimeDigitized: String?
    var make: String?
    var model: String?
    var orientation: Int?
    var latitude: Double?
    var longitude: Double?
    var pixelWidth = 0
    var pixelHeight = 0

    /// Which directory a TIFF block's IFD0 is: CR3 stores IFD0, the Exif IFD and the GPS IFD in
    /// blocks of their own (CMT1, CMT2, CMT4); HEIF's Exif item is one whole block.
    enum Role {
        case wholeBlock
        case ifd0
        case exifIFD
        case gpsIFD
    }

    /// Reads the fields of one TIFF block; throws when its structure is broken.
    mutating func read(tiff bytes: UnsafeRawBufferPointer, as role: Role) throws {
        let structure = try TIFFStructure.parse(bytes)
        switch role {
        case .ifd0:
            readIFD0(structure.ifd0, structure, bytes)
        case .exifIFD:
            readExif(structure.ifd0, structure, bytes)
        case .gpsIFD:
            readGPS(structure.ifd0, structure, bytes)
        case .wholeBlock:
            readIFD0(structure.ifd0, structure, bytes)
            if let exif = structure.directory(pointedToBy: TIFFStructure.exifPointerTag, in: structure.ifd0, bytes: bytes) {
                readExif(exif, structure, bytes)
            }
            if let gps = structure.gps { readGPS(gps, structure, bytes) }
        }
    }

    private mutating func readIFD0(_ directory: TIFFDirectory, _ structure: TIFFStructure, _ bytes: UnsafeRawBufferPointer) {
        make = structure.string(0x010F, in: directory, bytes: bytes) ?? make
        model = structure.string(0x0110, in: directory, bytes: bytes) ?? model
        orientation = structure.integers(0x0112, in: directory, bytes: bytes)?.first ?? orientation
        if pixelWidth == 0, let width = structure.integers(0x0100, in: directory, bytes: bytes)?.first,
           let height = structure.integers(0x0101, in: directory, bytes: bytes)?.first {
            (pixelWidth, pixelHeight) = (width, height)
        }
    }

    private mutating func readExif(_ directory: TIFFDirectory, _ structure: TIFFStructure, _ bytes: UnsafeRawBufferPointer) {
        func text(_ tag: UInt16) -> String? { structure.string(tag, in: directory, bytes: bytes) }
        dateTimeOriginal = text(0x9003) ?? dateTimeOriginal
        createDate = text(0x9004) ?? createDate
        subSecTimeOriginal = text(0x9291) ?? subSecTimeOriginal
        subSecTimeDigitized = text(0x9292) ?? subSecTimeDigitized
        offsetTimeOriginal = text(0x9011) ?? offsetTimeOriginal
        offsetTimeDigitized = text(0x9012) ?? offsetTimeDigitized
        if pixelWidth == 0, let width = structure.integers(0xA002, in: directory, bytes: bytes)?.first,
           let height = structure.integers(0xA003, in: directory, bytes: bytes)?.first {
            (pixelWidth, pixelHeight) = (width, height)
        }
    }

    private mutating func readGPS(_ directory: TIFFDirectory, _ structure: TIFFStructure, _ bytes: UnsafeRawBufferPointer) {
        guard let latitude = structure.coordinate(0x0002, reference: 0x0001, in: directory, bytes: bytes),
              let longitude = structure.coordinate(0x0004, reference: 0x0003, in: directory, bytes: bytes) else { return }
        (self.latitude, self.longitude) = (latitude, longitude)
    }
}
