import Fluent
import Vapor

/// The `/vault` page's QR sign-in from a photo (DESIGN §3.11): codes decoded from an uploaded
/// image, on a thread of their own; no account, nothing stored.
struct QRArea: ServerArea {
    var contract: String { "qr" }

    func register(_ context: AreaContext) async throws {
        QRDecodeController(media: context.qrDecoding).register(on: context.routes)
    }
}
