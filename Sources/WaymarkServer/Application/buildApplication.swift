import Fluent
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Vapor
import WaymarkAPI
import WaymarkCore

/// Builds the server: a Vapor application on the database of `configuration` (SQLite in the
/// data folder, or PostgreSQL), migrated, with every area's routes on stores made by
/// `dependencies`, the web app when `configuration.web` is set, JSON errors, the security
/// headers and the 8 MiB body limit. The caller runs it (`app.execute()`) or tests it
/// (`app.testing()`), and shuts it down.
public func buildApplication(
    _ configuration: ServerConfiguration, _ dependencies: ServerDependencies = ServerDependencies(),
    environment: Environment = .production
) async throws -> Application {
    let app = try await Application.make(environment)
    do {
        try await configure(app, configuration, dependencies)
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
    return app
}

/// Sets up `app` as ``buildApplication(_:_:environment:)`` describes.
func configure(_ app: Application, _ configuration: ServerConfiguration, _ dependencies: ServerDependencies) async throws {
    app.http.server.configuration.hostname = configuration.host
    app.http.server.configuration.port = configuration.port
    // A connection that neither reads nor writes for this long is closed: idle keep-alive
    // connections, and a request sent only in part (#34: 5,000 idle connections were held, and a
    // partial request for over a minute).
    app.http.server.configuration.idleTimeout = .seconds(Int64(configuration.idleTimeout))
    app.routes.defaultMaxBodySize = ByteCount(value: ServerConfiguration.maxBodySize)
    // The connections held open at once are bounded by the gate in front of Vapor's server, which
    // also says when a client has gone (#34).
    app.servers.use(.gated(configuration.connectionLimits, exempt: configuration.trustedProxies, announcesUpstream: configuration.announcesUpstream))

    if configuration.tls != .off {
        try configureTLS(app, configuration, clock: dependencies.clock)
    }

    let areas = dependencies.areas
    try await app.useDatabase(configuration, migrations: areas.flatMap(\.migrations))
    try await app.migrateDatabase()

    let clock = dependencies.clock
    let stores = dependencies.makeStores(app.serverDatabase, clock)
    let hasher = PasswordHasher(cost: dependencies.passwordCost)
    // Image work (probing, derivatives) on threads of its own, beside the password hashes.
    let media = NIOThreadPool(numberOfThreads: 2)
    media.start()
    // Anonymous QR decoding on a thread of its own, so that it never holds up photo uploads.
    let qrDecoding = NIOThreadPool(numberOfThreads: 1)
    qrDecoding.start()
    let blobs = try FileBlobStore(root: configuration.dataDirectory.appendingPathComponent("blobs"))
    let accounts = AccountService(accounts: stores.accounts, sessions: stores.sessions, hasher: hasher, clock: clock)
    app.lifecycle.use(Housekeeping(stores: stores, hasher: hasher, pools: [media, qrDecoding], clock: clock))

    // Security headers outermost, so that every answer has them, errors too; then errors as
    // JSON; only the names this server is reached by; the client's address (behind a trusted proxy,
    // the one it forwards); one log line per request (method and path only: no query, headers or body; Vapor
    // gives each request an id); a declared body over the limit; the cross-site check before
    // anything reads the cookie; the web app's files.
    app.middleware = Middlewares()
    app.middleware.use(SecurityHeadersMiddleware(imageOrigins: configuration.tileOrigins, vaultOrigins: configuration.vaultOrigins,
                                                 strictTransportSecurity: configuration.tls != .off))
    app.middleware.use(JSONErrorMiddleware())
    app.middleware.use(HostCheckMiddleware(configuration: configuration))
    app.middleware.use(ClientAddressMiddleware(trusted: configuration.trustedProxies, overTLS: configuration.tls != .off))
    app.middleware.use(RouteLoggingMiddleware(logLevel: .info))
    app.middleware.use(BodySizeLimitMiddleware())
    app.middleware.use(CrossSiteRequestGuard(service: accounts))
    if let web = configuration.web {
        app.middleware.use(try WebAppMiddleware(location: web))
    }

    // The contract's files merged once (DESIGN §3.3), for /openapi.yaml and the route table: a
    // broken contract stops the server here.
    let document = try APIContract.merged()
    // Every handler is bound to an operation of the contract, on the group that authenticates
    // what the operation's security asks for; the route API adds its signed groups itself.
    let sessions = app.routes.grouped(BearerTokenAuthenticator(service: accounts), SessionCookieAuthenticator(service: accounts))
    let routes = ContractRoutes(try APIContract.operations(in: document),
                                groups: [.anyone: app.routes, .optionalSession: sessions, .session: sessions.grouped(SignedInUser.required)])

    // The photo area's service, which other areas build on (tasks' evidence, scenes' images,
    // receipts), is made before any area registers.
    let uploader = PhotoUploader(photos: stores.photos, blobs: blobs, media: media, clock: clock, locks: BlobLocks())
    let gazetteer = GazetteerLoader.fromEnvironment(logger: app.logger)
    // The receipt signing key (made on the first start) also keys the lists' cursors.
    // It is the database's (one for every instance on it) or the operator's file.
    let receiptKey = try await ReceiptKeyStore.load(configuration, database: app.serverDatabase, logger: app.logger)
    let photos = PhotoService(PhotoController(photos: stores.photos, accounts: stores.accounts, blobs: blobs, uploader: uploader, gazetteer: gazetteer,
                                              cursors: CursorSeal(deriving: receiptKey.privateKey.rawRepresentation)))

    // Every area binds the operations of its own contract file, in the schema's order.
    var context = AreaContext(app: app, configuration: configuration, clock: clock, routes: routes, contract: try APIContract.yaml(of: document),
                              stores: stores, accounts: accounts, blobs: blobs, media: media, qrDecoding: qrDecoding, photos: photos,
                              gazetteer: gazetteer, receiptKey: receiptKey)
    for area in areas {
        context.routes = routes.area(area.contract, operations: try APIContract.operationIDs(inFile: area.contract))
        try await area.register(context)
    }

    for routes in dependencies.extraRoutes {
        try await routes(app)
    }
    // An operation without a handler, or an API route outside the contract, stops the server.
    try routes.verify(app.routes)
}

/// HTTPS (DESIGN §3.12): the identity (Waymark's own CA and a certificate for every name the
/// server is reached by, or the operator's files), renewed in place; and the plain-HTTP side on
/// `httpPort` for the CA and redirects.
func configureTLS(_ app: Application, _ configuration: ServerConfiguration, clock: WallClock) throws {
    let names = configuration.ownNames()
    var addresses = ServerTLS.interfaceAddresses()
    if IPRange.bytes(of: configuration.host) != nil, !["0.0.0.0", "::"].contains(configuration.host), !addresses.contains(configuration.host) {
        addresses.append(configuration.host)
    }
    let tls = try ServerTLS(mode: configuration.tls, dataDirectory: configuration.dataDirectory, names: names, addresses: addresses, clock: clock)
    app.http.server.configuration.tlsConfiguration = try tls.configuration()
    app.lifecycle.use(tls)
    app.lifecycle.use(try PlainHTTPSide(host: configuration.host, port: configuration.httpPort, httpsPort: configuration.port,
                                        authority: tls.authority, names: HostCheckMiddleware(configuration: configuration), fallbackName: names[0],
                                        connections: configuration.connectionLimits, exempt: configuration.trustedProxies))
}

/// What the web app needs to know of the server: `GET /api/v1/config`. The route map's
/// Terrain and Satellite tiles are `null` when the server has none (the map type is then offered
/// disabled). `vaults` are the personal data vaults the `/vault` page may use (`--vault-url`),
/// the first its default.
struct WebAppConfig: Encodable {
    var tiles: MapTiles
    var terrainTiles: MapTiles?
    var satelliteTiles: MapTiles?
    var vaults: [String]
    /// Whether the server has orbit data for `/api/v1/sky` (`--tle`).
    var sky: Bool
    /// With TLS on, the phone's pairing page and the HTTPS address it opens (DESIGN §3.12).
    var pairing: Pairing?

    struct Pairing: Encodable {
        var pairAddress: String
        var secureAddress: String
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tiles, forKey: .tiles)
        try container.encode(terrainTiles, forKey: .terrainTiles)
        try container.encode(satelliteTiles, forKey: .satelliteTiles)
        try container.encode(vaults, forKey: .vaults)
        try container.encode(sky, forKey: .sky)
        try container.encode(pairing, forKey: .pairing)
    }

    private enum CodingKeys: String, CodingKey { case tiles, terrainTiles, satelliteTiles, vaults, sky, pairing }
}

