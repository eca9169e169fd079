import Vapor

/// Answers 413 at once to a request that declares a body over the limit, before any
/// authenticator or route reads a byte of it (a body that only turns out too large while
/// being read is refused where it is collected).
///
/// Photo uploads may be larger (100 MB and the multipart framing), and so may a photo of a QR
/// code (16 MiB); everything else 8 MiB.
struct BodySizeLimitMiddleware: AsyncMiddleware {
    var maxBodySize = ServerConfiguration.maxBodySize

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let photoUpload = request.method == .POST && request.url.path == "/api/v1/photos"
        let qrPhoto = request.method == .POST && request.url.path == QRDecodeController.path
        let limit = photoUpload ? PhotoUploader.maxBytes + 1_000_000 : qrPhoto ? QRDecodeController.maxBytes : maxBodySize
        if let length = request.headers.first(name: .contentLength).flatMap(Int.init), length > limit {
            throw photoUpload ? PhotoController.error(MultipartUpload.Problem.tooLarge)
                : qrPhoto ? QRDecodeController.error(.tooLarge) : APIError.payloadTooLarge
        }
        return try await next.respond(to: request)
    }
}
