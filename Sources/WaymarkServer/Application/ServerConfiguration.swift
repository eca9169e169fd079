import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the server keeps its data and where it listens.
public struct ServerConfiguration: Sendable {
    /// The data folder; holds `waymark.sqlite` unless ``databaseURL`` is set.
    public var dataDirectory: URL
    /// A `postgres://user:password@host:port/database` URL selecting PostgreSQL, or `nil` for SQLite.
    ///
    /// TLS follows the URL's `sslmode` (or `tlsmode`) parameter, e.g. `?sslmode=require`;
    /// without one, the connection is unencrypted.
    public var databaseURL: String?
    /// The receipt signing key's file (`waymark serve --receipt-key`), instead of the one the
    /// database keeps (``ReceiptKeyStore``).
    public var receiptKeyFile: URL?
    /// The address to listen on.
    public var host: String = "127.0.0.1"
    /// The TCP port to listen on.
    public var port: Int = 8080
    /// The names this server is reached by (`waymark serve --public-name`), beside the ones it
    /// always answers (``HostCheckMiddleware``): a request for another `Host` is refused (421).
    public var publicNames: [String] = []
    /// Whether and how the server speaks HTTPS (`waymark serve --tls`, DESIGN §3.12); with TLS
    /// on, ``port`` is the HTTPS port and ``httpPort`` serves the CA and redirects.
    public var tls: TLSMode = .off
    /// The plain-HTTP port beside the HTTPS one (`--http-port`), when TLS is on.
    public var httpPort = 8080
    /// The reverse proxies whose `X-Forwarded-For`, `-Proto` and `-Host` are believed
    /// (`waymark serve --trusted-proxy`); from any other peer they are ignored.
    var trustedProxies: [IPRange] = []
    /// Seconds after which a connection that neither reads nor writes is closed (`--idle-timeout`).
    public var idleTimeout = 30
    /// Connections held open at once (`--max-connections`); `nil`: as many as the process's
    /// open-file limit allows, at most ``ConnectionLimits/defaultTotal`` (``ConnectionLimits/total(fitting:)``).
    public var maxConnections: Int?
    /// Connections held open at once from one address (`--max-connections-per-address`).
    public var maxConnectionsPerAddress = ConnectionLimits.defaultPerAddress

    /// The gate's limits: the ones given, the total otherwise fitted to the open-file limit.
    var connectionLimits: ConnectionLimits {
        ConnectionLimits(total: maxConnections ?? ConnectionLimits.total(fitting: ConnectionLimits.openFileLimit()),
                         perAddress: maxConnectionsPerAddress)
    }
    /// Print where Vapor's server listens behind the connection gate, so that `make bench` can
    /// measure the gate's own cost (`waymark-load serve`). Never in production.
    @_spi(Bench) public var announcesUpstream = false
    /// Whether anyone may create an account (`POST /api/v1/accounts`); `--registration closed` turns it off.
    public var registrationOpen = true
    /// The web app to serve beside the API, or `nil` for the API alone.
    public var web: WebAppLocation?
    /// The map tiles' URL template (`{z}`, `{x}`, `{y}`) and their attribution, for the web app's maps
    /// (the route map's "Roadmap").
    public var tiles = MapTiles.openStreetMap
    /// The route map's "Terrain" tiles (`waymark serve --terrain-tile-url`), or `nil` when this server has none.
    public var terrainTiles: MapTiles?
    /// The route map's "Satellite" tiles (`waymark serve --satellite-tile-url`), or `nil` when this server has none.
    public var satelliteTiles: MapTiles?

    /// The personal data vaults (OwnYourData) the web app's `/vault` page may talk to and show
    /// modules of (`waymark serve --vault-url`); the first is the page's default. Each is an
    /// http(s) URL without a trailing slash (see ``ServiceURL``).
    public var vaults: [ServiceURL] = [.dataVaultEU]

    /// A Nominatim-compatible reverse geocoder for the street address on a scene's page
    /// (`waymark serve --nominatim-url`, DESIGN §3.9), or `nil`: addresses come from the offline
    /// gazetteer alone and the server makes no network call for them. Opt-in, since each lookup
    /// tells that server a scene's coordinates.
    public var nominatim: ServiceURL?

    /// The navigation satellites' orbits for `GET /api/v1/sky` and the `/sky` page (`waymark serve --tle`),
    /// or `nil`: the server ships no orbit data, and the endpoint answers 404 `no_orbit_data`.
    public var orbitData: OrbitData?

    /// The vaults' origins, each once, for the Content-Security-Policy's `connect-src` and `frame-src`.
    public var vaultOrigins: [String] {
        var origins: [String] = []
        for vault in vaults where !origins.contains(vault.origin) {
            origins.append(vault.origin)
        }
        return origins
    }

    /// The origins of every tile source, each once, for the Content-Security-Policy's `img-src`.
    public var tileOrigins: [String] {
        var origins: [String] = []
        for origin in [tiles, terrainTiles, satelliteTiles].compactMap({ $0?.origin }) where !origins.contains(origin) {
            origins.append(origin)
        }
        return origins
    }

