import Foundation
import Testing
import WaymarkTestSupport
import WaymarkCore

/// `waymark tag` on copies of every real camera file in the shared fixtures.
@Suite("waymark tag on real camera files", .serialized)
struct TagFixturesTests {
    /// Each fixture's DateTimeOriginal (the camera's reading, used as UTC with --offset 0).
    static let captureTimes: [String: String] = [
        "Canon.jpg": "2003:12:04 06:46:52", "CanonRaw.cr2": "2005:08:03 18:59:18", "DNG.dng": "2005:08:03 18:59:18",
        "FujiFilm.jpg": "2001:05:19 18:36:41", "GPS.jpg": "2002:07:13 15:58:28", "Nikon.jpg": "2001:08:01 12:57:23",
        "Nikon.nef": "2004:06:09 16:02:35", "Olympus.jpg": "1999:12:06 16:38:40", "Panasonic.jpg": "2004:08:28 15:55:46",
        "Panasonic.rw2": "2008:08:06 15:21:56", "Pentax.jpg": "2008:03:02 12:01:23", "Sony.jpg": "2003:12:18 13:51:33",
    ]
    static let inPlace = ["Canon.jpg", "CanonRaw.cr2", "DNG.dng", "FujiFilm.jpg", "Nikon.jpg", "Olympus.jpg", "Panasonic.jpg", "Pentax.jpg", "Sony.jpg"]

    static func date(_ exif: String) -> Double {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return f.date(from: exif)!.timeIntervalSince1970
    }

    /// A position per capture time, different for each, so a mix-up shows (CanonRaw.cr2 and DNG.dng share one time).
    static func expected(_ name: String) -> (latitude: Double, longitude: Double) {
        let times = Set(captureTimes.values).sorted()
        let i = Double(times.firstIndex(of: captureTimes[name]!)!)
        return (-33.85 + i * 0.011_111_1, 151.21 - i * 0.022_222_2)
    }

    /// A track with one short stationary track around each photo's time.
    static func writeTrack(to url: URL) throws {
        let tracks = Set(captureTimes.values).map { time in
            let p = expected(captureTimes.first { $0.value == time }!.key), t = date(time)
            return Track(fixes: [-10.0, 0, 10].map {
                Fix(latitude: p.latitude, longitude: p.longitude, altitude: 100, accuracy: 5, time: Date(timeIntervalSince1970: t + $0))
            })
        }
        try TrackFile.write(tracks, as: .gpx).write(to: url)
    }

