#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Foundation
import WaymarkMedia
import WaymarkServer

/// `waymark serve`: the route service.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server and the web app: accounts, and encrypted routes it can never read (SQLite in --data, or PostgreSQL with DATABASE_URL)."
    )

    enum Registration: String, ExpressibleByArgument, CaseIterable {
        case open, closed
    }

    enum TLSChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, off
    }

    /// The TLS mode the options choose: the operator's files, auto, or off; auto by default off loopback.
    var tlsMode: TLSMode {
        if let tlsCert, let tlsKey { return .files(certificate: URL(fileURLWithPath: tlsCert), key: URL(fileURLWithPath: tlsKey)) }
        switch tls {
        case .auto?: return .automatic
        case .off?: return .off
        case nil: return Self.isLoopback(host) ? .off : .automatic
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    @Option(name: .long, help: "The address to listen on.") var host = "127.0.0.1"
    @Option(name: .long, help: "The port to listen on (default: 8443 with TLS, else 8080).") var port: Int?
    @Option(name: .long, help: ArgumentHelp("HTTPS: auto (Waymark's own certificate authority in DATA/tls/; the default when --host is not a loopback address) or off (plain HTTP: the default on loopback, and for a proxy that terminates TLS).", valueName: "auto|off"))
    var tls: TLSChoice?
    @Option(name: .long, help: ArgumentHelp("Your own certificate chain (PEM) instead of Waymark's CA, with --tls-key; read again on SIGHUP.", valueName: "file"), completion: .file())
    var tlsCert: String?
    @Option(name: .long, help: ArgumentHelp("The private key (PEM) of --tls-cert.", valueName: "file"), completion: .file())
    var tlsKey: String?
    @Option(name: .long, help: "With TLS on, the plain-HTTP port: the CA certificate (/ca.crt, /ca.mobileconfig) and a redirect of everything else to HTTPS.")
    var httpPort = 8080
    @Option(name: .long, help: "The data folder (SQLite database and, later, blobs).", completion: .directory) var data = "./data"
    @Option(name: .long, help: "The web app's folder (default: ./Web when there is one; \"none\" serves the API alone).", completion: .directory)
    var web: String?
    @Option(name: .long, help: "A folder of browser libraries served under /vendor/, looked in before /usr/share/javascript and /usr/share/nodejs.", completion: .directory)
    var webVendor: String?
    @Option(name: .long, help: ArgumentHelp("A personal data vault (OwnYourData) the /vault page may use; repeat for more, the first is the default (default: https://data-vault.eu).", valueName: "url"))
    var vaultURL: [String] = []
    @Option(name: .long, help: ArgumentHelp("A Nominatim-compatible reverse geocoder for street addresses on scenes' pages, e.g. https://nominatim.openstreetmap.org (default: none; addresses come from the offline gazetteer and no scene's place leaves the server).", valueName: "url"))
    var nominatimURL: String?
    @Option(name: .long, help: "The map tiles' URL template, with {z}, {x} and {y} (default: OpenStreetMap's standard tiles).")
    var tileURL: String?
    @Option(name: .long, help: "The attribution the maps show for --tile-url's tiles.")
    var tileAttribution: String?
    @Option(name: .long, help: "The route map's Terrain tiles: a URL template with {z}, {x} and {y} (default: none; the choice is shown disabled).")
    var terrainTileURL: String?
    @Option(name: .long, help: "The attribution the route map shows for --terrain-tile-url's tiles.")
    var terrainTileAttribution: String?
    @Option(name: .long, help: "The route map's Satellite tiles: a URL template with {z}, {x} and {y} (default: none; the choice is shown disabled).")
    var satelliteTileURL: String?
    @Option(name: .long, help: "The attribution the route map shows for --satellite-tile-url's tiles.")
    var satelliteTileAttribution: String?
    @Option(name: .long, help: ArgumentHelp("The receipt signing key, an Ed25519 private key in PEM (PKCS#8), instead of the one kept in the database (made on the first start, shared by every instance on it).", valueName: "file"), completion: .file())
    var receiptKey: String?
    @Option(name: .long, help: "Whether anyone may create an account (open or closed; closed: waymark users create).")
    var registration: Registration = .open
    @Option(name: .long, help: ArgumentHelp("A TLE file of navigation satellites' orbits for the /sky page (CelesTrak's GNSS group: https://celestrak.org/NORAD/elements/gp.php?GROUP=gnss&FORMAT=tle); repeat for more (default: none, /sky has no data).", valueName: "file"), completion: .file())
    var tle: [String] = []
    /// For make bench only: an unsigned endpoint that stores each request body with one INSERT.
    @Option(name: .long, help: ArgumentHelp("A name this server is reached by (e.g. photos.example.org); repeat for more. Requests for any other name are refused (421), which stops DNS rebinding; loopback names, IP addresses and this machine's host name are always answered.", valueName: "name"))
    var publicName: [String] = []
    @Option(name: .long, help: ArgumentHelp("A reverse proxy (an address or a CIDR range, e.g. 127.0.0.1 or 10.0.0.0/8) whose X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host are believed; repeat for more. From any other peer they are ignored.", valueName: "address"))
    var trustedProxy: [String] = []
    @Option(name: .long, help: ArgumentHelp("Seconds after which a connection that sends and receives nothing is closed (a request sent only in part too).", valueName: "seconds"))
    var idleTimeout: Int = 30
    @Option(name: .long, help: ArgumentHelp("Connections held open at once; more wait until one closes (default: 1024, or fewer when the open-file limit is low).", valueName: "count"))
    var maxConnections: Int?
    @Option(name: .long, help: ArgumentHelp("Connections held open at once from one address (a --trusted-proxy is not counted); more are closed at once.", valueName: "count"))
    var maxConnectionsPerAddress: Int = ConnectionLimits.defaultPerAddress

    func validate() throws {
        if let port, !(1...65_535).contains(port) { throw ValidationError("--port must be 1 to 65535, not \(port).") }
        guard (1...65_535).contains(httpPort) else { throw ValidationError("--http-port must be 1 to 65535, not \(httpPort).") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together: give both.") }
        if tlsCert != nil, tls == .off { throw ValidationError("--tls off and --tls-cert contradict each other; leave one out.") }
        if tlsMode != .off, port == httpPort { throw ValidationError("--port and --http-port must differ.") }
        for url in vaultURL { _ = try Self.vault(url) }
        if let nominatimURL { _ = try Self.geocoder(nominatimURL) }
    }

    func run() async throws {
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: data), databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"])
        configuration.host = host
        configuration.tls = tlsMode
        configuration.port = port ?? (configuration.tls == .off ? 8080 : 8443)
        configuration.httpPort = httpPort
        configuration.publicNames = publicName
        do {
            try configuration.trustProxies(trustedProxy)
        } catch .notAnAddress(let text) {
            throw ValidationError("--trusted-proxy \(text) is not an IP address or a CIDR range such as 10.0.0.0/8.")
        }
        guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be 1 to 3600 seconds.") }
        configuration.idleTimeout = idleTimeout
        if let maxConnections {
            guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1.") }
        }
        guard maxConnectionsPerAddress >= 1 else { throw ValidationError("--max-connections-per-address must be at least 1.") }
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.registrationOpen = registration == .open
        configuration.receiptKeyFile = receiptKey.map { URL(fileURLWithPath: $0) }
        if let tileURL {
            configuration.tiles = try Self.tiles(tileURL, attribution: tileAttribution, option: "--tile-url")
        }
        configuration.terrainTiles = try terrainTileURL.map { try Self.tiles($0, attribution: terrainTileAttribution, option: "--terrain-tile-url") }
        configuration.satelliteTiles = try satelliteTileURL.map { try Self.tiles($0, attribution: satelliteTileAttribution, option: "--satellite-tile-url") }
        if !vaultURL.isEmpty {
            configuration.vaults = try vaultURL.map(Self.vault)
        }
        configuration.nominatim = try nominatimURL.map(Self.geocoder)
        configuration.web = try webLocation()
        if !tle.isEmpty {
            configuration.orbitData = try Self.orbitData(tle)
        }
        if let web = configuration.web {
            print("Waymark is at \(configuration.address) (web app from \(web.folder.path))")
        } else {
            print("Waymark's API is at \(configuration.address) (no web app)")
        }
        if let pair = configuration.pairAddress {
            Self.printPairing(pair, authority: configuration.authorityAddress)
        }
        try await WaymarkServerApp.run(configuration)
    }

    /// The phone's way in (DESIGN §3.12): a QR code, in half blocks as `waymark record` draws its
    /// own, that opens the pairing page; black on white when the output is a terminal.
    private static func printPairing(_ pair: String, authority: String?) {
        if let authority {
            print("On a phone, scan this code or open \(pair): it shows how to trust Waymark's certificate authority (\(authority)), then opens Waymark.")
        } else {
            print("On a phone, scan this code or open \(pair), then open Waymark.")
        }
        guard let image = try? QRImage(encoding: pair) else { return }
        let terminal = isatty(STDOUT_FILENO) == 1
        for line in HalfBlocks.lines(image) {
            print(terminal ? "\u{1B}[30;107m" + line + "\u{1B}[0m" : line)
        }
    }

    /// A tile source from a URL template option; without an attribution, the tiles' host is named.
    private static func tiles(_ url: String, attribution: String?, option: String) throws -> MapTiles {
        var tiles = MapTiles(url: url, attribution: attribution ?? "")
        guard tiles.origin != nil, ["{z}", "{x}", "{y}"].allSatisfy(url.contains) else {
            throw ValidationError("\(option) must be an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.example.org/{z}/{x}/{y}.png")
        }
        if tiles.attribution.isEmpty, let host = URLComponents(string: url.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: ""))?.host {
            tiles.attribution = "Map tiles: \(host)"
        }
        return tiles
    }

    /// The orbit data of the --tle files; a file that cannot be used stops the server, naming it.
    private static func orbitData(_ paths: [String]) throws -> OrbitData {
        do {
            return try OrbitData.load(paths.map { URL(fileURLWithPath: $0) })
        } catch {
            Terminal.printError("error: --tle \(error.path ?? ""): \(Self.words(error)) — the server did not start.")
            throw ExitCode.failure
        }
    }

    /// Why a --tle file cannot be used, for the terminal.
    private static func words(_ error: OrbitDataError) -> String {
        switch error {
        case .noFiles:
            "no file given"
        case .missing:
            "no such file"
        case .notAFile:
            "is a folder; give the TLE files in it one by one"
        case let .unreadable(_, reason):
            "cannot be read (\(reason))"
        case .notText:
            "is not a text file of two-line element sets (download one from CelesTrak, e.g. https://celestrak.org/NORAD/elements/gp.php?GROUP=gnss&FORMAT=tle)"
        case .empty:
            "is empty (download it again from CelesTrak, e.g. https://celestrak.org/NORAD/elements/gp.php?GROUP=gnss&FORMAT=tle)"
        case let .noUsableSet(_, broken, others, firstError):
            if others > 0 && broken == 0 {
                "holds no GPS, Galileo, GLONASS or BeiDou satellite, only \(others) other\(others == 1 ? "" : "s")"
            } else {
                "holds no usable element set: \(broken) broken\(firstError.map { ", the first at \($0)" } ?? "")"
            }
        }
    }

    /// A vault from --vault-url: an http(s) URL.
    private static func vault(_ url: String) throws -> ServiceURL {
        do {
            return try ServiceURL(url)
        } catch {
            throw ValidationError("--vault-url must be an http(s) URL such as https://data-vault.eu, not \(url)")
        }
    }

    /// A geocoder from --nominatim-url: an http(s) URL.
    private static func geocoder(_ url: String) throws -> ServiceURL {
        do {
            return try ServiceURL(url)
        } catch {
            throw ValidationError("--nominatim-url must be an http(s) URL such as https://nominatim.openstreetmap.org, not \(url)")
        }
    }

    /// The web app's folder: --web, else ./Web when it holds the app, else none.
    private func webLocation() throws -> WebAppLocation? {
        var vendor = WebAppLocation.defaultVendorFolders
        if let webVendor {
            let first = URL(fileURLWithPath: webVendor)
            vendor = [first] + vendor.filter { $0.standardizedFileURL.path != first.standardizedFileURL.path }
        }
        switch web {
        case "none":
            return nil
        case let folder?:
            guard FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder).appendingPathComponent("index.html").path) else {
                throw ValidationError("--web \(folder) holds no index.html; give the repository's Web folder.")
            }
            return WebAppLocation(folder: URL(fileURLWithPath: folder), vendorFolders: vendor)
        case nil:
            let here = URL(fileURLWithPath: "Web")
            return FileManager.default.fileExists(atPath: here.appendingPathComponent("index.html").path)
                ? WebAppLocation(folder: here, vendorFolders: vendor) : nil
        }
    }
}
