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
    /// The contract's operations, to bind this area's handlers to (``ContractRoutes``).
    let routes: ContractRoutes
    let stores: ServerStores
    let blobs: FileBlobStore
    /// The image work's threads (probing, derivatives).
    let media: NIOThreadPool
    /// The photo area, for areas that take photos themselves or answer with them.
    let photos: PhotoService
    /// The offline gazetteer (place names), loaded when first needed.
    let gazetteer: GazetteerLoader
    /// The server's receipt signing key (``ReceiptKeyFile``), loaded or made at start.
    let receiptKey: ReceiptSigningKey

    var database: ServerDatabase { app.serverDatabase }
}
