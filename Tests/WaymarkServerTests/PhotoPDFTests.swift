import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkServer

/// The PDF of a photo (DESIGN §3.10, `GET /api/v1/photos/{id}.pdf`) on the real application, read
/// back by poppler (tools nobody here wrote): pdftotext finds the title, the place, the direction,
/// both hashes and the signature of the receipt; pdftoppm's rendering has the photo's colours
/// where the photo is drawn; pdfimages finds it embedded as a JPEG. The same visibility as the photo.
@Suite("Photo PDF: the photo, its data, its receipt and a map, read back with pdftotext and pdftoppm")
struct PhotoPDFTests {
    /// The path of a poppler tool; fails (does not skip) when it is missing.
    static func tool(_ name: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        let found = directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found, "\(name) is missing: run scripts/bootstrap (it installs poppler-utils)")
    }

    /// The PDF's text as pdftotext reads it, every run of white space (a line broken in the PDF too) one space.
    static func text(_ pdf: URL) async throws -> String {
        let text = String(decoding: try await ExternalTool.run([try tool("pdftotext"), "-enc", "UTF-8", pdf.path, "-"]), as: UTF8.self)
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The mean colour (0–1 per channel) of a region of an image, by ImageMagick.
    static func meanColour(_ image: URL, crop: (x: Int, y: Int, width: Int, height: Int)? = nil) async throws -> [Double] {
        var arguments = ["convert", image.path]
        if let crop { arguments += ["-crop", "\(crop.width)x\(crop.height)+\(crop.x)+\(crop.y)", "+repage"] }
        arguments += ["-format", "%[fx:mean.r] %[fx:mean.g] %[fx:mean.b]", "info:"]
        let output = String(decoding: try await ExternalTool.run(arguments), as: UTF8.self)
        return output.split(separator: " ").compactMap { Double($0) }
    }

    static func close(_ a: [Double], _ b: [Double], within tolerance: Double) -> Bool {
        a.count == 3 && b.count == 3 && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    static func fields(title: String, visibility: String = "public") -> [String: String] {
        ["latitude": "46.0512", "longitude": "14.5061", "altitude": "301.5", "accuracy": "6.5", "azimuth": "123.4", "tilt": "-4.5",
         "capturedAt": "2026-06-01T10:00:00+02:00", "title": title, "visibility": visibility,
         "centroid": #"{"latitude":46.05123,"longitude":14.50607,"samples":10}"#]
    }

    @Test("The file name is the title made safe: no quote, slash or dot-dot reaches the header; the letters of other scripts in filename*")
    func fileNames() throws {
        func disposition(_ title: String) -> String {
            PhotoController.pdfDisposition(Photo(id: UUID(), ownerID: UUID(), title: title, capturedAt: Date(timeIntervalSince1970: 1_780_300_800),
                                                 uploadedAt: Date(), place: nil, width: 1, height: 1, bytes: 1, mime: "image/jpeg", sha256: "", visibility: .public))
        }
        #expect(disposition("Field 7: north edge") == "attachment; filename=\"Field 7_north edge.pdf\"; filename*=UTF-8''Field%207_north%20edge.pdf")
        #expect(disposition("../../etc/passwd") == "attachment; filename=\"etc_passwd.pdf\"; filename*=UTF-8''etc_passwd.pdf")
        #expect(disposition("say \"cheese\"; filename=x.exe") == "attachment; filename=\"say cheese_filename_x_exe.pdf\"; filename*=UTF-8''say%20cheese_filename_x_exe.pdf")
        #expect(disposition("Šentvid") == "attachment; filename=\"_entvid.pdf\"; filename*=UTF-8''%C5%A0entvid.pdf")
        #expect(disposition("///") == "attachment; filename=\"photo-2026-06-01.pdf\"; filename*=UTF-8''photo-2026-06-01.pdf")
    }

    @Test("The map's places: the gazetteer's nearest first, each with its distance and direction from the photo, within 25 km when there are any")
    func nearestPlaces() async throws {
        let location = try #require(GazetteerLoader.location(environment: ProcessInfo.processInfo.environment, workingDirectory: packageRoot),
                                    "rg_cities1000.csv is missing from .build-venv: run scripts/bootstrap")
        let gazetteer = try Gazetteer(contentsOf: location)
        let places = gazetteer.places
        var random = SplitMix(seed: 0x9DF)
        for _ in 0..<60 {
            let place = try #require(places.randomElement(using: &random))
            let latitude = max(-89.9, min(89.9, place.latitude + Double.random(in: -0.2...0.2, using: &random)))
            let longitude = remainder(place.longitude + Double.random(in: -0.2...0.2, using: &random), 360)
            let found = PhotoReport.NearbyPlace.nearest(in: gazetteer, latitude: latitude, longitude: longitude)
            let exact = try #require(gazetteer.nearest(latitude: latitude, longitude: longitude))
            let first = try #require(found.first, "nothing near \(latitude), \(longitude)")
            #expect(first.name == exact.place.name && abs(first.distance - exact.distance) < 0.01, "\(first.name) vs \(exact.place.name) at \(latitude), \(longitude)")
            #expect(found.map(\.distance) == found.map(\.distance).sorted())
            #expect(found.count <= 5 && (found.last?.distance ?? 0) <= 25_000 || found.count == 1)
            // The direction is from the photo to the place: on a local flat map of the few
            // kilometres between them, the place lies that way (a degree or two of flattening apart).
            if abs(latitude) < 70, exact.distance > 500, exact.distance < 25_000 {
                let north = (exact.place.latitude - latitude) * 111_000
                let east = remainder(exact.place.longitude - longitude, 360) * 111_000 * cos(latitude * .pi / 180)
                let flat = (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
                #expect(abs(remainder(first.azimuth - flat, 360)) < 3, "\(first.name): \(first.azimuth)° vs \(flat)° on a flat map")
            }
        }
    }

    @Test("The owner's PDF: title, place, azimuth, hashes and signature as text; the photo's colours where it is drawn, as a JPEG", arguments: TestDatabase.all)
    func readBack(database: TestDatabase) async throws {
        let folder = try TemporaryFolder()
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let upload = try await server.upload(try await TestPhoto.jpeg(in: folder.url, gps: nil), token: alice.token,
                                                 fields: Self.fields(title: "Field 7: north edge"))
            #expect(upload.status == .created, "\(upload.text)")
            let photo = try upload.decode(PhotoDTO.self)

            let answer = try await server.send(.GET, "/api/v1/photos/\(photo.id).pdf", headers: TestServer.bearer(alice.token))
            #expect(answer.status == .ok, "\(answer.text.prefix(300))")
            #expect(answer.headers.first(name: .contentType) == "application/pdf")
            #expect(answer.headers.first(name: .contentDisposition)?.hasPrefix("attachment; filename=\"Field 7_north edge.pdf\"") == true,
                    "\(answer.headers.first(name: .contentDisposition) ?? "none")")
            let pdf = folder.url.appendingPathComponent("photo.pdf")
            try Data(answer.body.readableBytesView).write(to: pdf)
            #expect(Data(answer.body.readableBytesView).prefix(5) == Data("%PDF-".utf8))

            let receipt = try PhotoReceipt(json: Data(try await server.send(.GET, "/api/v1/photos/\(photo.id)/receipt",
                                                                            headers: TestServer.bearer(alice.token)).body.readableBytesView))
            let text = try await Self.text(pdf)
            // A long value may be broken over lines: compare without white space too.
            let joined = text.filter { !$0.isWhitespace }
            #expect(text.contains("Field 7: north edge"), "\(text)")
            #expect(text.contains("46.051200") && text.contains("14.506100"), "the place")
            #expect(text.contains("123.4°") && text.contains("-4.5°"), "the azimuth and the tilt")
            #expect(text.contains("46.051230") && text.contains("14.506070") && text.contains("10 fixes"), "the centroid")
            #expect(text.contains("301.5 m") && text.contains("± 6.5 m"), "altitude and accuracy")
            #expect(text.contains(photo.id.uuidString.lowercased()))
            #expect(joined.contains(receipt.sha256Image) && receipt.sha256Image == photo.sha256, "the image's hash")
            #expect(joined.contains(receipt.sha256Metadata), "the metadata's hash")
            #expect(joined.contains(receipt.signature.base64EncodedString()), "the signature")
            #expect(joined.contains(receipt.publicKey.base64EncodedString()), "the public key")
            #expect(text.contains(receipt.receivedAt))
            #expect(text.contains("waymark verify-receipt"))
            // The map's caption, and the nearest place of the gazetteer (scripts/bootstrap installs it).
            #expect(text.contains("accuracy ± 6.5 m") && text.contains("direction 123.4°") && text.contains("centroid of 10 fixes"), "\(text)")
            #expect(text.contains("Ljubljana"), "the nearest places of the gazetteer: \(text)")

            // The photo is embedded as a JPEG (its own bytes), not as re-encoded pixels.
            let images = String(decoding: try await ExternalTool.run([try Self.tool("pdfimages"), "-list", pdf.path]), as: UTF8.self)
            let rows = images.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            #expect(rows.count == 1 && rows.first?.contains("jpeg") == true && rows.first?.contains("1600") == true, "\(images)")

            // The page renders; where the photo is drawn it has the photo's colours: the mean of the
            // upper and of the lower part (the fixture is a navy-to-orange gradient from top to bottom).
            let prefix = folder.url.appendingPathComponent("page").path
            try await ExternalTool.run([try Self.tool("pdftoppm"), "-png", "-r", "50", "-f", "1", "-l", "1", "-singlefile", pdf.path, prefix])
            let page = URL(fileURLWithPath: prefix + ".png")
            let large = folder.url.appendingPathComponent("large.jpg")
            try Data(try await server.send(.GET, "/api/v1/photos/\(photo.id)/image/large").body.readableBytesView).write(to: large)
            let box = PhotoPDF.photoBox(width: photo.width, height: photo.height)
            let scale = 50.0 / 72
            for (part, top) in [("upper", 0.1), ("lower", 0.6)] {
                let region = (x: Int((box.x + box.width * 0.1) * scale), y: Int((box.y + box.height * top) * scale),
                              width: Int(box.width * 0.8 * scale), height: Int(box.height * 0.3 * scale))
                let drawn = try await Self.meanColour(page, crop: region)
                let original = try await Self.meanColour(large, crop: (Int(Double(photo.width) * 0.1), Int(Double(photo.height) * top),
                                                                   Int(Double(photo.width) * 0.8), Int(Double(photo.height) * 0.3)))
                #expect(Self.close(drawn, original, within: 0.05), "the \(part) part of the photo: \(drawn) drawn, \(original) in the image")
            }
            // And the margin beside it is white: the comparison above can fail.
            await #expect(Self.close(try Self.meanColour(page, crop: (2, 2, 20, 20)), [1, 1, 1], within: 0.01))
        }
    }

    @Test("The same visibility as the photo: another's private photo is 404 like its JSON, the owner's 200; unknown ids 404", arguments: TestDatabase.all)
    func visibility(database: TestDatabase) async throws {
        let folder = try TemporaryFolder()
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let bob = try await server.register("bob-\(UUID().uuidString.prefix(8).lowercased())")
            let data = try await TestPhoto.jpeg(in: folder.url, gps: nil)
            let secret = try await server.upload(data, token: alice.token, fields: Self.fields(title: "Private field", visibility: "private"))
                .decode(PhotoDTO.self)
            for headers in [TestServer.bearer(bob.token), HTTPHeaders()] {
                let json = try await server.send(.GET, "/api/v1/photos/\(secret.id)", headers: headers)
                let pdf = try await server.send(.GET, "/api/v1/photos/\(secret.id).pdf", headers: headers)
                #expect(json.status == .notFound && pdf.status == .notFound)
                #expect(pdf.text == json.text, "the same answer as the photo's JSON")
                #expect(pdf.headers.contentType == .json)
            }
            let own = try await server.send(.GET, "/api/v1/photos/\(secret.id).pdf", headers: TestServer.bearer(alice.token))
            #expect(own.status == .ok && own.headers.first(name: .contentType) == "application/pdf")

            for id in [UUID().uuidString.lowercased(), "nothing", ""] {
                let answer = try await server.send(.GET, "/api/v1/photos/\(id).pdf", headers: TestServer.bearer(alice.token))
                #expect(answer.status == .notFound, "\(id).pdf")
                #expect(try answer.apiError().error == "not_found")
            }

            // Someone else's public photo: the PDF without its receipt, which is its owner's and the agency's.
            let open = try await server.upload(data, token: alice.token, fields: Self.fields(title: "Open field")).decode(PhotoDTO.self)
            let seen = try await server.send(.GET, "/api/v1/photos/\(open.id).pdf", headers: TestServer.bearer(bob.token))
            #expect(seen.status == .ok)
            let pdf = folder.url.appendingPathComponent("open.pdf")
            try Data(seen.body.readableBytesView).write(to: pdf)
            let text = try await Self.text(pdf)
            #expect(text.contains("Open field") && text.contains("46.051200"))
            #expect(!text.filter { !$0.isWhitespace }.contains(open.sha256), "no receipt for another account")
            #expect(text.contains("for the photo's owner and for officers"), "\(text)")
        }
    }

    @Test("A task's private photo: the officer's PDF names the task and shows the receipt; another user's is 404", arguments: TestDatabase.all)
    func officersTaskPhoto(database: TestDatabase) async throws {
        let folder = try TemporaryFolder()
        try await withServer(database) { server in
            let olga = try await server.officer(uniqueName("olga"))
            let ursa = try await server.register(uniqueName("ursa"))
            let other = try await server.register(uniqueName("other"))
            let task = try await server.createTask(olga.token, assignee: ursa.user.username, name: "Field 17, north boundary").decode(TaskDTO.self)
            let added = try await server.addTaskPhoto(task.id, try TaskPhoto.jpeg(in: folder.url, "navy-gold"), token: ursa.token,
                                                      fields: ["visibility": "private", "latitude": "46.0512", "longitude": "14.5061"])
            #expect(added.status == .created, "\(added.text)")
            let photo = try added.decode(PhotoDTO.self)
            #expect(try await server.get("/api/v1/photos/\(photo.id).pdf", other.token).status == .notFound)

            let answer = try await server.get("/api/v1/photos/\(photo.id).pdf", olga.token)
            #expect(answer.status == .ok)
            let pdf = folder.url.appendingPathComponent("task.pdf")
            try Data(answer.body.readableBytesView).write(to: pdf)
            let text = try await Self.text(pdf)
            // Its user has not opened it yet: it is new.
            #expect(text.contains("Field 17, north boundary (new, due 2026-07-01)"), "\(text)")
            #expect(text.filter { !$0.isWhitespace }.contains(photo.sha256), "the receipt, for the agency")
            #expect(text.contains("123.5°"), "the task photo's azimuth")
        }
    }

    @Test("A photo without a place still gets a PDF; its map says there is no position", arguments: TestDatabase.all)
    func withoutPlace(database: TestDatabase) async throws {
        let folder = try TemporaryFolder()
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let photo = try await server.upload(try await TestPhoto.jpeg(in: folder.url, gps: nil), token: alice.token, fields: ["title": "Nowhere"])
                .decode(PhotoDTO.self)
            #expect(photo.latitude == nil)
            let answer = try await server.send(.GET, "/api/v1/photos/\(photo.id).pdf", headers: TestServer.bearer(alice.token))
            #expect(answer.status == .ok)
            let pdf = folder.url.appendingPathComponent("nowhere.pdf")
            try Data(answer.body.readableBytesView).write(to: pdf)
            let text = try await Self.text(pdf)
            #expect(text.contains("Nowhere") && text.contains("No position"), "\(text)")
            #expect(!text.contains("Latitude"))
            try await ExternalTool.run([try Self.tool("pdftoppm"), "-png", "-r", "50", "-singlefile", pdf.path, folder.url.appendingPathComponent("nowhere").path])
        }
    }
}
