import Foundation
import Testing
import WaymarkTestSupport
import WaymarkCore

/// A photographer's day, end to end: a route recorded with a QR period of 1 s, a camera set to
/// Berlin time and 3 min 17.3 s fast, one photo of the QR code, and `waymark tag --route`.
@Suite("waymark tag, end to end", .serialized)
struct TagEndToEndTests {
    static let start = 1_717_236_000.0  // 2024-06-01 10:00:00 UTC, summer time in Berlin (UTC+2)
    static let cameraAhead = 2 * 3600 + 197.3  // Berlin offset plus the camera clock's own error
    static let origin = (latitude: 46.4372, longitude: 13.7767)

    /// Where the walker truly is at a UTC instant: 1.2 m/s east, swinging 30 m north and south.
    static func truth(_ t: Double) -> (latitude: Double, longitude: Double) {
        let s = t - start
        let east = 1.2 * s, north = 30 * sin(s / 60)
        return (origin.latitude + north / 111_132.954,
                origin.longitude + east / (111_319.49 * cos(origin.latitude * .pi / 180)))
    }

    static func track() -> Track {
        Track(fixes: stride(from: start - 60, through: start + 600, by: 1).map { t in
            let p = truth(t)
            return Fix(latitude: p.latitude, longitude: p.longitude, altitude: 1500 + (t - start) / 10, accuracy: 4, time: Date(timeIntervalSince1970: t))
        })
    }

    /// The camera's EXIF reading for a true UTC instant: "YYYY:MM:DD HH:MM:SS" and hundredths.
    static func cameraReading(_ utc: Double) -> (String, String) {
        let local = utc + cameraAhead
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: local.rounded(.down)))
        let hundredths = Int(((local - local.rounded(.down)) * 100).rounded(.down))
        return (String(format: "%04d:%02d:%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!),
                String(format: "%02d", hundredths))
    }

    @Test("the clock offset is recovered from a photographed QR code and every photo lands within 1 m")
    func qrPhotoAndEncryptedRoute() async throws {
        let folder = try TemporaryFolder()
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)

        let nonce = QRPayload.makeNonce()
        let qrShown = Int(Self.start) + 20
        let qrShot = Double(qrShown) + 0.7  // somewhere inside the 1-second period
        let qrReading = Self.cameraReading(qrShot)
        try await ExternalTool.makePhoto(photos.appendingPathComponent("IMG_0001.JPG"), time: qrReading.0,
                                   payload: QRPayload(time: qrShown, nonce: nonce).text, size: "4000x3000")
        try await ExternalTool.setCaptureTime(photos.appendingPathComponent("IMG_0001.JPG"), qrReading.0, subSeconds: qrReading.1)

        let base = photos.appendingPathComponent("base.jpg")
        try await ExternalTool.makePhoto(base, time: "2024:01:01 00:00:00", size: "640x480")
        let shots: [(name: String, offset: Double)] = [("IMG_0002.JPG", 45.2), ("IMG_0003.JPG", 100.9), ("IMG_0004.JPG", 200.4),
                                                       ("IMG_0005.JPG", 333.3), ("IMG_0006.JPG", 599.0), ("IMG_0007.JPG", 610.0),
                                                       ("IMG_0008.JPG", 650.0)]
        for shot in shots {
            let url = photos.appendingPathComponent(shot.name)
            try FileManager.default.copyItem(at: base, to: url)
            let reading = Self.cameraReading(Self.start + shot.offset)
            try await ExternalTool.setCaptureTime(url, reading.0, subSeconds: reading.1)
        }
        try FileManager.default.removeItem(at: base)

        let route = Route(nonce: nonce, qrPeriod: 1, tracks: [Self.track()])
        let envelope = try RouteEnvelope.seal(route, passphrase: "correct horse battery staple", nonce: nonce)
        let routeFile = folder.url.appendingPathComponent("route.json")
        try envelope.jsonData().write(to: routeFile)

        let output = try await WaymarkBinary.run(["tag", photos.path, "--route", routeFile.path, "--json"],
                                           environment: ["WAYMARK_PASSPHRASE": "correct horse battery staple"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stderr.contains("QR"), "the summary names the QR photo as the clock source: \(output.stderr)")
        let reports = try WaymarkBinary.reports(output)

        let all = [("IMG_0001.JPG", qrShot - Self.start)] + shots.map { ($0.name, $0.offset) }
        for (name, offset) in all where offset <= 600 {
            let truth = Self.truth(Self.start + offset)
            let report = try #require(reports[name], "no report for \(name)")
            #expect(report["status"] as? String == "tagged", "\(name): \(report)")
            // The recovered UTC is inside the error bound of a 1-second QR period (±0.5 s).
            let utc = try #require((report["utcTime"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
            #expect(abs(utc.timeIntervalSince1970 - (Self.start + offset)) <= 0.51, "\(name): \(report)")
            let read = try #require(try await ExternalTool.position(photos.appendingPathComponent(name)), "exiftool finds no GPS in \(name)")
            let error = Geodesy.distance((read.latitude, read.longitude), (truth.latitude, truth.longitude))
            #expect(error < 1.0, "\(name) is \(error) m from where it was taken")
        }
        // 10 s past the end of the route: within --max-extrapolation, so it gets the end fix.
        #expect((reports["IMG_0007.JPG"]?["reason"] as? String)?.contains("beyond the end") == true)
        // 50 s past the end: not tagged, and the report says how far.
        let late = try #require(reports["IMG_0008.JPG"])
        #expect(late["status"] as? String == "outside-route")
        #expect((late["reason"] as? String)?.contains("after the route ended") == true)
        #expect(abs((late["secondsFromRoute"] as? Double ?? 0) - 50) < 1)
        #expect(try await ExternalTool.position(photos.appendingPathComponent("IMG_0008.JPG")) == nil)
    }

    @Test("a wrong passphrase stops with a clear error and writes nothing")
    func wrongPassphrase() async throws {
        let folder = try TemporaryFolder()
        let photo = try folder.copy(fixture: "photos/Canon.jpg")
        let before = try Data(contentsOf: photo)
        let route = Route(tracks: [Self.track()])
        let routeFile = folder.url.appendingPathComponent("route.json")
        try RouteEnvelope.seal(route, passphrase: "right", nonce: "2OANEZK7Q1XD").jsonData().write(to: routeFile)
        let output = try await WaymarkBinary.run(["tag", folder.url.path, "--route", routeFile.path, "--nonce", "2OANEZK7Q1XD", "--offset", "0:00:00"],
                                           environment: ["WAYMARK_PASSPHRASE": "wrong"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("passphrase"), "\(output.stderr)")
        #expect(try Data(contentsOf: photo) == before)
    }
}
