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
        "JVC.jpg": "2004:06:26 12:36:46", "Sanyo.jpg": "2003:10:11 12:43:05", "CanonRaw.cr3": "2018:02:21 12:08:56",
    ]
    /// Every fixture with a capture time whose structure is plain JPEG or TIFF (GPS.jpg keeps its own position).
    static let inPlace = ["Canon.jpg", "CanonRaw.cr2", "DNG.dng", "FujiFilm.jpg", "JVC.jpg", "Nikon.jpg", "Nikon.nef", "Olympus.jpg",
                          "Panasonic.jpg", "Pentax.jpg", "Sanyo.jpg", "Sony.jpg"]

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

    /// What may differ after tagging: the file's own facts, the GPS group and what exiftool computes from it.
    static func isExpectedChange(_ key: String) -> Bool {
        ["System:", "File:", "GPS:", "Composite:", "ExifTool:"].contains { key.hasPrefix($0) } || key == "SourceFile"
    }

    @Test("every fixture: tagged in place with every other tag, maker notes included, and the image data unchanged; RW2 and CR3 by sidecar")
    func tagsEveryFixture() async throws {
        let (folder, photos, track) = try prepare()
        _ = folder
        var before: [String: [String: String]] = [:]
        var warnings: [String: Set<String>] = [:]
        var originals: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: photos.path) {
            let url = photos.appendingPathComponent(name)
            originals[name] = try Data(contentsOf: url)
            before[name] = try await ExternalTool.exiftoolTags(url).filter { !Self.isExpectedChange($0.key) }
            warnings[name] = try await ExternalTool.validationWarnings(url)
        }
        let gpsBefore = try await ExternalTool.position(photos.appendingPathComponent("GPS.jpg"))
        let output = try await WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "+0:00:00", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        let reports = try WaymarkBinary.reports(output)

        for name in Self.inPlace {
            let url = photos.appendingPathComponent(name)
            #expect(reports[name]?["status"] as? String == "tagged", "\(name): \(reports[name] ?? [:])")
            #expect(reports[name]?["sidecar"] as? Bool == false)
            #expect(reports[name]?["writeMethod"] as? String == (name.hasSuffix(".jpg") ? "exif-block-extended" : "appended-to-file"))
            // exiv2, a reader independent of exiftool, reads the position to 1e-7°.
            let read = try #require(try await ExternalTool.exiv2Position(url), "exiv2 reads no GPS in \(name)")
            #expect(abs(read.latitude - Self.expected(name).latitude) < 1e-7 && abs(read.longitude - Self.expected(name).longitude) < 1e-7, "\(name)")
            // exiftool's full readout, maker notes included, is what it was.
            let after = try await ExternalTool.exiftoolTags(url).filter { !Self.isExpectedChange($0.key) }
            let changed = (before[name] ?? [:]).keys.filter { before[name]?[$0] != after[$0] }.sorted()
            #expect(changed.isEmpty, "\(name): \(changed.map { "\($0): \(before[name]?[$0] ?? "-") → \(after[$0] ?? "-")" })")
            #expect(Set(after.keys).subtracting(Set((before[name] ?? [:]).keys)).isEmpty, "\(name) gained tags")
            let newWarnings = try await ExternalTool.validationWarnings(url).subtracting(warnings[name] ?? [])
            #expect(newWarnings.isEmpty, "\(name): exiftool -validate warns \(newWarnings.sorted())")
            // The image data is byte-identical: a JPEG's from its SOS on, a TIFF-based file's every byte after the header.
            let written = try Data(contentsOf: url), original = originals[name] ?? Data()
            if name.hasSuffix(".jpg") {
                #expect(jpegImageData(written) == jpegImageData(original), "\(name): image data changed")
            } else {
                #expect(written.count > original.count && written[8..<original.count] == original[8...], "\(name): original bytes moved")
            }
        }
        // Not plain TIFF: the position goes into a sidecar and the photo is untouched.
        for name in ["Panasonic.rw2", "CanonRaw.cr3"] {
            #expect(reports[name]?["status"] as? String == "tagged")
            #expect(reports[name]?["sidecar"] as? Bool == true, "\(name): \(reports[name] ?? [:])")
            let read = try #require(try await ExternalTool.position(photos.appendingPathComponent("\(name).xmp")))
            #expect(abs(read.latitude - Self.expected(name).latitude) < 1e-6)
        }
        // No capture time: reported, not guessed.
        #expect(reports["ExifTool.tif"]?["status"] as? String == "no-capture-time")
        #expect(reports["QuickTime.heic"]?["status"] as? String == "no-capture-time")
        // GPS.jpg keeps the position it had.
        #expect(reports["GPS.jpg"]?["status"] as? String == "kept-existing-gps")
        let gpsAfter = try await ExternalTool.position(photos.appendingPathComponent("GPS.jpg"))
        #expect(gpsAfter?.latitude == gpsBefore?.latitude && gpsAfter?.longitude == gpsBefore?.longitude)
        // Every photo not tagged in place is byte for byte what it was.
        for name in originals.keys where !Self.inPlace.contains(name) {
            #expect(try Data(contentsOf: photos.appendingPathComponent(name)) == originals[name], "\(name) was touched")
        }
    }

    @Test("--overwrite replaces the position GPS.jpg already had; --dry-run writes nothing")
    func overwriteAndDryRun() async throws {
        let (folder, photos, track) = try prepare()
        _ = folder
        let dry = try await WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "0:00:00", "--overwrite", "--dry-run"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("Would tag"))
        for name in try FileManager.default.contentsOfDirectory(atPath: photos.path) {
            #expect(try Data(contentsOf: photos.appendingPathComponent(name)) == Fixtures.data("photos/\(name)"), "--dry-run touched \(name)")
        }
        let output = try await WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "0:00:00", "--overwrite"])
        #expect(output.status == 0, "\(output.stderr)")
        let read = try #require(try await ExternalTool.position(photos.appendingPathComponent("GPS.jpg")))
        #expect(abs(read.latitude - Self.expected("GPS.jpg").latitude) < 1e-6)
        #expect(abs(read.longitude - Self.expected("GPS.jpg").longitude) < 1e-6)
    }

    @Test("--sidecar leaves every photo untouched and writes NAME.EXT.xmp files exiftool reads")
    func sidecarMode() async throws {
        let (folder, photos, track) = try prepare()
        _ = folder
        let output = try await WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "0:00:00", "--sidecar"])
        #expect(output.status == 0, "\(output.stderr)")
        for name in Self.inPlace {
            #expect(try Data(contentsOf: photos.appendingPathComponent(name)) == Fixtures.data("photos/\(name)"))
            let read = try #require(try await ExternalTool.position(photos.appendingPathComponent("\(name).xmp")), "no sidecar for \(name)")
            #expect(abs(read.latitude - Self.expected(name).latitude) < 1e-6)
        }
    }

    @Test("the photos are an hour off the route: the report says how far, so a wrong time zone shows at once")
    func wrongTimeZoneShows() async throws {
        let (folder, photos, track) = try prepare()
        _ = folder
        let output = try await WaymarkBinary.run(["tag", photos.path, "--track", track.path, "--offset", "+1:00:00"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("Outside the route"))
        #expect(output.stdout.contains("1 h 00 min after the route ended") || output.stdout.contains("during a pause"), "\(output.stdout)")
        #expect(output.stdout.contains("time zone"))
    }
}

