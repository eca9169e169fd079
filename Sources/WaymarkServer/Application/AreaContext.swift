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
    /// The contract's operations of this area's file, to bind its handlers to (``ContractRoutes``).
    var routes: ContractRoutes
    /// The merged contract, as `/openapi.yaml` serves it.
    let contract: String
    let stores: ServerStores
    /// Accounts and sessions, which the session authenticators in front of the areas use too.
    let accounts: AccountService
    let blobs: FileBlobStore
    /// The image work's threads (probing, derivatives).
    let media: NIOThreadPool
    /// Anonymous QR decoding's thread, so that it never holds up photo uploads.
    let qrDecoding: NIOThreadPool
    /// The photo area, for areas that take photos themselves or answer with them.
    let photos: PhotoService
    /// The offline gazetteer (place names), loaded when first needed.
    let gazetteer: GazetteerLoader
    /// The server's receipt signing key (``ReceiptKeyFile``), loaded or made at start.
    let receiptKey: ReceiptSigningKey

    var database: ServerDatabase { app.serverDatabase }
}
