import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Photos of the walk in ``TagEndToEndTests`` (a camera on Berlin time and 3 min 17.3 s fast),
/// optionally with IMG_0001.JPG a photo of the recorder's QR code 20.7 s after the start.
struct TagTrip {
    typealias Day = TagEndToEndTests
    /// What the camera's clock needs to read UTC: `--offset` that is exactly right.
    static let rightOffset = "-2:03:17.3"

    let folder: TemporaryFolder
    let photos: URL
    let nonce: String
    /// Seconds after the route's start at which each photo was truly taken.
    let shots: [String: Double]

    init(photoCount: Int, qrPhoto: Bool) async throws {
        folder = try TemporaryFolder()
        photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        nonce = QRPayload.makeNonce()
        var shots: [String: Double] = [:]
        if qrPhoto {
            let shown = Int(Day.start) + 20, shot = Double(shown) + 0.7
            let reading = Day.cameraReading(shot)
            let url = photos.appendingPathComponent("IMG_0001.JPG")
            try await ExternalTool.makePhoto(url, time: reading.0, payload: QRPayload(time: shown, nonce: nonce).text, size: "2400x1800")
            try await ExternalTool.setCaptureTime(url, reading.0, subSeconds: reading.1)
            shots["IMG_0001.JPG"] = shot - Day.start
        }
        let base = folder.url.appendingPathComponent("base.jpg")
        try await ExternalTool.makePhoto(base, time: "2024:01:01 00:00:00", size: "640x480")
        for index in 0..<photoCount {
            let name = String(format: "IMG_%04d.JPG", index + 2)
            let offset = 45.2 + 50 * Double(index)
            let url = photos.appendingPathComponent(name)
            try FileManager.default.copyItem(at: base, to: url)
            let reading = Day.cameraReading(Day.start + offset)
            try await ExternalTool.setCaptureTime(url, reading.0, subSeconds: reading.1)
            shots[name] = offset
        }
        self.shots = shots
    }

    /// The walk as a GPX file.
    func gpx() throws -> URL {
        let url = folder.url.appendingPathComponent("walk.gpx")
        try TrackFile.write([Day.track()], as: .gpx).write(to: url)
        return url
    }

    /// The walk as an encrypted route envelope, sealed with the trip's nonce (QR period 1 s).
    func envelope(passphrase: String) throws -> URL {
        let url = folder.url.appendingPathComponent("route.json")
        let route = Route(nonce: nonce, qrPeriod: 1, tracks: [Day.track()])
        try RouteEnvelope.seal(route, passphrase: passphrase, nonce: nonce, kdf: .pbkdf2(iterations: 1000)).jsonData().write(to: url)
        return url
    }

    /// Checks with exiftool that every photo is tagged within 1 m of where it was taken.
    func expectTaggedWhereTaken(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for (name, offset) in shots.sorted(by: { $0.key < $1.key }) {
            let truth = Day.truth(Day.start + offset)
            let read = try #require(try await ExternalTool.position(photos.appendingPathComponent(name)), "exiftool finds no GPS in \(name)",
                                    sourceLocation: sourceLocation)
            let error = Geodesy.distance((read.latitude, read.longitude), (truth.latitude, truth.longitude))
            #expect(error < 1.0, "\(name) is \(error) m from where it was taken", sourceLocation: sourceLocation)
        }
    }

    /// The UTC time `tag --json` gave a photo, as seconds after the route's start.
    static func utcOffset(_ report: [String: Any]?) -> Double? {
        guard let text = report?["utcTime"] as? String, let date = try? Date(text, strategy: .iso8601) else { return nil }
        return date.timeIntervalSince1970 - Day.start
    }
}

/// Two photos for a route recorded from `start` (Unix seconds) with `nonce`, by a camera whose
/// clock is 7 min 03 s slow: IMG_0001.JPG shows the route's QR code of `start + 10`, and
/// IMG_0002.JPG (a real camera's photo) was taken at `start + 200`.
struct TwoPhotoTrip {
    let photos: URL
    let qr: URL
    let other: URL

    init(in folder: URL, start: Double, nonce: String) async throws {
        photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        func reading(_ utc: Double) -> String {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(identifier: "UTC")
            f.dateFormat = "yyyy:MM:dd HH:mm:ss"
            return f.string(from: Date(timeIntervalSince1970: utc - 423))
        }
        qr = photos.appendingPathComponent("IMG_0001.JPG")
        try await ExternalTool.makePhoto(qr, time: reading(start + 10), payload: QRPayload(time: Int(start) + 10, nonce: nonce).text, size: "1600x1200")
        try await ExternalTool.setCaptureTime(qr, reading(start + 10), subSeconds: "50")
        other = photos.appendingPathComponent("IMG_0002.JPG")
        try FileManager.default.copyItem(at: Fixtures.url("photos/Canon.jpg"), to: other)
        try await ExternalTool.setCaptureTime(other, reading(start + 200), subSeconds: "50")
    }
}