    func prepare() throws -> (TemporaryFolder, URL, URL) {
        let folder = try TemporaryFolder()
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("photos").path) {
            try FileManager.default.copyItem(at: Fixtures.url("photos/\(name)"), to: photos.appendingPathComponent(name))
        }
        let track = folder.url.appendingPathComponent("track.gpx")
        try Self.writeTrack(to: track)
        return (folder, photos, track)
    }

    @Test("every photo is tagged in place or by sidecar as exiv2 allows, and the report says which")
    func tagsEveryFixture() throws {
        let (folder, photos, track) = try prepare()
        _ = folder
        var before: [String: [String: String]] = [:]
        var imageData: [String: Data] = [:]
        for name in Self.inPlace {
            before[name] = try ExternalTool.exiftoolTags(photos.appendingPathComponent(name))
            imageData[name] = jpegImageData(try Data(contentsOf: photos.appendingPathComponent(name)))
        }
        let gpsBefore = try ExternalTool.position(photos.appendingPathComponent("GPS.jpg"))
        let output = try WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "+0:00:00", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let reports = try WaymarkBinary.reports(output)

        for name in Self.inPlace {
            let url = photos.appendingPathComponent(name)
            #expect(reports[name]?["status"] as? String == "tagged", "\(name): \(reports[name] ?? [:])")
            #expect(reports[name]?["sidecar"] as? Bool == false)
            let read = try #require(try ExternalTool.position(url), "no GPS in \(name)")
            #expect(abs(read.latitude - Self.expected(name).latitude) < 1e-6 && abs(read.longitude - Self.expected(name).longitude) < 1e-6, "\(name)")
            let after = try ExternalTool.exiftoolTags(url)
            let moved = ["StripOffsets", "TileOffsets", "ThumbnailOffset", "PreviewImageStart", "JpgFromRawStart"]
            for (key, value) in before[name] ?? [:] {
                let tag = String(key.split(separator: ":").last ?? "")
                if key.hasPrefix("System:") || key.hasPrefix("File:") || key.hasPrefix("GPS:") || key.hasPrefix("Composite:") || moved.contains(tag) { continue }
                #expect(after[key] == value, "\(name): \(key) changed from \(value) to \(after[key] ?? "nothing")")
            }
            if name.hasSuffix(".jpg") {
                #expect(jpegImageData(try Data(contentsOf: url)) == imageData[name], "\(name): image data changed")
            }
        }
        // exiv2 cannot write RW2, and rewriting this NEF would orphan its NikonScan directory: sidecars.
        for name in ["Panasonic.rw2", "Nikon.nef"] {
            #expect(reports[name]?["status"] as? String == "tagged")
            #expect(reports[name]?["sidecar"] as? Bool == true, "\(name): \(reports[name] ?? [:])")
            #expect(try Data(contentsOf: photos.appendingPathComponent(name)) == Fixtures.data("photos/\(name)"), "\(name) was touched")
            let read = try #require(try ExternalTool.position(photos.appendingPathComponent("\(name).xmp")))
            #expect(abs(read.latitude - Self.expected(name).latitude) < 1e-6)
        }
        // No capture time: reported, not guessed.
        #expect(reports["ExifTool.tif"]?["status"] as? String == "no-capture-time")
        #expect(reports["QuickTime.heic"]?["status"] as? String == "no-capture-time")
        // GPS.jpg keeps the position it had.
        #expect(reports["GPS.jpg"]?["status"] as? String == "kept-existing-gps")
        let gpsAfter = try ExternalTool.position(photos.appendingPathComponent("GPS.jpg"))
        #expect(gpsAfter?.latitude == gpsBefore?.latitude && gpsAfter?.longitude == gpsBefore?.longitude)
    }

    @Test("--overwrite replaces the position GPS.jpg already had; --dry-run writes nothing")
    func overwriteAndDryRun() throws {
        let (folder, photos, track) = try prepare()
        _ = folder
        let dry = try WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "0:00:00", "--overwrite", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("Would tag"))
        for name in try FileManager.default.contentsOfDirectory(atPath: photos.path) {
            #expect(try Data(contentsOf: photos.appendingPathComponent(name)) == Fixtures.data("photos/\(name)"), "--dry-run touched \(name)")
        }
        let output = try WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "0:00:00", "--overwrite"])
        #expect(output.status == 0, "\(output.stderr)")
        let read = try #require(try ExternalTool.position(photos.appendingPathComponent("GPS.jpg")))
        #expect(abs(read.latitude - Self.expected("GPS.jpg").latitude) < 1e-6)
        #expect(abs(read.longitude - Self.expected("GPS.jpg").longitude) < 1e-6)
    }

    @Test("--sidecar leaves every photo untouched and writes NAME.EXT.xmp files exiftool reads")
    func sidecarMode() throws {
        let (folder, photos, track) = try prepare()
        _ = folder
        let output = try WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "0:00:00", "--sidecar"])
        #expect(output.status == 0, "\(output.stderr)")
        for name in Self.inPlace {
            #expect(try Data(contentsOf: photos.appendingPathComponent(name)) == Fixtures.data("photos/\(name)"))
            let read = try #require(try ExternalTool.position(photos.appendingPathComponent("\(name).xmp")), "no sidecar for \(name)")
            #expect(abs(read.latitude - Self.expected(name).latitude) < 1e-6)
        }
    }

    @Test("the photos are an hour off the route: the report says how far, so a wrong time zone shows at once")
    func wrongTimeZoneShows() throws {
        let (folder, photos, track) = try prepare()
        _ = folder
        let output = try WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "+1:00:00"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("Outside the route"))
        #expect(output.stdout.contains("1 h 00 min after the route ended") || output.stdout.contains("during a pause"), "\(output.stdout)")
        #expect(output.stdout.contains("time zone"))
    }
}

@Suite("waymark tag refuses what it cannot do, and says how to fix it")
struct TagUsageTests {
    @Test("without any way to sync the clock it stops and lists the ways")
    func noSync() throws {
        let folder = try TemporaryFolder()
        let photo = try folder.copy(fixture: "photos/Canon.jpg")
        let track = folder.url.appendingPathComponent("t.gpx")
        try Fixtures.data("tracks/around-visnjan-with-car.gpx").write(to: track)
        let output = try WaymarkBinary.run(["tag", folder.url.path, "--track", track.path])
        #expect(output.status == 2)
        for option in ["--sync", "--offset", "--timezone", "QR"] { #expect(output.stderr.contains(option), "\(output.stderr)") }
        #expect(try Data(contentsOf: photo) == Fixtures.data("photos/Canon.jpg"))
    }

    @Test("a GPX without times is refused with the reason")
    func trackWithoutTimes() throws {
        let folder = try TemporaryFolder()
        _ = try folder.copy(fixture: "photos/Canon.jpg")
        let output = try WaymarkBinary.run(["tag", folder.url.path, "--track", Fixtures.url("tracks/cerknicko-without-times.gpx").path, "--offset", "0:00:00"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("cerknicko-without-times.gpx"))
        #expect(output.stderr.lowercased().contains("time"))
    }

    @Test("a bad --offset or --sync is a usage error naming the format")
    func badOptions() throws {
        let folder = try TemporaryFolder()
        let offset = try WaymarkBinary.run(["tag", folder.url.path, "--track", "x.gpx", "--offset", "one hour"])
        #expect(offset.status != 0)
        #expect(offset.stderr.contains("HH:MM:SS"), "\(offset.stderr)")
        let sync = try WaymarkBinary.run(["tag", folder.url.path, "--track", "x.gpx", "--sync", "IMG_1.JPG=2024-05-01 10:00:00"])
        #expect(sync.status != 0)
        #expect(sync.stderr.lowercased().contains("zone"), "\(sync.stderr)")
    }

    @Test("an empty folder says there are no photos")
    func noPhotos() throws {
        let folder = try TemporaryFolder()
        let output = try WaymarkBinary.run(["tag", folder.url.path, "--track", "x.gpx", "--offset", "0:00:00"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("No photos"))
    }
}
