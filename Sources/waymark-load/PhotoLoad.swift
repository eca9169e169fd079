import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import WaymarkServer

/// `waymark-load photos-load`: stores synthetic photos straight into the server's database (the
/// bulk load of `make bench`, not the HTTP path).
struct PhotosLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "photos-load", abstract: "Bulk-load synthetic photos into the server's database.")

    @Option(help: "The server's data folder (ignored when DATABASE_URL is set).") var data = "./data"
    @Option(help: "How many photos.") var count = 1_000_000
    @Option(help: "The account that owns them (create it with waymark users create).") var owner: String
    @Option(help: "The seed of the synthetic world.") var seed: UInt64 = 4

    func run() async throws {
        let bench = try await PhotoBench(configuration: ServerConfiguration(
            dataDirectory: URL(fileURLWithPath: data), databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"]))
        let start = ContinuousClock.now
        do {
            try await bench.load(count: count, owner: owner, seed: seed) { done in
                FileHandle.standardError.write(Data("\rphotos-load: \(done) of \(count)".utf8))
            }
        } catch {
            try? await bench.shutdown()
            throw error
        }
        try await bench.shutdown()
        let seconds = (ContinuousClock.now - start).inSeconds
        FileHandle.standardError.write(Data("\n".utf8))
        print(jsonLine(["mode": "load", "photos": count, "seconds": seconds, "per_second": Double(count) / seconds]))
    }
}

/// `waymark-load photos-bench`: nearby searches through the store and, on PostgreSQL, plain
/// PostGIS on the same rows; then the same searches and map tiles over HTTP from `--server`,
/// one request at a time. One JSON line per series.
struct PhotosBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "photos-bench", abstract: "Time nearby searches and map tiles on loaded photos.")

    @Option(help: "The server's data folder (ignored when DATABASE_URL is set).") var data = "./data"
    @Option(help: "The server serving that database, e.g. http://127.0.0.1:8080.") var server: String
    @Option(help: "Searches per series.") var searches = 500
    @Option(help: "The seed the photos were loaded with.") var seed: UInt64 = 4
    @Option(help: "Rounds over each view's tiles.") var rounds = 10

    static let radii: [(name: String, metres: Double)] = [("1 mile", 1_609.344), ("2.5 km", 2_500)]

    func run() async throws {
        let points = PhotoBench.searchPoints(count: searches, seed: seed)
        let bench = try await PhotoBench(configuration: ServerConfiguration(
            dataDirectory: URL(fileURLWithPath: data), databaseURL: ProcessInfo.processInfo.environment["DATABASE_URL"]))
        do {
            // One pass first, so that every series reads from warm caches (the database's and the system's).
            _ = try await bench.nearby(at: points, radius: 2_500)
            _ = try await bench.nearby(at: points, radius: 2_500, recent: true)
            if bench.isPostgres { _ = try await bench.postgisReference(at: points, radius: 2_500) }
            for radius in Self.radii {
                report("store", radius.name, try await bench.nearby(at: points, radius: radius.metres))
                if bench.isPostgres {
                    report("postgis", radius.name, try await bench.postgisReference(at: points, radius: radius.metres))
                }
            }
            report("store-recent", "1 mile", try await bench.nearby(at: points, radius: 1_609.344, recent: true))
        } catch {
            try? await bench.shutdown()
            throw error
        }
        try await bench.shutdown()

        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            _ = try await times(http, base: base, targets: Array(repeating: "/healthz", count: 5))  // the connection, once
            _ = try await times(http, base: base, targets: points.prefix(50).map { "/api/v1/photos/nearby?latitude=\($0.latitude)&longitude=\($0.longitude)&radius=2500" })
            for radius in Self.radii {
                let targets = points.map { "/api/v1/photos/nearby?latitude=\($0.latitude)&longitude=\($0.longitude)&radius=\(radius.metres)" }
                report("http", radius.name, try await times(http, base: base, targets: targets))
            }
            // A world view: the 16 tiles of zoom 2. A city view: 4 × 3 tiles (a phone's screen
            // and a half) around the busiest place, at zoom 12 (the closest zoom from the cell
            // index) and at zoom 15 (read from the photos themselves).
            let world = (0..<4).flatMap { x in (0..<4).map { y in "/api/v1/photos/clusters/2/\(x)/\(y)" } }
            report("tiles", "world z2", try await times(http, base: base, targets: Array(repeating: world, count: rounds).flatMap { $0 }))
            let busiest = PhotoBench.busiestPlace(seed: seed)
            for zoom in [12, 15] {
                let centre = Self.tile(busiest, zoom: zoom)
                let city = (-2...1).flatMap { dx in (-1...1).map { dy in "/api/v1/photos/clusters/\(zoom)/\(centre.x + dx)/\(centre.y + dy)" } }
                report("tiles", "city z\(zoom)", try await times(http, base: base, targets: Array(repeating: city, count: rounds).flatMap { $0 }))
            }
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    /// GETs each target in turn; the time to the last byte of each answer, and its bytes.
    private func times(_ http: HTTPClient, base: String, targets: [String]) async throws -> (seconds: [Double], bytes: [Int]) {
        var seconds: [Double] = [], bytes: [Int] = []
        for target in targets {
            let start = ContinuousClock.now
            let response = try await http.execute(HTTPClientRequest(url: base + target), timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 64 << 20)
            let elapsed = (ContinuousClock.now - start).inSeconds
            guard response.status == .ok else { throw ValidationError("\(target) answered \(response.status.code): \(String(buffer: body))") }
            seconds.append(elapsed); bytes.append(body.readableBytes)
        }
        return (seconds, bytes)
    }

    private func report(_ series: String, _ name: String, _ timings: PhotoBench.Timings) {
        print(jsonLine(["series": series, "name": name, "count": timings.seconds.count, "found": timings.found,
                        "p50_ms": percentile(timings.seconds, 0.50) * 1000, "p99_ms": percentile(timings.seconds, 0.99) * 1000]))
    }

    private func report(_ series: String, _ name: String, _ timings: (seconds: [Double], bytes: [Int])) {
        print(jsonLine(["series": series, "name": name, "count": timings.seconds.count,
                        "p50_ms": percentile(timings.seconds, 0.50) * 1000, "p99_ms": percentile(timings.seconds, 0.99) * 1000,
                        "bytes_p50": percentile(timings.bytes.map(Double.init), 0.50), "bytes_max": Double(timings.bytes.max() ?? 0)]))
    }

    static func tile(_ point: PhotoBench.Point, zoom: Int) -> (x: Int, y: Int) {
        let n = Double(1 << zoom), latitude = point.latitude * .pi / 180
        let x = Int((point.longitude + 180) / 360 * n)
        let y = Int((1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * n)
        return (x, y)
    }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func jsonLine(_ fields: [String: Any]) -> String {
    String(decoding: (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
}
