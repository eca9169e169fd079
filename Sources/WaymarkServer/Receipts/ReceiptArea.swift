import Fluent
import Vapor
import WaymarkCore

/// Signed receipts of photos (DESIGN §3.10): the server's Ed25519 key in the data folder
/// (``ReceiptKeyFile``), a receipt signed for every new photo (by the photo area's uploader), and
/// the endpoints that hand them out (``ReceiptController``).
enum ReceiptArea {
    /// This area's migrations, in order; they run after every earlier one of the schema.
    static var migrations: [any Migration] { [AddPhotoReceipts()] }

    /// Loads (or makes, on the first start) the signing key, gives it to the photo uploader and
    /// registers the routes. A key file that cannot be used stops the server, naming it.
    static func register(_ context: AreaContext) async throws {
        let directory = context.configuration.dataDirectory, logger = context.app.logger
        let key = try await context.media.runIfActive { try ReceiptKeyFile.loadOrCreate(in: directory, logger: logger) }
        context.photos.uploader.receipts.use(key)
        ReceiptController(photos: context.stores.photos, key: key).register(open: context.app.routes, signedIn: context.signedIn)
    }
}
