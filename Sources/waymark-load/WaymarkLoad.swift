import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WaymarkAPI
import WaymarkCore

/// `waymark-load`: the benchmarks of `make bench`. `routes` (the default) loads the route API;
/// `serve` runs the server with the floor it is compared with (FloorServer.swift); `photos-load`
/// and `photos-bench` fill the photo store and time its searches (PhotoBench.swift).
@main
struct WaymarkLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waymark-load", abstract: "Load generators for make bench.",
        subcommands: [RouteLoad.self, PhotosLoad.self, PhotosBench.self, FloorServer.self], defaultSubcommand: RouteLoad.self)
}

/// `waymark-load routes`: a load generator for the route API. Keeps `--concurrency`
/// signed requests in flight for `--seconds` and prints one JSON line: requests, errors, req/s,
/// p50 and p99 latency. Every request is signed (version 2) with its own nonce; uploads have
/// their own lookup key and Idempotency-Key, so each stores a route. `--mode floor` posts the
/// same body, unsigned, to `POST /bench/floor` of `waymark-load serve`, which stores
/// it with one plain INSERT: the floor of the stack that the route API is compared with.
struct RouteLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "routes", abstract: "Load-test the route API (uploads or lookups).")

    @Option(help: "The server, e.g. http://127.0.0.1:8080.") var server: String
    @Option(help: "upload, lookup or floor.") var mode: String
    @Option(help: "How long to run, in seconds.") var seconds: Double = 10
    @Option(help: "Requests in flight at once.") var concurrency: Int = 32

    func run() async throws {
        guard let key = ProcessInfo.processInfo.environment["WAYMARK_API_KEY"], let secret = ProcessInfo.processInfo.environment["WAYMARK_API_SECRET"] else {
            throw ValidationError("Set WAYMARK_API_KEY and WAYMARK_API_SECRET.")
        }
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await measure(http, base: base, key: key, secret: secret)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    private func measure(_ http: HTTPClient, base: String, key: String, secret: String) async throws {

        let route = Route(tracks: [Track(fixes: (0..<60).map { Fix(latitude: 46 + Double($0) / 1e4, longitude: 14, altitude: 300, accuracy: 5, time: Date(timeIntervalSince1970: 1_700_000_000 + Double($0))) })])
        let envelope = String(decoding: try RouteEnvelope.seal(route, passphrase: "load", nonce: "LOADTEST0000", kdf: .scrypt(n: 1024)).jsonData(), as: UTF8.self)
        let counter = Counter()

        func upload(_ n: Int) async throws -> (Int, String) {
            let lookup = Self.hex(n, salt: 1), hash = Self.hex(n, salt: 2)
            let body = Data(#"{"envelope":\#(envelope),"lookup":"\#(lookup)","deleteTokenHash":"\#(hash)"}"#.utf8)
            return try await sendSigned(http, base: base, method: .POST, target: "/api/v1/routes", body: body, key: key, secret: secret,
                                  extra: [("Idempotency-Key", "load-\(n)-\(lookup.prefix(8))"), ("Content-Type", "application/json")])
        }

        /// The upload's body, unsigned, to the plain-INSERT endpoint.
        func floorInsert(_ n: Int) async throws -> (Int, String) {
            let lookup = Self.hex(n, salt: 1), hash = Self.hex(n, salt: 2)
            var request = HTTPClientRequest(url: base + "/bench/floor")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: #"{"envelope":\#(envelope),"lookup":"\#(lookup)","deleteTokenHash":"\#(hash)"}"#))
            let response = try await http.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return (Int(response.status.code), String(buffer: bytes))
        }

        var lookups: [String] = []
        if mode == "lookup" {
            for n in 0..<256 {
                let (status, _) = try await upload(1_000_000 + n)
                guard status == 201 else { throw ValidationError("seeding routes failed with \(status)") }
                lookups.append(Self.hex(1_000_000 + n, salt: 1))
            }
        } else if mode != "upload" && mode != "floor" {
            throw ValidationError("--mode is upload, lookup or floor")
        }
        let floor = mode == "floor"
        let seeded = lookups
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int64(seconds * 1000))
        let results = await withTaskGroup(of: ([Double], Int).self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var latencies: [Double] = []
                    var errors = 0
                    while ContinuousClock.now < deadline {
                        let n = counter.next()
                        let t0 = ContinuousClock.now
                        let status: Int
                        if floor {
                            status = (try? await floorInsert(n))?.0 ?? 0
                        } else if seeded.isEmpty {
                            status = (try? await upload(n))?.0 ?? 0
                        } else {
                            let target = "/api/v1/routes?lookup=\(seeded[n % seeded.count])"
                            status = (try? await sendSigned(http, base: base, method: .GET, target: target, body: Data(), key: key, secret: secret, extra: []))?.0 ?? 0
                        }
                        let elapsed = ContinuousClock.now - t0
                        latencies.append(elapsed.inSeconds * 1000)
                        if status != (seeded.isEmpty ? 201 : 200) { errors += 1 }
                    }
                    return (latencies, errors)
                }
            }
            var all: ([Double], Int) = ([], 0)
            for await (latencies, errors) in group { all.0 += latencies; all.1 += errors }
            return all
        }
        let wall = (ContinuousClock.now - started).inSeconds
        let latencies = results.0
        print(jsonLine(["mode": mode, "requests": latencies.count, "errors": results.1, "seconds": wall,
                        "rps": Double(latencies.count) / wall, "p50_ms": percentile(latencies, 0.50), "p99_ms": percentile(latencies, 0.99)]))
    }

    static func hex(_ n: Int, salt: Int) -> String {
        var text = ""
        var x = UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(salt) &* 0xBF58_476D_1CE4_E5B9
        for _ in 0..<4 {
            x ^= x >> 31; x &*= 0x94D0_49BB_1331_11EB; x ^= x >> 29
            text += String(format: "%016llx", x)
        }
        return text
    }
}

private func sendSigned(_ http: HTTPClient, base: String, method: HTTPMethod, target: String, body: Data, key: String, secret: String,
                  extra: [(String, String)]) async throws -> (Int, String) {
    var request = HTTPClientRequest(url: base + target)
    request.method = method
    for (name, value) in extra { request.headers.add(name: name, value: value) }
    // Signature version 2: the extra headers (Idempotency-Key, Content-Type) are signed, and each
    // request has its own nonce.
    for (name, value) in RequestSigning.headers(key: key, secret: secret, method: method.rawValue, target: target, body: body,
                                                headers: extra, now: WallClock.system.now(), nonce: RequestSigning.randomNonce()) {
        request.headers.add(name: name, value: value)
    }
    if !body.isEmpty { request.body = .bytes(ByteBuffer(bytes: body)) }
    let response = try await http.execute(request, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    return (Int(response.status.code), String(buffer: bytes))
}

/// A shared request counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
