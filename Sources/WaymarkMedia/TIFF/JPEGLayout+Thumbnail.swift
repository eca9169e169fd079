import Foundation

extension JPEGLayout {
    /// Where, in the file, the JPEG thumbnail of the Exif block lies (IFD1's JPEGInterchangeFormat
    /// and JPEGInterchangeFormatLength), or nil when there is none, the Exif block is not one
    /// ``TIFFStructure`` accepts, or the thumbnail is not a JPEG inside the block.
    func exifThumbnail(in file: UnsafeRawBufferPointer) -> Range<Int>? {
        guard let segment = exifSegment(in: file) else { return nil }
        let base = segment.payload.lowerBound + Self.exifSignature.count
        guard base < segment.end else { return nil }
        let block = UnsafeRawBufferPointer(rebasing: file[base..<segment.end])
        guard let structure = try? TIFFStructure.parse(block), structure.ifd0.next != 0 else { return nil }
        let reader = TIFFReader(bytes: block, order: structure.byteOrder)
        let ifd1 = Int(structure.ifd0.next)
        guard let count = try? reader.u16(at: ifd1) else { return nil }
        var start: Int?, length: Int?
        for index in 0..<Int(count) {
            let at = ifd1 + 2 + 12 * index
            guard let tag = try? reader.u16(at: at), let type = try? reader.u16(at: at + 2),
                  let values = try? reader.u32(at: at + 4), values == 1 else { continue }
            let value: Int?
            switch type {
            case 3: value = (try? reader.u16(at: at + 8)).map(Int.init)
            case 4: value = (try? reader.u32(at: at + 8)).map(Int.init)
            default: value = nil
            }
            if tag == 0x0201 { start = value } else if tag == 0x0202 { length = value }
        }
        guard let start, let length, length >= 4, start >= 8, start <= block.count, length <= block.count - start,
              block[start] == 0xFF, block[start + 1] == 0xD8 else { return nil }
        return (base + start)..<(base + start + length)
    }
}
