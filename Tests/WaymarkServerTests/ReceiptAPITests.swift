import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkServer

/// Signed receipts of photos and the centroid of inspection photos (DESIGN §3.10), on the real
/// application: receipts that PyNaCl and hashlib verify, who may read them, the key file, and
/// the centroid field.
@Suite("Photo receipts and centroids: signed at upload, verifiable elsewhere, to the owner and the agency only")
struct ReceiptAPITests {
    static let script = packageRoot.appendingPathComponent("Tests/Reference/receipt_reference.py")

    /// What the reference script (PyNaCl, hashlib, node) says of a receipt.
    static func reference(_ receipt: Data, image: Data, publicKey: String) async throws -> [String: String] {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("receipt.json"), photo = folder.url.appendingPathComponent("photo.jpg")
        try receipt.write(to: file)
        try image.write(to: photo)
        let output = try await ExternalTool.run([try StandinVault.python(), script.path, file.path, "--image", photo.path, "--public-key", publicKey])
        return try JSONDecoder().decode([String: String].self, from: output)
    }

    static func publicKey(_ server: TestServer) async throws -> String {
        let response = try await server.send(.GET, "/api/v1/receipts/public-key")
        #expect(response.status == .ok)
        let key = try response.decode(ReceiptPublicKeyDTO.self)
        #expect(key.algorithm == "Ed25519")
        return key.publicKey
    }

