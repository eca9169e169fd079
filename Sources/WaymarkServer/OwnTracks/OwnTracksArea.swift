import Fluent
import Vapor

/// OwnTracks as a background recorder (DESIGN §3.13): the app posts encrypted positions, its
/// owner pairs and revokes it, and a device's nonce finds what it sent, as a route's does.
struct OwnTracksArea: ServerArea {
    var contract: String { "owntracks" }
    var migrations: [any Migration] { [CreateOwnTracks()] }

    func register(_ context: AreaContext) async throws {
        let stores = context.stores
        // The reads by nonce are signed requests, as the route API's (any device key).
        let signature = SignatureAuthenticator(consumers: stores.consumers, nonces: stores.nonces, clock: context.clock)
        let routes = context.routes.routing(.signature, to: context.app.routes.grouped(signature, SignedConsumer.required))
        OwnTracksController(store: stores.owntracks, accounts: stores.accounts, clock: context.clock)
            .register(on: routes, app: context.app.routes)
    }
}
