import Foundation
import Testing
import WaymarkTestSupport

/// `waymark photos upload` against a real `waymark serve`: a folder of geotagged photos goes up
/// with its places, a file that is no photo is named with the reason, and a second run stores
/// nothing twice. Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
@Suite("waymark photos upload (PhotosCommand)", .serialized)
struct PhotosCommandTests {
    @Test("a folder of tagged photos: uploaded with their places; a text file named .jpg refused; a second run stores nothing twice", arguments: CLIDatabase.all)
    func uploadFolder(database: CLIDatabase) async throws {
        try await database.run { try await uploadFolder() }
    }

    private func uploadFolder() async throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data").path
        let name = "ana-\(UUID().uuidString.prefix(8).lowercased())"
        let passwordFile = folder.url.appendingPathComponent("password.txt")
        try "a long enough password\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        #expect(try await WaymarkBinary.run(["users", "create", name, "--password-file", passwordFile.path, "--data", data]).status == 0)

        let photos = folder.url.appendingPathComponent("trip")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let base = (lat: -20.0 - Double.random(in: 0..<5), lon: 60.0 + Double.random(in: 0..<5))
        for index in 0..<3 {
            let photo = photos.appendingPathComponent(String(format: "IMG_%04d.JPG", index + 1))
            _ = try await ExternalTool.run(["convert", "-size", "640x480", "gradient:green-white", photo.path])
            _ = try await ExternalTool.run(["exiftool", "-q", "-overwrite_original", "-n", "-DateTimeOriginal=2024:06:01 10:0\(index):00",
                                      "-GPSLatitude=\(abs(base.lat) + Double(index) * 0.001)", "-GPSLatitudeRef=S",
                                      "-GPSLongitude=\(base.lon)", "-GPSLongitudeRef=E", photo.path])
        }
        try "not a photo\n".write(to: photos.appendingPathComponent("notes.jpg"), atomically: true, encoding: .utf8)

        let port = try await ServeEndToEndTests.freePort()
        let server = try ServeEndToEndTests.Server(data: URL(fileURLWithPath: data), port: port)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(port)"
        try await UsersCommandTests.waitUntilUp(url)

        let arguments = ["photos", "upload", photos.path, "--server", url, "--user", name, "--password-file", passwordFile.path]
        let first = try await WaymarkBinary.run(arguments)
        #expect(first.status != 0, "one file was refused")
        #expect(first.stdout.contains("Uploaded 3 of 4 photos (3 with a place)."), "\(first.stdout)\n\(first.stderr)")
        #expect(first.stderr.contains("notes.jpg") && first.stderr.contains("not a JPEG"), "\(first.stderr)")
        let ids = Set(first.stdout.split(separator: "\n").compactMap { line -> String? in
            let columns = line.split(separator: "\t")
            return columns.count == 3 ? String(columns[1]) : nil
        })
        #expect(ids.count == 3)

        let again = try await WaymarkBinary.run(arguments)
        let idsAgain = Set(again.stdout.split(separator: "\n").compactMap { line -> String? in
            let columns = line.split(separator: "\t")
            return columns.count == 3 ? String(columns[1]) : nil
        })
        #expect(idsAgain == ids, "the same files answer the photos stored the first time")

        let nearby = String(decoding: try await ExternalTool.run(["curl", "-fsS", "\(url)/api/v1/photos/nearby?latitude=\(base.lat)&longitude=\(base.lon)&radius=1000"]), as: UTF8.self)
        let page = try JSONSerialization.jsonObject(with: Data(nearby.utf8)) as? [String: Any] ?? [:]
        let items = page["items"] as? [[String: Any]] ?? []
        #expect(items.count == 3, "\(nearby.prefix(300))")
        #expect(items.first?["title"] as? String == "PShare: 2024-06-01 10:00:00")

        let wrong = folder.url.appendingPathComponent("wrong.txt")
        try "not the password\n".write(to: wrong, atomically: true, encoding: .utf8)
        let refused = try await WaymarkBinary.run(["photos", "upload", photos.path, "--server", url, "--user", name, "--password-file", wrong.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("username or the password is wrong"), "\(refused.stderr)")
    }
}
