import Foundation
import Testing
import WaymarkTestSupport
import WaymarkCore

/// `waymark tag` on Canon CR3 and HEIC files: read by Waymark's own ISO-BMFF walker, the position
/// goes into an XMP sidecar that exiftool and exiv2 read back, and the photos stay byte-identical.
@Suite("waymark tag on CR3 and HEIC files", .serialized)
struct TagBMFFTests {
    static let cr3Time = "2018:02:21 12:08:56"   // CanonRaw.cr3's DateTimeOriginal, as exiftool reads it
    static let heicTime = "2024:06:01 12:03:04"  // written into the HEIC by exiftool, with .25 s and +00:00
    static let cr3Place = (latitude: -33.856_8, longitude: 151.215_3)
    static let heicPlace = (latitude: 46.378_9, longitude: 13.836_1)

    static func date(_ exif: String) throws -> Date {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return try #require(f.date(from: exif))
    }

    /// exiv2's reading of a sidecar's XMP GPS coordinate ("33,51.408S" → -33.8568).
    static func exiv2XMP(_ url: URL, _ key: String) async throws -> Double? {
        let output = String(decoding: try await ExternalTool.run(["exiv2", "-q", "-Pkv", "-g", "Xmp.exif.\(key)", url.path]), as: UTF8.self)
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("Xmp.exif.\(key) ") }) else { return nil }
        var text = line.dropFirst("Xmp.exif.\(key) ".count).trimmingCharacters(in: .whitespaces)
        guard let hemisphere = text.last else { return nil }
        text.removeLast()
        let parts = text.split(separator: ",").compactMap { Double($0) }
        guard parts.count >= 2 else { return nil }
        let value = parts[0] + parts[1] / 60 + (parts.count > 2 ? parts[2] / 3600 : 0)
        return hemisphere == "S" || hemisphere == "W" ? -value : value
    }

    @Test("CR3 and HEIC: tagged through sidecars that exiftool and exiv2 read, the reason says why, originals byte-identical")
    func tagsThroughSidecars() async throws {
        let folder = try TemporaryFolder()
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let cr3 = photos.appendingPathComponent("CanonRaw.cr3")
        try FileManager.default.copyItem(at: Fixtures.url("photos/CanonRaw.cr3"), to: cr3)
        let png = folder.url.appendingPathComponent("picture.png")
        try await ExternalTool.run(["convert", "-size", "320x240", "gradient:white-navy", png.path])
        let heic = photos.appendingPathComponent("IMG_0002.HEIC")
        try await ExternalTool.run(["heif-enc", "-q", "60", "-o", heic.path, png.path])
        try await ExternalTool.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=\(Self.heicTime)", "-SubSecTimeOriginal=25",
                              "-OffsetTimeOriginal=+00:00", heic.path])
        let originals = [cr3: try Data(contentsOf: cr3), heic: try Data(contentsOf: heic)]

        // One short stationary track around each photo's time.
        var tracks: [Track] = []
        for (time, place) in [(Self.cr3Time, Self.cr3Place), (Self.heicTime, Self.heicPlace)] {
            let t = try Self.date(time)
            tracks.append(Track(fixes: [-10.0, 0, 10].map {
                Fix(latitude: place.latitude, longitude: place.longitude, altitude: 50, accuracy: 4, time: t.addingTimeInterval($0))
            }))
        }
        let track = folder.url.appendingPathComponent("track.gpx")
        try TrackFile.write(tracks, as: .gpx).write(to: track)

        let output = try await WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "0:00:00", "--json"])
        #expect(output.status == 0, "\(output.stdout)\n\(output.stderr)")
        let reports = try WaymarkBinary.reports(output)
        for (url, place) in [(cr3, Self.cr3Place), (heic, Self.heicPlace)] {
            let name = url.lastPathComponent
            let report = reports[name] ?? [:]
            #expect(report["status"] as? String == "tagged", "\(name): \(report)")
            #expect(report["sidecar"] as? Bool == true, "\(name): \(report)")
            #expect((report["reason"] as? String ?? "").contains("CR3 and HEIF/HEIC files are not rewritten"), "\(name): \(report)")
            let sidecar = URL(fileURLWithPath: url.path + ".xmp")
            let read = try #require(try await ExternalTool.position(sidecar), "exiftool reads no position in \(name).xmp")
            #expect(abs(read.latitude - place.latitude) < 1e-6 && abs(read.longitude - place.longitude) < 1e-6, "\(name): \(read)")
            let latitude = try #require(try await Self.exiv2XMP(sidecar, "GPSLatitude"), "exiv2 reads no latitude in \(name).xmp")
            let longitude = try #require(try await Self.exiv2XMP(sidecar, "GPSLongitude"))
            #expect(abs(latitude - place.latitude) < 1e-5 && abs(longitude - place.longitude) < 1e-5, "\(name): exiv2 \(latitude) \(longitude)")
            #expect(try Data(contentsOf: url) == originals[url], "\(name) changed")
        }
        // The capture times are the cameras' own: the CR3's equals exiftool's reading, the HEIC's has its sub-seconds.
        #expect((reports["CanonRaw.cr3"]?["captureTime"] as? String ?? "").hasPrefix(Self.cr3Time))
        #expect((reports["IMG_0002.HEIC"]?["captureTime"] as? String ?? "").hasPrefix("\(Self.heicTime).25"))
    }
}
