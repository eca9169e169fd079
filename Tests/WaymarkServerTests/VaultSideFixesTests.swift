import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkTestSupport
@testable import WaymarkServer

/// What came up while the vault's QR endpoint was added beside the photos: libvips's grey path
/// showed that greyscale images could not be made into derivatives, and schemathesis (which now
/// also fuzzes /api/v1/qr/decode) found photo requests outside the document that were accepted.
@Suite("Photos: greyscale images, and requests outside the API document refused")
struct VaultSideFixesTests {
    @Test("A greyscale JPEG (a black-and-white photo) and a 1-bit grey PNG are stored with their derivatives")
    func greyscale() async throws {
        let folder = makeTemporaryDirectory()
        let jpeg = folder.appendingPathComponent("bw.jpg"), png = folder.appendingPathComponent("grey.png")
        try await ExternalTool.run([ExternalTool.imageMagick, "-size", "640x480", "gradient:black-white", "-colorspace", "Gray", "-quality", "90", jpeg.path])
        try await ExternalTool.run(["qrencode", "-s", "8", "-o", png.path, "https://example.org/grey"])
        try await ExternalTool.run([ExternalTool.imageMagick, png.path, "-colorspace", "Gray", "-depth", "1", "-type", "Bilevel", png.path])
        try await withServer(.sqlite) { server in
            let alice = try await server.register("grey-\(UUID().uuidString.prefix(8).lowercased())")
            for (name, url) in [("IMG_0001.JPG", jpeg), ("code.png", png)] {
                let answer = try await server.upload(try Data(contentsOf: url), token: alice.token, filename: name)
                #expect(answer.status == .created, "\(name): \(answer.text)")
                let photo = try answer.decode(PhotoDTO.self)
                let thumb = try await server.send(.GET, photo.urls.thumb)
                #expect(thumb.status == .ok, "\(name)")
                #expect(thumb.headers.first(name: .contentType) == "image/jpeg", "\(name)")
            }
        }
    }

    @Test("A retry under a used Idempotency-Key is checked like the first request: a malformed one is refused, not answered with the photo")
    func retryIsChecked() async throws {
        let folder = makeTemporaryDirectory()
        let data = try await TestPhoto.jpeg(in: folder)
        try await withServer(.sqlite) { server in
            let alice = try await server.register("retry-\(UUID().uuidString.prefix(8).lowercased())")
            let key = "upload-\(UUID().uuidString)"
            let first = try await server.upload(data, token: alice.token, idempotencyKey: key)
            #expect(first.status == .created)
            let garbled = try await server.upload(data, token: alice.token, fields: ["usePhotoPlace": "AAA"], idempotencyKey: key)
            #expect(garbled.status == .badRequest, "\(garbled.text)")
            var headers = TestServer.bearer(alice.token)
            headers.replaceOrAdd(name: "Idempotency-Key", value: key)
            let noBody = try await server.send(.POST, "/api/v1/photos", headers: headers)
            #expect(noBody.status == .unsupportedMediaType, "\(noBody.text)")
            let retry = try await server.upload(data, token: alice.token, idempotencyKey: key)
            #expect(retry.status == .created)
            #expect(try retry.decode(PhotoDTO.self).id == first.decode(PhotoDTO.self).id)
        }
    }

    @Test("A field sent empty or null is refused by name, not taken for absent")
    func emptyAndNull() async throws {
        let folder = makeTemporaryDirectory()
        let data = try await TestPhoto.jpeg(in: folder)
        try await withServer(.sqlite) { server in
            let alice = try await server.register("empty-\(UUID().uuidString.prefix(8).lowercased())")
            for fields in [["capturedAt": ""], ["latitude": "", "longitude": ""], ["azimuth": " "]] {
                let answer = try await server.upload(data, token: alice.token, fields: fields)
                #expect(answer.status == .badRequest, "\(fields): \(answer.text)")
                #expect(try answer.apiError().error == "invalid_field", "\(fields)")
            }
            let stored = try await server.upload(data, token: alice.token)
            let id = try stored.decode(PhotoDTO.self).id
            var headers = TestServer.bearer(alice.token)
            headers.contentType = .json
            for body in [#"{"visibility": null}"#, #"{"title": null}"#] {
                let answer = try await server.send(.PATCH, "/api/v1/photos/\(id)", headers: headers, body: Array(body.utf8))
                #expect(answer.status == .badRequest, "\(body): \(answer.text)")
            }
            let fine = try await server.send(.PATCH, "/api/v1/photos/\(id)", headers: headers, body: Array(#"{"visibility": "private"}"#.utf8))
            #expect(try fine.decode(PhotoDTO.self).visibility == "private")
        }
    }
}