/// Purges expired request nonces and sessions at start and every minute while the server
/// runs, and stops the password hasher's and the image work's threads at shutdown.
final class Housekeeping: LifecycleHandler, Sendable {
    private let task = NIOLockedValueBox<RepeatedTask?>(nil)
    let stores: ServerStores
    let hasher: PasswordHasher
    let pools: [NIOThreadPool]
    let clock: WallClock

    init(stores: ServerStores, hasher: PasswordHasher, pools: [NIOThreadPool], clock: WallClock) {
        self.stores = stores
        self.hasher = hasher
        self.pools = pools
        self.clock = clock
    }

    func didBootAsync(_ application: Application) async throws {
        let logger = application.logger
        let eventLoop = application.eventLoopGroup.next()
        let stores = self.stores, clock = self.clock
        let repeated = eventLoop.scheduleRepeatedAsyncTask(initialDelay: .zero, delay: .seconds(60)) { _ in
            eventLoop.makeFutureWithTask {
                do {
                    try await stores.nonces.purgeExpired(now: clock.now())
                    try await stores.sessions.purgeExpired(now: clock.now())
                } catch {
                    logger.warning("could not purge expired nonces and sessions", metadata: ["error": "\(String(reflecting: type(of: error)))"])
                }
            }
        }
        task.withLockedValue { $0 = repeated }
    }

    func shutdownAsync(_ application: Application) async {
        task.withLockedValue { $0?.cancel(); $0 = nil }
        try? await hasher.shutdown()
        for pool in pools { try? await pool.shutdownGracefully() }
    }
}
