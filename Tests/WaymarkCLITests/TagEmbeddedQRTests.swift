import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// `waymark tag` and `waymark qr` find the QR code in a photo's embedded previews — also in a
/// folder of RAW files only — and say which image it was read in.
@Suite("waymark tag and qr: QR codes in embedded previews", .serialized)
struct TagEmbeddedQRTests {
    typealias Day = TagEndToEndTests

    /// A photo of the code shown at `shown` (route time), taken in the middle of its 1-s period.
    static func qrShot(_ shown: Int) -> (reading: (String, String), payloadTime: Int, utc: Double) {
        let utc = Double(shown) + 0.5
        return (Day.cameraReading(utc), shown, utc)
    }

    static func setCaptureTime(_ url: URL, _ reading: (String, String)) async throws {
        try await ExternalTool.setCaptureTime(url, reading.0, subSeconds: reading.1)
    }

    static func gpx(in folder: TemporaryFolder) throws -> URL {
        let url = folder.url.appendingPathComponent("walk.gpx")
        try TrackFile.write([Day.track()], as: .gpx).write(to: url)
        return url
    }

    @Test("a folder of RAW files only (CR2, DNG, CR3) whose previews show the code: the clock is synced from them")
    func rawOnlyFolder() async throws {
        let folder = try TemporaryFolder()
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let nonce = QRPayload.makeNonce()
        var truth: [String: Double] = [:]
        let qrFiles = [("IMG_0001.CR2", "CanonRaw.cr2", 20), ("IMG_0002.DNG", "DNG.dng", 140), ("IMG_0003.CR3", "CanonRaw.cr3", 260)]
        for (name, fixture, seconds) in qrFiles {
            let shot = Self.qrShot(Int(Day.start) + seconds)
            let url = try folder.copy(fixture: "photos/\(fixture)", as: "photos/\(name)")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
            try await Self.setCaptureTime(url, shot.reading)
            let preview = folder.url.appendingPathComponent("\(name).preview.jpg")
            try await ExternalTool.makeQRJPEG(preview, payload: QRPayload(time: shot.payloadTime, nonce: nonce).text, width: 1620, height: 1080)
            if fixture.hasSuffix(".cr3") {
                try CR3Fixture.withPreview(Data(contentsOf: url), jpeg: Data(contentsOf: preview), width: 1620, height: 1080).write(to: url)
            } else {
                try await ExternalTool.embed(preview, as: "PreviewImage", into: url)
            }
            truth[name] = shot.utc
        }
        // A RAW photo without a code, tagged by the clock the others set.
        let plain = try folder.copy(fixture: "photos/CanonRaw.cr2", as: "photos/IMG_0004.CR2")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: plain.path)
        try await Self.setCaptureTime(plain, Day.cameraReading(Day.start + 333.3))
        truth["IMG_0004.CR2"] = Day.start + 333.3
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path).allSatisfy { !$0.uppercased().hasSuffix(".JPG") })

        let output = try await WaymarkBinary.run(["tag", photos.path, "--track", try Self.gpx(in: folder).path, "--qr-period", "1", "--json"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("from 3 QR photos"), "\(output.stderr)")
        let reports = try WaymarkBinary.reports(output)
        for (name, utc) in truth.sorted(by: { $0.key < $1.key }) {
            let report = reports[name]
            #expect(report?["status"] as? String == "tagged", "\(name): \(report ?? [:])")
            let offset = try #require(TagTrip.utcOffset(report), "\(name) has no UTC time")
            #expect(abs(offset - (utc - Day.start)) < 0.05, "\(name) was given \(offset) s, taken at \(utc - Day.start) s")
            #expect(report?["qrImage"] as? String == (name == "IMG_0004.CR2" ? nil : "raw-preview"), "\(name): \(report ?? [:])")
        }
        #expect(reports["IMG_0004.CR2"]?["qrImage"] is NSNull)
    }

    @Test("the image the code was read in, per photo: waymark qr (text and --json) and tag --json")
    func reportsTheImage() async throws {
        let folder = try TemporaryFolder()
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let nonce = QRPayload.makeNonce()
        // IMG_0001: the code in the Exif thumbnail only; IMG_0002: in the frame only.
        let first = Self.qrShot(Int(Day.start) + 20), second = Self.qrShot(Int(Day.start) + 140)
        let thumbnailPhoto = photos.appendingPathComponent("IMG_0001.JPG")
        try await ExternalTool.makePhoto(thumbnailPhoto, time: first.reading.0, size: "2400x1800")
        try await Self.setCaptureTime(thumbnailPhoto, first.reading)
        let thumbnail = folder.url.appendingPathComponent("thumb.jpg")
        try await ExternalTool.makeQRJPEG(thumbnail, payload: QRPayload(time: first.payloadTime, nonce: nonce).text, width: 160, height: 120)
        try await ExternalTool.embed(thumbnail, as: "ThumbnailImage", into: thumbnailPhoto)
        let framePhoto = photos.appendingPathComponent("IMG_0002.JPG")
        try await ExternalTool.makePhoto(framePhoto, time: second.reading.0, payload: QRPayload(time: second.payloadTime, nonce: nonce).text, size: "2400x1800")
        try await Self.setCaptureTime(framePhoto, second.reading)

        let text = try await WaymarkBinary.run(["qr", photos.path])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.map(\.first) == ["\(photos.path)/IMG_0001.JPG", "\(photos.path)/IMG_0002.JPG"], "\(text.stdout)")
        #expect(lines.map(\.last) == ["exif-thumbnail", "full-image"], "\(text.stdout)")

        let json = try await WaymarkBinary.run(["qr", photos.path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let found = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(found.map { $0["image"] as? String } == ["exif-thumbnail", "full-image"])
        #expect(found.map { ($0["payloads"] as? [String])?.first } == [QRPayload(time: first.payloadTime, nonce: nonce).text,
                                                                       QRPayload(time: second.payloadTime, nonce: nonce).text])

        let tag = try await WaymarkBinary.run(["tag", photos.path, "--track", try Self.gpx(in: folder).path, "--qr-period", "1", "--json", "--dry-run"])
        #expect(tag.status == 0, "\(tag.stderr)")
        let reports = try WaymarkBinary.reports(tag)
        #expect(reports["IMG_0001.JPG"]?["qrImage"] as? String == "exif-thumbnail")
        #expect(reports["IMG_0002.JPG"]?["qrImage"] as? String == "full-image")
    }
}