    /// Trusts the proxies at these addresses or ranges (`192.0.2.1`, `10.0.0.0/8`, `::1`); throws
    /// ``ProxyProblem`` naming the first that is not one.
    public mutating func trustProxies(_ texts: [String]) throws(ProxyProblem) {
        trustedProxies = try texts.map { text throws(ProxyProblem) in
            guard let range = IPRange(text.trimmingCharacters(in: .whitespaces)) else { throw .notAnAddress(text) }
            return range
        }
    }

    /// Why `--trusted-proxy` was refused.
    public enum ProxyProblem: Error, Sendable, Equatable {
        /// Not an IP address or a CIDR range.
        case notAnAddress(String)
    }

    /// The address a person opens the server at: with TLS `https://NAME:PORT/`, NAME the first
    /// `--public-name`, else this machine's `HOST.local` (or the listening address); without,
    /// `http://HOST:PORT/`.
    public var address: String {
        "\(tls == .off ? "http" : "https")://\(shownName):\(port)/"
    }

    /// With TLS on, where a phone first installs Waymark's CA: `http://NAME:HTTPPORT/ca.crt`.
    public var authorityAddress: String? {
        tls == .automatic ? "http://\(shownName):\(httpPort)/ca.crt" : nil
    }

    /// With TLS on, the page a phone opens first (`http://NAME:HTTPPORT/pair`): how to trust the
    /// CA, then the HTTPS address. `waymark serve` prints it as a QR code and `/account` shows it.
    public var pairAddress: String? {
        tls == .off ? nil : "http://\(shownName):\(httpPort)/pair"
    }

    private var shownName: String {
        var name = host
        if tls != .off {
            name = publicNames.first ?? (["0.0.0.0", "::"].contains(host) ? ownNames().first { $0.hasSuffix(".local") } ?? host : host)
        }
        return name.contains(":") ? "[\(name)]" : name
    }

    /// The names this server is reached by, each once, lowercase: every `--public-name`, then this
    /// machine's host name, its first label and that with `.local`, and `localhost`. The Host
    /// check answers them and the server certificate names them.
    func ownNames(hostName: String = Self.machineName()) -> [String] {
        let host = hostName.lowercased()
        let short = host.split(separator: ".").first.map(String.init) ?? host
        var names: [String] = []
        for name in publicNames.map({ $0.lowercased() }) + [host, short, short + ".local", "localhost"] where !name.isEmpty && !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// This machine's host name (`gethostname`), or `localhost`.
    static func machineName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "localhost" }
        return String(cString: buffer)
    }

    /// A configuration with the default host and port.
    public init(dataDirectory: URL, databaseURL: String? = nil) {
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
    }

    /// The SQLite file used when ``databaseURL`` is `nil`.
    public var sqliteFile: URL {
        dataDirectory.appendingPathComponent("waymark.sqlite")
    }

    /// The largest request body the server accepts (8 MiB); larger ones get 413.
    public static let maxBodySize = 8 * 1024 * 1024
}

/// The address of a service the server or its pages talk to — a personal data vault (`waymark
/// serve --vault-url`), a reverse geocoder (`--nominatim-url`): an http(s) URL, kept as given but
/// without a trailing slash, and its origin (`scheme://host[:port]`).
public struct ServiceURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL as given, without a trailing slash, e.g. `https://data-vault.eu`.
    public let url: String
    /// `scheme://host[:port]`, lowercase, for the Content-Security-Policy.
    public let origin: String

    /// Why a service URL was refused.
    public enum Problem: Error, Sendable, Equatable {
        /// Not an absolute `http://` or `https://` URL with a host (e.g. `ftp://…`, `data-vault.eu`).
        case notHTTP(String)
    }

    /// Reads a service URL; it must be an absolute http(s) URL with a host, and no user, password,
    /// query or fragment (the callers add their own paths).
    public init(_ text: String) throws(Problem) {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
              ["http", "https"].contains(scheme), let host = components.host?.lowercased(), !host.isEmpty,
              components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
              !host.contains(where: { $0 == "'" || $0 == ";" || $0 == "," || $0 == " " || $0 == "*" })
        else { throw .notHTTP(text) }
        url = trimmed
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        origin = "\(scheme)://\(shownHost)" + (components.port.map { ":\($0)" } ?? "")
    }

    /// OwnYourData's public vault, the default.
    public static let dataVaultEU = try! ServiceURL("https://data-vault.eu")

    public var description: String { url }
}

/// Where the web app's maps get their tiles (`waymark serve --tile-url`, `--terrain-tile-url`, `--satellite-tile-url`).
public struct MapTiles: Sendable, Equatable, Codable {
    /// A URL template with `{z}`, `{x}` and `{y}`.
    public var url: String
    public var attribution: String

    public init(url: String, attribution: String) {
        self.url = url
        self.attribution = attribution
    }

    /// OpenStreetMap's standard tiles.
    public static let openStreetMap = MapTiles(url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", attribution: "© OpenStreetMap contributors")

    /// The origin (`scheme://host[:port]`) the tiles come from, for the Content-Security-Policy; nil when the template is not an http(s) URL.
    public var origin: String? {
        guard let components = URLComponents(string: url.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
              let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }
}
