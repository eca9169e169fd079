import Fluent
import Vapor
import WaymarkAPI

/// One area of the API (DESIGN §2): its file of the contract, its migrations, its stores (in
/// ``ServerStores``, which tests swap) and the handlers it binds to its file's operations.
///
/// `configure` composes ``ServerArea/all``: the schema's migrations are every area's, in the
/// list's order, and each area binds its handlers through a view of the route table that refuses
/// an operation of another area's file.
protocol ServerArea: Sendable {
    /// The area's contract file, `Sources/WaymarkAPI/Contract/<contract>.yaml`.
    var contract: String { get }
    /// This area's migrations, in order; they run after those of every area listed before it.
    var migrations: [any Migration] { get }
    /// Binds the handlers of this area's operations (``AreaContext/routes`` is limited to them)
    /// and registers what it holds on another area's things (a photo's claims, say).
    func register(_ context: AreaContext) async throws
}

extension ServerArea {
    var migrations: [any Migration] { [] }
}

/// Every area, in the order of the schema's history: an area's migrations may refer to the
/// tables of the areas before it (a photo to its owner's account, a task to its photos).
let serverAreas: [any ServerArea] = [
    ServiceArea(), RouteArea(), AccountArea(), KeyArea(), PhotoArea(), ReceiptArea(),
    TaskArea(), FieldPathArea(), SceneArea(), QRArea(), SkyArea(), OwnTracksArea(),
]

/// The service's own operations of `common.yaml`: health, the contract itself, the web app's
/// configuration and the pairing page.
struct ServiceArea: ServerArea {
    var contract: String { "common" }

    func register(_ context: AreaContext) async throws {
        let configuration = context.configuration
        context.routes.on("health") { _ in
            Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(string: #"{"status":"ok"}"#))
        }
        let webConfig = WebAppConfig(tiles: configuration.tiles, terrainTiles: configuration.terrainTiles, satelliteTiles: configuration.satelliteTiles,
                                     vaults: configuration.vaults.map(\.url), sky: configuration.orbitData != nil,
                                     pairing: configuration.pairAddress.map { .init(pairAddress: $0, secureAddress: configuration.address) })
        context.routes.on("webAppConfig") { _ in
            try Response.json(webConfig)
        }
        if configuration.tls == .off {
            // Nothing to trust without TLS: /pair says how HTTPS is turned on (the web app's
            // warning on an insecure page links here). With TLS on it is served on the plain-HTTP port.
            context.routes.on("pairingPage") { request in
                PairingPage(httpsAddress: nil, authorityDER: nil).response(for: request)
            }
        } else {
            context.routes.servedElsewhere("pairingPage")
        }
        let document = context.contract
        context.routes.on("openAPIDocument") { _ in
            Response(status: .ok, headers: ["Content-Type": "application/yaml; charset=utf-8"], body: .init(string: document))
        }
    }
}
