import Fluent
import Vapor

/// The route API (DESIGN §3.3): encrypted routes, uploaded and read with signed requests. The
/// schema begins here: the route service was Waymark's first, and its migration also made the
/// device keys' table and the request nonces'.
struct RouteArea: ServerArea {
    var contract: String { "routes" }
    var migrations: [any Migration] { [CreateWaymarkSchema(), ReplaceSignatureStoreWithNonces()] }

    func register(_ context: AreaContext) async throws {
        let stores = context.stores
        let signature = SignatureAuthenticator(consumers: stores.consumers, nonces: stores.nonces, clock: context.clock)
        RouteController(store: stores.routes).register(on: context.routes, app: context.app.routes, signature: signature)
    }
}
