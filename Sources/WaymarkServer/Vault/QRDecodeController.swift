import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Vapor
import WaymarkAPI
import WaymarkMedia

/// `POST /api/v1/qr/decode` (DESIGN §3.11): reads the QR codes in a photo for the `/vault` page of
/// a browser that cannot (no BarcodeDetector) — the phone photographs the vault's login code and
/// sends the image as the body. No account is needed and nothing is stored.
///
/// The codes hold vault passwords: the texts go to the client only, never to the log, and the
/// answer is not cached. The image is decoded on a thread of its own (`media` here is the QR
/// decoder's one-thread pool, never the photos' image threads, so decodes cannot slow uploads),
/// never on an event loop; a few decodes at a time, as anyone may ask for one.
struct QRDecodeController: Sendable {
    let media: NIOThreadPool
    /// Decodes running or waiting for a media thread; more are refused with 503 until one ends.
    let inFlight = NIOLockedValueBox(0)

    /// The largest image accepted: 16 MiB (a phone's photo; a screenshot is far smaller).
    static let maxBytes = 16 * 1024 * 1024
    /// The most decodes at once, counting those whose body is still arriving.
    static let maxInFlight = 4
    /// The most pixels decoded, read from the image's header before it is decoded: 40
    /// megapixels, a phone's full-resolution photo, where a QR code needs far fewer (a 315 KB PNG
    /// of 9,990 × 9,990 took 2.3 s to decode).
    static let maxPixels = 40_000_000
    static let path = "/api/v1/qr/decode"

    func register(on routes: ContractRoutes) {
        routes.on("decodeQRCodes", body: .stream, use: decode)
    }

    @Sendable func decode(_ request: Request) async throws -> Response {
        if let type = request.headers.contentType, type.type != "image", !(type.type == "application" && type.subType == "octet-stream") {
            throw Self.error(.wrongType)
        }
        // The slot is taken before a byte of the body is read: a client that sends slowly, or
        // never finishes, holds one of the few, and the others are refused at once (#34: 40 slow
        // bodies of 16 MiB each were read into memory side by side).
        guard reserve() else { throw Self.error(.busy) }
        defer { release() }
        let body = try await Self.readBody(request)
        let texts: [String]
        do {
            texts = try await media.runIfActive { try QRScanner().scan(image: body, pixelLimit: Self.maxPixels) }
        } catch let error as ImageError {
            throw Self.error(.image(error))
        }
        // How many codes, never what they say.
        request.logger.info("qr codes read", metadata: ["codes": "\(texts.count)", "bytes": "\(body.count)"])
        let response = try Response.json(QRDecodeResult(texts: texts))
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    private func reserve() -> Bool {
        inFlight.withLockedValue { count in
            guard count < Self.maxInFlight else { return false }
            count += 1
            return true
        }
    }

    private func release() {
        inFlight.withLockedValue { $0 -= 1 }
    }

    /// The body, read as it arrives and refused as soon as it passes ``maxBytes``.
    static func readBody(_ request: Request) async throws -> Data {
        var collected = ByteBuffer()
        for try await var chunk in request.body {
            guard collected.readableBytes + chunk.readableBytes <= maxBytes else { throw error(.tooLarge) }
            collected.writeBuffer(&chunk)
        }
        return Data(collected.readableBytesView)
    }

    /// Why an image was refused.
    enum Problem: Error {
        case wrongType
        case tooLarge
        case busy
        case image(ImageError)
    }

    static func error(_ problem: Problem) -> APIError {
        switch problem {
        case .wrongType:
            return APIError(.unsupportedMediaType, .unsupportedMediaType, "Send the photo's bytes as the body, as image/* or application/octet-stream.")
        case .tooLarge:
            return APIError(.payloadTooLarge, .payloadTooLarge, "The image is larger than \(maxBytes / (1024 * 1024)) MiB.")
        case .busy:
            var error = APIError(.serviceUnavailable, .busy, "The server is reading other QR codes; try again in a moment.")
            error.headers.replaceOrAdd(name: .retryAfter, value: "1")
            return error
        case .image(.notAnImage), .image(.rawWithoutPreview):
            return APIError(.unsupportedMediaType, .notAnImage, "This is not a JPEG, PNG, WebP or HEIC image, whatever its name says.")
        case .image(.broken):
            return APIError(.unprocessableEntity, .brokenImage, "The image is damaged or incomplete; take the photo again.")
        case let .image(.tooManyPixels(width, height, limit)):
            return APIError(.payloadTooLarge, .tooManyPixels, "The image has \(width) × \(height) pixels, more than \(limit / 1_000_000) megapixels; take a smaller photo.")
        case .image(.unreadable):
            return APIError(.internalServerError, .internalError, "The server could not read the image.")
        }
    }
}
