import Foundation
import Vapor
import WaymarkCore
import WaymarkMedia

/// The stores the server's areas (``ServerArea``) work on, one or more each. ``ServerDependencies`` makes them; tests swap any one.
struct ServerStores: Sendable {
    var routes: any RouteStore
    var consumers: any ConsumerStore
    var nonces: any NonceStore
    var accounts: any AccountStore
    var sessions: any SessionStore
    var photos: any PhotoStore
    var tasks: any TaskStore
    var paths: any FieldPathStore
    var scenes: any SceneStore
    var owntracks: any OwnTracksStore

    /// Every store on the server's Fluent database (SQLite or PostgreSQL).
    static func fluent(_ database: ServerDatabase, clock: WallClock) -> ServerStores {
        ServerStores(
            routes: FluentRouteStore(database: database, clock: clock),
            consumers: FluentConsumerStore(database: database),
            nonces: FluentNonceStore(database: database),
            accounts: FluentAccountStore(database: database),
            sessions: FluentSessionStore(database: database),
            photos: SQLPhotoStore(database: database, clock: clock),
            tasks: SQLTaskStore(database: database, clock: clock),
            paths: SQLFieldPathStore(database: database),
            scenes: SQLSceneStore(database: database),
            owntracks: SQLOwnTracksStore(database: database)
        )
    }
}

/// What the server is built from besides its configuration: the clock, the cost of password
/// hashing and the stores. The defaults are the real ones; tests replace what they need.
public struct ServerDependencies: Sendable {
    /// The one clock of the server: signature windows, session expiry, creation times, rate limits.
    public var clock: WallClock = .system
    /// Argon2id's cost; tests lower it, never a server.
    public var passwordCost: PasswordHash.Cost = .interactive
    /// Makes the stores once the database is set up; the default puts them all on it.
    var makeStores: @Sendable (ServerDatabase, WallClock) -> ServerStores = { ServerStores.fluent($0, clock: $1) }
    /// The areas the server is composed of (``serverAreas``); their migrations make the schema.
    var areas: [any ServerArea] = serverAreas
    /// Routes added beside the contract's, outside `/api/` and `/route`: the floor endpoint of
    /// `waymark-load serve` (BenchHooks.swift). Each is given the application, configured and
    /// migrated, before the route table is checked.
    @_spi(Bench) public var extraRoutes: [@Sendable (Application) async throws -> Void] = []

    public init(clock: WallClock = .system, passwordCost: PasswordHash.Cost = .interactive) {
        self.clock = clock
        self.passwordCost = passwordCost
    }
}
