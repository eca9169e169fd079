import Vapor

/// Answers 413 at once to a request that declares a body over the limit, before any
/// authenticator or route reads a byte of it (a body that only turns out too large while
/// being read is refused where it is collected).
///
/// Uploads of photos may be larger (100 MB a photo and the multipart framing: a photo, a task's
/// evidence photo, a rephotograph, or a scene's reference and feet shot), and so may a photo of
/// a QR code (16 MiB); everything else 8 MiB.
struct BodySizeLimitMiddleware: AsyncMiddleware {
    var maxBodySize = ServerConfiguration.maxBodySize

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let photos = Self.photoCount(method: request.method, path: request.url.path)
        let qrPhoto = request.method == .POST && request.url.path == QRDecodeController.path
        let limit = photos.map { $0 * PhotoUploader.maxBytes + 1_000_000 } ?? (qrPhoto ? QRDecodeController.maxBytes : maxBodySize)
        if let length = request.headers.first(name: .contentLength).flatMap(Int.init), length > limit {
            throw photos != nil ? PhotoController.error(MultipartUpload.Problem.tooLarge)
                : qrPhoto ? QRDecodeController.error(.tooLarge) : APIError.payloadTooLarge
        }
        return try await next.respond(to: request)
    }

    /// How many photos a request may carry, by its route; `nil` when it is no photo upload.
    static func photoCount(method: HTTPMethod, path: String) -> Int? {
        guard method == .POST else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard parts.count >= 3, parts[0] == "api", parts[1] == "v1" else { return nil }
        switch Array(parts.dropFirst(2)) {
        case ["photos"]: return 1
        case ["scenes"]: return 2
        case let rest where rest.count == 3 && (rest[0] == "tasks" || rest[0] == "scenes") && !rest[1].isEmpty && rest[2] == "photos": return 1
        default: return nil
        }
    }
}
