import Foundation
import Vapor
import WaymarkCore
import WaymarkMedia

/// The stores the server's areas work on. ``ServerDependencies`` makes them; tests swap any one.
struct ServerStores: Sendable {
    var routes: any RouteStore
    var consumers: any ConsumerStore
    var nonces: any NonceStore
    var accounts: any AccountStore
    var sessions: any SessionStore
    var photos: any PhotoStore

    /// Every store on the server's Fluent database (SQLite or PostgreSQL).
    static func fluent(_ database: ServerDatabase, clock: WallClock) -> ServerStores {
        ServerStores(
            routes: FluentRouteStore(database: database, clock: clock),
            consumers: FluentConsumerStore(database: database),
            nonces: FluentNonceStore(database: database),
            accounts: FluentAccountStore(database: database),
            sessions: FluentSessionStore(database: database),
            photos: SQLPhotoStore(database: database, clock: clock)
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

    public init(clock: WallClock = .system, passwordCost: PasswordHash.Cost = .interactive) {
        self.clock = clock
        self.passwordCost = passwordCost
    }
}