    @Test("An upload's receipt covers its bytes and what was stored; PyNaCl and hashlib verify it; a retry answers the same receipt", arguments: TestDatabase.all)
    func receiptVerifies(database: TestDatabase) async throws {
        let folder = try TemporaryFolder()
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let data = try await TestPhoto.jpeg(in: folder.url, gps: nil)
            let fields = ["latitude": "46.0512", "longitude": "14.5061", "altitude": "301.5", "accuracy": "3.2", "azimuth": "271.25", "tilt": "-4.5",
                          "capturedAt": "2026-06-01T10:00:00.25+02:00", "title": "Field 7 north edge",
                          "centroid": #"{"latitude":46.05123,"longitude":14.50607,"samples":10}"#]
            let response = try await server.upload(data, token: alice.token, fields: fields, idempotencyKey: "receipt-\(UUID())")
            #expect(response.status == .created, "\(response.text)")
            let photo = try response.decode(PhotoDTO.self)

            let answer = try await server.send(.GET, "/api/v1/photos/\(photo.id)/receipt", headers: TestServer.bearer(alice.token))
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.headers.contentType == .json)
            let body = Data(answer.body.readableBytesView)
            let receipt = try PhotoReceipt(json: body)
            let key = try await Self.publicKey(server)
            let trusted = try #require(Data(base64Encoded: key))
            #expect(receipt.verify(image: data, trustedKey: trusted).isValid)
            #expect(receipt.photoId == photo.id && receipt.sha256Image == photo.sha256)
            // What was stored, as the photo's JSON shows it.
            let metadata = receipt.metadata
            #expect(metadata.ownerId == alice.user.id && metadata.title == "Field 7 north edge" && metadata.mime == "image/jpeg")
            #expect(metadata.latitude == 46.0512 && metadata.longitude == 14.5061 && metadata.altitude == 301.5 && metadata.accuracy == 3.2)
            #expect(metadata.azimuth == 271.25 && metadata.tilt == -4.5 && metadata.width == photo.width && metadata.height == photo.height)
            #expect(metadata.capturedAt == 1_780_300_800.25 && metadata.capturedAt == photo.capturedAt.timeIntervalSince1970)
            #expect(metadata.centroid == ReceiptMetadata.Centroid(latitude: 46.05123, longitude: 14.50607, samples: 10))
            #expect(abs(Self.instant(receipt.receivedAt) - photo.uploadedAt.timeIntervalSince1970) < 0.001, "\(receipt.receivedAt) vs \(photo.uploadedAt)")

            let python = try await Self.reference(body, image: data, publicKey: key)
            #expect(python["signature"] == "ok" && python["metadata"] == "ok" && python["image"] == "ok" && python["key"] == "ok", "\(python)")
            var changed = data
            changed[changed.count / 2] ^= 0x01
            #expect(try await Self.reference(body, image: changed, publicKey: key)["image"] == "bad")
            #expect(!receipt.verify(image: changed, trustedKey: trusted).isValid)

            // A retry under the same key: the same photo, the same receipt, byte for byte.
            let key2 = "receipt-retry-\(UUID())"
            let first = try await server.upload(data, token: alice.token, fields: fields, idempotencyKey: key2).decode(PhotoDTO.self)
            let firstReceipt = try await server.send(.GET, "/api/v1/photos/\(first.id)/receipt", headers: TestServer.bearer(alice.token))
            let retry = try await server.upload(data, token: alice.token, fields: fields, idempotencyKey: key2).decode(PhotoDTO.self)
            #expect(retry.id == first.id)
            let retryReceipt = try await server.send(.GET, "/api/v1/photos/\(retry.id)/receipt", headers: TestServer.bearer(alice.token))
            #expect(retryReceipt.text == firstReceipt.text)
            // A later edit does not change what the receipt says arrived.
            let edit = try await server.send(.PATCH, "/api/v1/photos/\(first.id)", headers: [HTTPHeaders.Name.authorization.description: "Bearer \(alice.token)", "Content-Type": "application/json"],
                                             body: Array(#"{"title":"renamed"}"#.utf8))
            #expect(edit.status == .ok)
            #expect(try await server.send(.GET, "/api/v1/photos/\(first.id)/receipt", headers: TestServer.bearer(alice.token)).text == firstReceipt.text)
        }
    }

    static func instant(_ text: String) -> Double {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970 ?? .nan
    }

    @Test("The owner, officers and admins read a receipt; anyone else 404 for a private photo, no session 401; a photo from before receipts says so", arguments: TestDatabase.all)
    func access(database: TestDatabase) async throws {
        let folder = try TemporaryFolder()
        try await withServer(database) { server in
            let suffix = UUID().uuidString.prefix(8).lowercased()
            let alice = try await server.register("alice-\(suffix)"), bob = try await server.register("bob-\(suffix)")
            let officer = try await server.register("officer-\(suffix)"), admin = try await server.register("admin-\(suffix)")
            _ = try await server.stores.accounts.setRole(.officer, username: "officer-\(suffix)")
            _ = try await server.stores.accounts.setRole(.admin, username: "admin-\(suffix)")
            let data = try await TestPhoto.jpeg(in: folder.url, gps: nil)
            for visibility in ["public", "private"] {
                let photo = try await server.upload(data, token: alice.token, fields: ["visibility": visibility]).decode(PhotoDTO.self)
                let path = "/api/v1/photos/\(photo.id)/receipt"
                let owner = try await server.send(.GET, path, headers: TestServer.bearer(alice.token))
                #expect(owner.status == .ok, "\(visibility)")
                // Receipts follow the photo's own rule (#34): a public photo's to anyone signed
                // in; a private one's to its owner only, as it is no inspection task's.
                for reader in [officer, admin, bob] {
                    let answer = try await server.send(.GET, path, headers: TestServer.bearer(reader.token))
                    if visibility == "public" {
                        #expect(answer.status == .ok, "\(reader.user.username) \(visibility)")
                        #expect(answer.text == owner.text)
                    } else {
                        #expect(answer.status == .notFound, "\(reader.user.username) \(visibility)")
                        #expect(try answer.apiError().error == "not_found", "\(visibility): \(answer.text)")
                    }
                }
                #expect(try await server.send(.GET, path).status == .unauthorized)
            }
            #expect(try await server.send(.GET, "/api/v1/photos/\(UUID())/receipt", headers: TestServer.bearer(officer.token)).status == .notFound)
            #expect(try await server.send(.GET, "/api/v1/photos/not-an-id/receipt", headers: TestServer.bearer(alice.token)).status == .notFound)

            // A photo stored before the server signed receipts.
            let old = Photo(id: UUID(), ownerID: alice.user.id, title: "Before receipts", capturedAt: Date(), uploadedAt: Date(), place: nil, azimuth: nil, tilt: nil,
                            width: 10, height: 10, bytes: 100, mime: "image/jpeg", sha256: String(repeating: "0", count: 64), visibility: .public)
            try await server.stores.photos.insert([old])
            let none = try await server.send(.GET, "/api/v1/photos/\(old.id)/receipt", headers: TestServer.bearer(alice.token))
            #expect(none.status == .notFound)
            #expect(try none.apiError().error == "no_receipt", "\(none.text)")
            #expect(try none.apiError().reason.contains("before"))
            // It is public, so anyone signed in is told the same.
            #expect(try await server.send(.GET, "/api/v1/photos/\(old.id)/receipt", headers: TestServer.bearer(bob.token)).apiError().error == "no_receipt")
            _ = try await server.stores.photos.delete(id: old.id, claims: PhotoClaims())
        }
    }

    @Test("The key is made once and kept in the database: a restart signs with it, nothing is written to the data folder, and receipts verify")
    func keyInDatabase() async throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data")
        let photoData = try await TestPhoto.jpeg(in: folder.url, gps: nil)
        let (first, receipt) = try await withServer(.sqlite, dataDirectory: data) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let photo = try await server.upload(photoData, token: alice.token).decode(PhotoDTO.self)
            let receipt = try await server.send(.GET, "/api/v1/photos/\(photo.id)/receipt", headers: TestServer.bearer(alice.token))
            return (try await Self.publicKey(server), Data(receipt.body.readableBytesView))
        }
        #expect(!FileManager.default.fileExists(atPath: ReceiptKeyFile.url(in: data).path), "the key is the database's")
        let again = try await withServer(.sqlite, dataDirectory: data) { server in try await Self.publicKey(server) }
        #expect(again == first, "the same key after a restart")
        #expect(try PhotoReceipt(json: receipt).verify(image: photoData, trustedKey: Data(base64Encoded: again)).isValid)
    }

    @Test("A server from before brings its data folder's key into the database; a corrupt one stops the server naming it, before anything is stored")
    func legacyKeyFile() async throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let file = ReceiptKeyFile.url(in: data)
        for corrupt in [Data("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n".utf8), Data(), Data([0xFF, 0xFE, 0x00])] {
            try corrupt.write(to: file)
            do {
                try await withServer(.sqlite, dataDirectory: data) { _ in }
                Issue.record("the server started with a corrupt key file")
            } catch let error as ReceiptKeyFileError {
                #expect(error.description.contains(file.path) && error.description.contains("not an Ed25519 private key"), "\(error)")
            }
        }
        let old = ReceiptSigningKey()
        try Data(old.pem.utf8).write(to: file)
        let adopted = try await withServer(.sqlite, dataDirectory: data) { server in try await Self.publicKey(server) }
        #expect(adopted == old.publicKey.base64EncodedString(), "receipts signed before keep verifying")
        try FileManager.default.removeItem(at: file)
        let kept = try await withServer(.sqlite, dataDirectory: data) { server in try await Self.publicKey(server) }
        #expect(kept == adopted, "kept in the database once brought in")
    }

    @Test("Two instances with their own data folders on one PostgreSQL sign with one key: a receipt of one verifies with the other's public key",
          arguments: TestDatabase.all.filter { $0 == .postgres })
    func oneKeyForEveryInstance(database: TestDatabase) async throws {
        let folder = try TemporaryFolder()
        let photoData = try await TestPhoto.jpeg(in: folder.url, gps: nil)
        let receipt = try await withServer(database, dataDirectory: folder.url.appendingPathComponent("one")) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let photo = try await server.upload(photoData, token: alice.token).decode(PhotoDTO.self)
            return Data(try await server.send(.GET, "/api/v1/photos/\(photo.id)/receipt", headers: TestServer.bearer(alice.token)).body.readableBytesView)
        }
        let other = try await withServer(database, dataDirectory: folder.url.appendingPathComponent("two")) { server in try await Self.publicKey(server) }
        #expect(try PhotoReceipt(json: receipt).verify(image: photoData, trustedKey: Data(base64Encoded: other)).isValid)
    }

    @Test("--receipt-key FILE signs with the operator's key; a missing file stops the server naming it", arguments: TestDatabase.all)
    func operatorsKey(database: TestDatabase) async throws {
        let folder = try TemporaryFolder()
        let key = ReceiptSigningKey(), file = folder.url.appendingPathComponent("operator.pem")
        try Data(key.pem.utf8).write(to: file)
        let used = try await withServer(database, configuration: { $0.receiptKeyFile = file }) { server in try await Self.publicKey(server) }
        #expect(used == key.publicKey.base64EncodedString())
        let missing = folder.url.appendingPathComponent("missing.pem")
        do {
            try await withServer(database, configuration: { $0.receiptKeyFile = missing }) { _ in }
            Issue.record("the server started without its key file")
        } catch let error as ReceiptKeyFileError {
            #expect(error.description.contains(missing.path), "\(error)")
        }
    }

    @Test("Servers starting at once on a new data folder make one key between them; a folder in the key's place is refused by name")
    func keyFileRace() async throws {
        let folder = try TemporaryFolder()
        let logger = Logger(label: "receipt-key-test"), directory = folder.url
        let keys = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<8 {
                group.addTask { try ReceiptKeyFile.loadOrCreate(in: directory, logger: logger).publicKey }
            }
            return try await group.reduce(into: Set<Data>()) { $0.insert($1) }
        }
        #expect(keys.count == 1, "one key for all")
        let file = ReceiptKeyFile.url(in: folder.url)
        #expect(try ReceiptSigningKey(pem: String(contentsOf: file, encoding: .utf8)).publicKey == keys.first)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["receipt-ed25519.key"], "no temporary file left")

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect(throws: ReceiptKeyFileError(path: file.path, problem: .notAFile)) { try ReceiptKeyFile.loadOrCreate(in: folder.url, logger: logger) }
    }

    @Test("centroid: stored and shown when given, absent otherwise; anything but {latitude, longitude, samples 1–1000} is a 400 naming it", arguments: TestDatabase.all)
    func centroid(database: TestDatabase) async throws {
        let folder = try TemporaryFolder()
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let data = try await TestPhoto.jpeg(in: folder.url, gps: nil)
            let response = try await server.upload(data, token: alice.token, fields: ["centroid": #" {"samples": 1000, "latitude": -89.999999, "longitude": 179.5} "#])
            #expect(response.status == .created, "\(response.text)")
            let photo = try response.decode(PhotoDTO.self)
            #expect(photo.centroid == PhotoDTO.Centroid(latitude: -89.999999, longitude: 179.5, samples: 1000))
            let read = try await server.send(.GET, "/api/v1/photos/\(photo.id)", headers: TestServer.bearer(alice.token))
            #expect(try read.decode(PhotoDTO.self).centroid == photo.centroid)
            let nearby = try await server.send(.GET, "/api/v1/photos/\(photo.id)")
            #expect(nearby.text.contains(#""centroid":{"#))

            let plain = try await server.upload(data, token: alice.token)
            #expect(plain.status == .created)
            #expect(!plain.text.contains("centroid"), "no centroid member without one")

            let bad = [#"{"latitude":91,"longitude":14,"samples":10}"#, #"{"latitude":46,"longitude":-180.5,"samples":10}"#,
                       #"{"latitude":46,"longitude":14}"#, #"{"latitude":46,"longitude":14,"samples":0}"#, #"{"latitude":46,"longitude":14,"samples":1001}"#,
                       #"{"latitude":46,"longitude":14,"samples":2.5}"#, #"{"latitude":46,"longitude":14,"samples":10,"accuracy":3}"#,
                       #"{"latitude":"46","longitude":14,"samples":10}"#, #"{"latitude":true,"longitude":14,"samples":10}"#,
                       #"{"latitude":null,"longitude":14,"samples":10}"#, "[46,14,10]", "null", "", "46.05,14.5", #"{"latitude":1e999,"longitude":14,"samples":10}"#]
            for text in bad {
                let answer = try await server.upload(data, token: alice.token, fields: ["centroid": text])
                #expect(answer.status == .badRequest, "\(text): \(answer.status)")
                #expect(answer.text.contains("centroid must be"), "\(text): \(answer.text)")
            }
        }
    }
}
