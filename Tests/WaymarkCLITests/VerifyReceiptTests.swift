import Foundation
import Testing
import WaymarkTestSupport

/// `waymark verify-receipt` on a receipt from a real `waymark serve`: a photo uploaded with
/// `waymark photos upload`, its receipt fetched as its owner, checked against the photo and the
/// server's key; a modified copy of the photo, a changed receipt and a foreign key fail.
@Suite("waymark verify-receipt (VerifyReceiptCommand)", .serialized)
struct VerifyReceiptTests {
    @Test("a receipt from the server checks out with the photo and the server's key; a modified photo, an edited receipt and another key fail", arguments: CLIDatabase.all)
    func verifyFromServer(database: CLIDatabase) async throws {
        try await database.run { try await verifyFromServer() }
    }

    private func verifyFromServer() async throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data").path
        let name = "ana-\(UUID().uuidString.prefix(8).lowercased())"
        let passwordFile = folder.url.appendingPathComponent("password.txt")
        try "a long enough password\n".write(to: passwordFile, atomically: true, encoding: .utf8)
        #expect(try await WaymarkBinary.run(["users", "create", name, "--password-file", passwordFile.path, "--data", data]).status == 0)
        let photo = folder.url.appendingPathComponent("IMG_0001.JPG")
        _ = try await ExternalTool.run(["convert", "-size", "640x480", "gradient:green-white", photo.path])

        let port = try await ServeEndToEndTests.freePort()
        let server = try ServeEndToEndTests.Server(data: URL(fileURLWithPath: data), port: port)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(port)"
        try await UsersCommandTests.waitUntilUp(url)

        let upload = try await WaymarkBinary.run(["photos", "upload", photo.path, "--server", url, "--user", name, "--password-file", passwordFile.path])
        #expect(upload.status == 0, "\(upload.stdout)\n\(upload.stderr)")
        let id = try #require(upload.stdout.split(separator: "\n").compactMap { line -> String? in
            let columns = line.split(separator: "\t")
            return columns.count == 3 ? String(columns[1]) : nil
        }.first, "\(upload.stdout)")

        let session = try await ExternalTool.run(["curl", "-fsS", "-H", "Content-Type: application/json", "-d", #"{"username":"\#(name)","password":"a long enough password"}"#, "\(url)/api/v1/sessions"])
        let token = try #require((try JSONSerialization.jsonObject(with: session) as? [String: Any])?["token"] as? String)
        let receipt = folder.url.appendingPathComponent("receipt.json")
        try await ExternalTool.run(["curl", "-fsS", "-H", "Authorization: Bearer \(token)", "-o", receipt.path, "\(url)/api/v1/photos/\(id)/receipt"])
        let key = try await #require((try JSONSerialization.jsonObject(with: ExternalTool.run(["curl", "-fsS", "\(url)/api/v1/receipts/public-key"])) as? [String: Any])?["publicKey"] as? String)

        let good = try await WaymarkBinary.run(["verify-receipt", receipt.path, "--photo", photo.path, "--server", url])
        #expect(good.status == 0, "\(good.stdout)\n\(good.stderr)")
        #expect(good.stdout.contains("Receipt of photo \(id)"), "\(good.stdout)")
        for check in ["signature", "metadata", "photo", "server key"] {
            #expect(good.stdout.split(separator: "\n").contains { $0.contains(check) && $0.contains(" ok ") }, "\(check): \(good.stdout)")
        }
        #expect(good.stdout.contains("The receipt is valid."))

        #expect(try await WaymarkBinary.run(["verify-receipt", receipt.path, "--photo", photo.path, "--public-key", key]).status == 0)
        // Without a photo or a key: intact, but the output says what was not checked.
        let bare = try await WaymarkBinary.run(["verify-receipt", receipt.path])
        #expect(bare.status == 0 && bare.stdout.contains("not checked (give --photo FILE)") && bare.stdout.contains("nothing says whose key"), "\(bare.stdout)")

        // A modified copy of the photo: one byte near its end.
        var bytes = try Data(contentsOf: photo)
        bytes[bytes.count - 10] ^= 0x01
        let modified = folder.url.appendingPathComponent("IMG_0001-edited.JPG")
        try bytes.write(to: modified)
        let bad = try await WaymarkBinary.run(["verify-receipt", receipt.path, "--photo", modified.path, "--server", url])
        #expect(bad.status == 1, "\(bad.stdout)\n\(bad.stderr)")
        #expect(bad.stdout.split(separator: "\n").contains { $0.contains("photo") && $0.contains("FAILED") && $0.contains("the content was changed") }, "\(bad.stdout)")
        #expect(bad.stdout.contains("The receipt does not check out."))

        // The receipt's metadata edited (its width), and another server's key.
        let text = try String(contentsOf: receipt, encoding: .utf8)
        let edited = folder.url.appendingPathComponent("edited.json")
        try text.replacingOccurrences(of: #""width":640"#, with: #""width":641"#).write(to: edited, atomically: true, encoding: .utf8)
        #expect(text.contains(#""width":640"#))
        let editedRun = try await WaymarkBinary.run(["verify-receipt", edited.path, "--photo", photo.path])
        #expect(editedRun.status == 1 && editedRun.stdout.split(separator: "\n").contains { $0.contains("metadata") && $0.contains("FAILED") }, "\(editedRun.stdout)")
        let foreign = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        let foreignRun = try await WaymarkBinary.run(["verify-receipt", receipt.path, "--public-key", foreign])
        #expect(foreignRun.status == 1 && foreignRun.stdout.contains("not by \(foreign)"), "\(foreignRun.stdout)")

        // Wrong arguments are usage errors; a file that is no receipt is a failure.
        #expect(try await WaymarkBinary.run(["verify-receipt", receipt.path, "--public-key", key, "--server", url]).status == 64)
        #expect(try await WaymarkBinary.run(["verify-receipt", receipt.path, "--public-key", "short"]).status == 64)
        let notReceipt = try await WaymarkBinary.run(["verify-receipt", passwordFile.path])
        #expect(notReceipt.status == 1 && notReceipt.stderr.contains("is not a Waymark photo receipt"), "\(notReceipt.stderr)")
    }
}
