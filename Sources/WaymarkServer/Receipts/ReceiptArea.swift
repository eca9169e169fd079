import Fluent
import Vapor
import WaymarkCore

/// Signed receipts of photos (DESIGN §3.10): the server's Ed25519 key in the data folder
/// (``ReceiptKeyFile``), a receipt signed for every new photo (by the photo area's uploader), and
/// the endpoints that hand them out (``ReceiptController``).
struct ReceiptArea: ServerArea {
    var contract: String { "receipts" }
    var migrations: [any Migration] { [AddPhotoReceipts(), CreateServerKeys()] }

    /// Gives the signing key (loaded or made at start; a key file that cannot be used stops the
    /// server, naming it) to the photo uploader and registers the routes.
    func register(_ context: AreaContext) async throws {
        let key = context.receiptKey
        context.photos.receipts.use(key)
        ReceiptController(photos: context.photos, key: key).register(on: context.routes)
    }
}
