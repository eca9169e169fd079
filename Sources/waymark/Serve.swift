import ArgumentParser
import Foundation
import WaymarkServer

/// `waymark serve`: the route service.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server and the web app: accounts, and encrypted routes it can never read (SQLite in --data, or PostgreSQL with DATABASE_URL)."
    )

    enum Registration: String, ExpressibleByArgument, CaseIterable {
        case open, closed
    }

    @Option(name: .long, help: "The address to listen on.") var host = "127.0.0.1"
    @Option(name: .long, help: "The port to listen on.") var port = 8080
    @Option(name: .long, help: "The data folder (SQLite database and, later, blobs).", completion: .directory) var data = "./data"
    @Option(name: .long, help: "The web app's folder (default: ./Web when there is one; \"none\" serves the API alone).", completion: .directory)
    var web: String?
    @Option(name: .long, help: "Where the system keeps browser libraries, served under /vendor/.", completion: .directory)
    var webVendor = "/usr/share/javascript"
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
    @Option(name: .long, help: "Whether anyone may create an account (open or closed; closed: waymark users create).")
    var registration: Registration = .open
    /// For make bench only: an unsigned endpoint that stores each request body with one INSERT.
    @Flag(name: .long, help: .hidden) var benchFloor = false

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be 1 to 65535, not \(port).") }
    }

    func run() async throws {
        var configuration = ServerConfiguration(dataDirectory: URL(fileURLWithPath: data), databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"])
        configuration.host = host
        configuration.port = port
        configuration.benchFloor = benchFloor
        configuration.registrationOpen = registration == .open
        if let tileURL {
            configuration.tiles = try Self.tiles(tileURL, attribution: tileAttribution, option: "--tile-url")
        }
        configuration.terrainTiles = try terrainTileURL.map { try Self.tiles($0, attribution: terrainTileAttribution, option: "--terrain-tile-url") }
        configuration.satelliteTiles = try satelliteTileURL.map { try Self.tiles($0, attribution: satelliteTileAttribution, option: "--satellite-tile-url") }
        configuration.web = try webLocation()
        if let web = configuration.web {
            print("Waymark is at http://\(host.contains(":") ? "[\(host)]" : host):\(port)/ (web app from \(web.folder.path))")
        } else {
            print("Waymark's API is at http://\(host.contains(":") ? "[\(host)]" : host):\(port)/ (no web app)")
        }
        try await WaymarkServerApp.run(configuration)
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

    /// The web app's folder: --web, else ./Web when it holds the app, else none.
    private func webLocation() throws -> WebAppLocation? {
        let vendor = URL(fileURLWithPath: webVendor)
        switch web {
        case "none":
            return nil
        case let folder?:
            guard FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder).appendingPathComponent("index.html").path) else {
                throw ValidationError("--web \(folder) holds no index.html; give the repository's Web folder.")
            }
            return WebAppLocation(folder: URL(fileURLWithPath: folder), vendorFolder: vendor)
        case nil:
            let here = URL(fileURLWithPath: "Web")
            return FileManager.default.fileExists(atPath: here.appendingPathComponent("index.html").path)
                ? WebAppLocation(folder: here, vendorFolder: vendor) : nil
        }
    }
}
