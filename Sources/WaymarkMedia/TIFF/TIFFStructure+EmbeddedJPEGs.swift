import Foundation

extension TIFFStructure {
    /// The JPEG images the directories of a TIFF-based file point to — thumbnails and previews of
    /// CR2, NEF, ARW, DNG, ORF, PEF files: a JPEGInterchangeFormat/Length pair, or a single strip of
    /// a JPEG-compressed directory (DNG previews). Every range lies in `bytes` and starts with a
    /// JPEG's SOI marker; whether libjpeg-turbo can decode it is for the caller to check
    /// (``JPEGLayout/decodableFrame(_:_:)``). A structure ``parse(_:)`` refuses yields none.
    static func embeddedJPEGs(in bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        guard let structure = try? parse(bytes) else { return [] }
        let reader = TIFFReader(bytes: bytes, order: structure.byteOrder)
        var found: [Range<Int>] = []
        for offset in structure.directoryOffsets {
            guard let values = singleValues(at: offset, reader: reader) else { continue }
            var candidates: [(start: Int?, length: Int?)] = [(values[0x0201], values[0x0202])]
            if let compression = values[0x0103], compression == 6 || compression == 7 {
                candidates.append((values[0x0111], values[0x0117]))
            }
            for case let (start?, length?) in candidates where length >= 4 && start >= 8 && start <= bytes.count && length <= bytes.count - start {
                let range = start..<(start + length)
                if bytes[start] == 0xFF, bytes[start + 1] == 0xD8, !found.contains(range) { found.append(range) }
            }
        }
        return found
    }

    /// The SHORT or LONG tags of the directory at `offset` that hold a single value, by tag.
    private static func singleValues(at offset: Int, reader: TIFFReader) -> [UInt16: Int]? {
        guard let count = try? reader.u16(at: offset), count <= UInt16(maxEntries) else { return nil }
        var values: [UInt16: Int] = [:]
        for index in 0..<Int(count) {
            let at = offset + 2 + 12 * index
            guard let tag = try? reader.u16(at: at), let type = try? reader.u16(at: at + 2),
                  let number = try? reader.u32(at: at + 4) else { return nil }
            guard number == 1 else { continue }
            switch type {
            case 3: values[tag] = (try? reader.u16(at: at + 8)).map(Int.init)
            case 4: values[tag] = (try? reader.u32(at: at + 8)).map(Int.init)
            default: continue
            }
        }
        return values
    }
}
