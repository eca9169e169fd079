internal import CWaymarkMedia
import Foundation

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

    /// Returns the photo's bytes with these GPS tags written in; every other tag and the image data stay as they were.
    public func written(into photo: Data, file: String) throws -> Data {
        var copy = photo  // exiv2 may rewrite a TIFF-based file in place in the buffer it is given
        return try copy.withUnsafeMutableBytes { try withWritten(into: $0, file: file) { Data($0) } }
    }

    /// Writes these GPS tags into the photo's bytes and hands the new file to `body` without copying it.
    /// exiv2 may write into `photo` (TIFF-based files are updated in place), so it must be a scratch buffer.
    public func withWritten<R>(into photo: UnsafeMutableRawBufferPointer, file: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        var gps = raw
        var tagged: OpaquePointer?
        defer { if let tagged { wm_tagged_free(tagged) } }
        let base = photo.bindMemory(to: UInt8.self).baseAddress
        try callShim(file: file) { err, len in wm_write_gps(base, photo.count, &gps, &tagged, err, len) }
        guard let tagged, let pointer = wm_tagged_data(tagged) else { throw MediaError(file: file, message: "exiv2 returned no data") }
        return try body(UnsafeRawBufferPointer(start: pointer, count: wm_tagged_size(tagged)))
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
