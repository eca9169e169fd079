import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkMedia
import WaymarkTestSupport
@testable import WaymarkServer

/// `POST /api/v1/qr/decode`: the `/vault` page's sign-in from a photo of the vault's login code,
/// for browsers without BarcodeDetector.
@Suite("QR codes read from a photo for the vault sign-in")
struct VaultQRDecodeTests {
    /// The seed's login code (the vault's QR code holds the address and the user's credentials).
    static let login = #"{"PIA_URL": "https://mobile.data-vault.eu", "email": "user_a@ownyourdata.eu", "password": "user_a"}"#

    static func post(_ server: TestServer, _ body: Data, type: String? = "image/jpeg") async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        if let type { headers.replaceOrAdd(name: .contentType, value: type) }
        return try await server.send(.POST, "/api/v1/qr/decode", headers: headers, body: Array(body))
    }

    /// A PNG of `payload` as qrencode makes it (8 px per module); `transparent`: on a transparent background.
    static func png(_ folder: URL, _ payload: String, transparent: Bool = false) async throws -> Data {
        let url = folder.appendingPathComponent("code-\(UUID().uuidString).png")
        try await ExternalTool.run(["qrencode", "-l", "Q", "-s", "8", "-m", "4"] + (transparent ? ["--background=FFFFFF00"] : []) + ["-o", url.path, payload])
        return try Data(contentsOf: url)
    }

    @Test("A JPEG photo of the login code (a 3000 × 2000 picture with the code in its middle) reads back to the exact text")
    func jpeg() async throws {
        let folder = makeTemporaryDirectory()
        let url = folder.appendingPathComponent("IMG_0001.JPG")
        try await ExternalTool.makeQRJPEG(url, payload: Self.login, width: 3000, height: 2000)
        try await withServer(.sqlite) { server in
            let answer = try await Self.post(server, try Data(contentsOf: url))
            #expect(answer.status == .ok)
            #expect(try answer.decode(QRDecodeResult.self).texts == [Self.login])
            #expect(answer.headers.first(name: .cacheControl) == "no-store", "the password is not kept in a cache")
            #expect(answer.headers.first(name: .contentType)?.hasPrefix("application/json") == true)
        }
    }

    @Test("A PNG made by qrencode, on white or transparent, and the same code as WebP and HEIC read back through libvips")
    func otherFormats() async throws {
        let folder = makeTemporaryDirectory()
        let png = await try Self.png(folder, Self.login)
        let transparent = await try Self.png(folder, Self.login, transparent: true)
        let pngURL = folder.appendingPathComponent("code.png")
        try png.write(to: pngURL)
        let webp = folder.appendingPathComponent("code.webp"), heic = folder.appendingPathComponent("code.heic")
        try await ExternalTool.run([ExternalTool.imageMagick, pngURL.path, "-quality", "90", webp.path])
        try await ExternalTool.run(["heif-enc", "-q", "90", "-o", heic.path, pngURL.path])
        try await withServer(.sqlite) { server in
            for (name, data, type) in [("PNG", png, "image/png"), ("transparent PNG", transparent, "image/png"),
                                       ("WebP", try Data(contentsOf: webp), "image/webp"), ("HEIC", try Data(contentsOf: heic), "image/heic"),
                                       ("PNG as octet-stream", png, "application/octet-stream"), ("PNG without a type", png, nil)] {
                let answer = try await Self.post(server, data, type: type)
                #expect(answer.status == .ok, "\(name): \(answer.text)")
                #expect(try answer.decode(QRDecodeResult.self).texts == [Self.login], "\(name)")
            }
        }
    }

    @Test("A photo with no code answers an empty list; two codes answer both")
    func noneAndTwo() async throws {
        let folder = makeTemporaryDirectory()
        let plain = try await TestPhoto.jpeg(in: folder)
        let first = folder.appendingPathComponent("first.png"), second = folder.appendingPathComponent("second.png")
        await try Self.png(folder, "https://example.org/one").write(to: first)
        await try Self.png(folder, "https://example.org/two").write(to: second)
        let both = folder.appendingPathComponent("both.png")
        try await ExternalTool.run([ExternalTool.imageMagick, first.path, second.path, "+append", both.path])
        try await withServer(.sqlite) { server in
            let none = try await Self.post(server, plain)
            #expect(none.status == .ok)
            #expect(try none.decode(QRDecodeResult.self).texts == [])
            let two = try await Self.post(server, try Data(contentsOf: both), type: "image/png")
            #expect(two.status == .ok)
            #expect(Set(try two.decode(QRDecodeResult.self).texts) == ["https://example.org/one", "https://example.org/two"])
        }
    }

    @Test("Bytes that are no image are 415, a damaged image 422, another Content-Type 415 — each with the usual error body")
    func refusals() async throws {
        let folder = makeTemporaryDirectory()
        let png = await try Self.png(folder, Self.login)
        var garbage = [UInt8](repeating: 0, count: 4096)
        for index in garbage.indices { garbage[index] = UInt8.random(in: 0...255) }
        try await withServer(.sqlite) { server in
            for (name, body, type, status, code) in [
                ("random bytes", Data(garbage), "image/jpeg", HTTPStatus.unsupportedMediaType, "not_an_image"),
                ("an empty body", Data(), "image/png", .unsupportedMediaType, "not_an_image"),
                ("a text", Data(Self.login.utf8), "application/octet-stream", .unsupportedMediaType, "not_an_image"),
                ("an SVG (its loader is blocked)", Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>"#.utf8), "image/svg+xml",
                 .unsupportedMediaType, "not_an_image"),
                ("a PNG cut inside its header", png.prefix(20), "image/png", .unprocessableEntity, "broken_image"),
                ("a PNG sent as JSON", png, "application/json", .unsupportedMediaType, "unsupported_media_type"),
                ("a PNG in a form", png, "multipart/form-data; boundary=x", .unsupportedMediaType, "unsupported_media_type"),
            ] {
                let answer = try await Self.post(server, body, type: type)
                #expect(answer.status == status, "\(name): \(answer.text)")
                #expect(try answer.apiError().error == code, "\(name)")
            }
        }
    }

    @Test("A body over 16 MiB is 413 over a real socket, whether its length is declared or it comes chunked; 16 MiB itself is read")
    func tooLarge() async throws {
        let folder = makeTemporaryDirectory()
        let over = folder.appendingPathComponent("over.jpg"), limit = folder.appendingPathComponent("limit.jpg")
        try Data(count: QRDecodeController.maxBytes + 1).write(to: over)
        try Data(count: QRDecodeController.maxBytes).write(to: limit)
        try await withServer(.sqlite) { server in
            let port = try await server.startListening()
            func post(_ file: URL, _ extra: [String]) async throws -> String {
                try await TestPhoto.output(["curl", "-s", "-w", "\n%{http_code}", "-H", "Content-Type: image/jpeg"] + extra
                                                  + ["--data-binary", "@\(file.path)", "http://127.0.0.1:\(port)/api/v1/qr/decode"])
            }
            for extra in [[], ["-H", "Transfer-Encoding: chunked"]] {
                let answer = try await post(over, extra)
                #expect(answer.hasSuffix("\n413"), "\(extra): \(answer)")
                #expect(answer.contains(#""error":"payload_too_large""#) && answer.contains("16 MiB"), "\(extra): \(answer)")
                let whole = try await post(limit, extra)
                #expect(whole.hasSuffix("\n415") && whole.contains("not_an_image"), "read whole, and found to be no image: \(extra): \(whole)")
            }
            await server.app.server.shutdown()
        }
    }

    /// A PNG whose header says `width` × `height` pixels, with hardly any pixel data after it.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        func be(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            be(UInt32(payload.count)) + Array(type.utf8) + payload + be(crc32(Array(type.utf8) + payload))
        }
        let ihdr = be(width) + be(height) + [8, 0, 0, 0, 0]  // 8-bit grey, no interlace
        // The start of a zlib stream (no compression, one block): pixel data that is never reached.
        let idat: [UInt8] = [0x78, 0x01, 0x00, 0xFF, 0x7F, 0x00, 0x80, 0, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", []))
    }

    @Test("An image of too many pixels (a decompression bomb) is refused from its header, before any pixel is decoded")
    func tooManyPixels() async throws {
        try await withServer(.sqlite) { server in
            let answer = try await Self.post(server, Self.pngHeader(width: 12_000, height: 9_000), type: "image/png")
            #expect(answer.status == .payloadTooLarge)
            #expect(try answer.apiError().error == "too_many_pixels")
        }
    }

    @Test("The decoded texts (they hold the vault password) are never in the server's log; that a code was read is")
    func notLogged() async throws {
        let folder = makeTemporaryDirectory()
        let password = "Q/wdfbv67-\(UUID().uuidString)"
        let payload = #"{"PIA_URL": "https://mobile.data-vault.eu", "email": "user_b@ownyourdata.eu", "password": "\#(password)"}"#
        let png = await try Self.png(folder, payload)
        let log = CapturedLog()
        try await withServer(.sqlite) { server in
            server.app.logger = log.logger()
            let answer = try await Self.post(server, png, type: "image/png")
            #expect(try answer.decode(QRDecodeResult.self).texts == [payload])
            _ = try await Self.post(server, png.prefix(200), type: "image/png")
        }
        let lines = log.all
        #expect(lines.contains { $0.contains("qr codes read") && $0.contains("codes=1") }, "the capture sees the route's log: \(lines)")
        for secret in [password, "user_b@ownyourdata.eu", "mobile.data-vault.eu"] {
            let leak = lines.first { $0.contains(secret) }
            #expect(leak == nil, "log holds \(secret.prefix(8))…: \(leak ?? "")")
        }
    }

    @Test("No account is needed, but a write from another site's page is refused as everywhere")
    func crossSite() async throws {
        let folder = makeTemporaryDirectory()
        let png = await try Self.png(folder, "https://example.org")
        try await withServer(.sqlite) { server in
            let answer = try await server.send(.POST, "/api/v1/qr/decode",
                                               headers: ["Content-Type": "image/png", "Origin": "https://evil.example", "Host": "127.0.0.1:8080"],
                                               body: Array(png))
            #expect(answer.status == .forbidden)
            #expect(try answer.apiError().error == "cross_site_request")
            #expect(try await server.send(.GET, "/api/v1/qr/decode").status == .methodNotAllowed)
        }
    }
}
