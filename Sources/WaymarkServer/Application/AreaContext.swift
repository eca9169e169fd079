import Fluent
import NIOPosix
import Vapor
import WaymarkCore

/// What an area of the API is built from when the application is configured: the route groups,
/// the database, the stores and services the areas share.
struct AreaContext {
    let app: Application
    let configuration: ServerConfiguration
    let clock: WallClock
    /// Routes whose requests may carry a session (browsing needs none).
    let sessions: any RoutesBuilder
    /// Routes that need a signed-in account (401 without one).
    let signedIn: any RoutesBuilder
    let stores: ServerStores
    let blobs: FileBlobStore
    /// The image work's threads (probing, derivatives).
    let media: NIOThreadPool
    /// The photo area, for areas that take photos themselves (`acceptUpload`) or answer with them.
    let photos: PhotoController
    /// The offline gazetteer (place names), loaded when first needed.
    let gazetteer: GazetteerLoader
    /// The server's receipt signing key (``ReceiptKeyFile``), loaded or made at start.
    let receiptKey: ReceiptSigningKey

    var database: ServerDatabase { app.serverDatabase }
}