@Suite("waymark tag refuses what it cannot do, and says how to fix it")
struct TagUsageTests {
    @Test("without any way to sync the clock it stops and lists the ways")
    func noSync() async throws {
        let folder = try TemporaryFolder()
        let photo = try folder.copy(fixture: "photos/Canon.jpg")
        let track = folder.url.appendingPathComponent("t.gpx")
        try Fixtures.data("tracks/around-visnjan-with-car.gpx").write(to: track)
        let output = try await WaymarkBinary.run(["tag", folder.url.path, "--track", track.path])
        #expect(output.status == 2)
        for option in ["--sync", "--offset", "--timezone", "QR"] { #expect(output.stderr.contains(option), "\(output.stderr)") }
        #expect(try Data(contentsOf: photo) == Fixtures.data("photos/Canon.jpg"))
    }

    @Test("a GPX without times is refused with the reason")
    func trackWithoutTimes() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.copy(fixture: "photos/Canon.jpg")
        let output = try await WaymarkBinary.run(["tag", folder.url.path, "--track", Fixtures.url("tracks/cerknicko-without-times.gpx").path, "--offset", "0:00:00"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("cerknicko-without-times.gpx"))
        #expect(output.stderr.lowercased().contains("time"))
    }

    @Test("a bad --offset or --sync is a usage error naming the format")
    func badOptions() async throws {
        let folder = try TemporaryFolder()
        let offset = try await WaymarkBinary.run(["tag", folder.url.path, "--track", "x.gpx", "--offset", "one hour"])
        #expect(offset.status != 0)
        #expect(offset.stderr.contains("HH:MM:SS"), "\(offset.stderr)")
        let sync = try await WaymarkBinary.run(["tag", folder.url.path, "--track", "x.gpx", "--sync", "IMG_1.JPG=2024-05-01 10:00:00"])
        #expect(sync.status != 0)
        #expect(sync.stderr.lowercased().contains("zone"), "\(sync.stderr)")
    }

    @Test("an empty folder says there are no photos")
    func noPhotos() async throws {
        let folder = try TemporaryFolder()
        let output = try await WaymarkBinary.run(["tag", folder.url.path, "--track", "x.gpx", "--offset", "0:00:00"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("No photos"))
    }
}
