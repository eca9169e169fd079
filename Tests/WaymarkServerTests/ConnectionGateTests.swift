import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor
@testable import WaymarkServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The gate in front of the server (#34 points 1 and 4): connections are bounded in all and per
/// address, bytes pass through it unchanged both ways, the server sees each client's own address,
/// and a request whose client has gone is cancelled. Clients come from several loopback addresses
/// (127.0.0.2, 127.0.0.3 …), which Linux routes to this machine without any set-up.
@Suite("Connection gate", .serialized)
struct ConnectionGateTests {
    /// What the slow test route saw.
    enum SlowOutcome: Sendable { case finished, cancelled }

    /// A server with `limits` and three routes of its own: the client's address as the server sees
    /// it, 5 MiB of numbered lines, and a request that waits two minutes unless it is cancelled.
    static func withGatedServer(_ limits: ConnectionLimits,
                                _ body: (_ port: Int, _ gate: GatedServer, _ slow: AsyncStream<SlowOutcome>, _ started: AsyncStream<Void>) async throws -> Void) async throws {
        try await withServer(.sqlite, configuration: {
            $0.maxConnections = limits.total
            $0.maxConnectionsPerAddress = limits.perAddress
        }) { server in
            let (outcomes, report) = AsyncStream.makeStream(of: SlowOutcome.self)
            let (starts, start) = AsyncStream.makeStream(of: Void.self)
            server.app.get("gate-test", "peer") { request in request.client.address ?? "none" }
            server.app.get("gate-test", "big") { _ in Response(status: .ok, body: .init(string: Self.bigText)) }
            // Bound as the contract's operations are (ContractRoutes.on).
            server.app.get("gate-test", "slow") { request async throws -> Response in
                try await request.cancelledWhenClientLeaves {
                    start.yield()
                    do {
                        try await Task.sleep(for: .seconds(120))
                        report.yield(.finished)
                    } catch {
                        report.yield(.cancelled)
                    }
                    return Response(status: .ok, body: "slept")
                }
            }
            let port = try await server.startListening()
            let gate = try #require(server.app.storage[GatedServer.Key.self])
            try await body(port, gate, outcomes, starts)
            await server.app.server.shutdown()
        }
    }

    static let bigText = (0..<200_000).map { String(format: "line %07d of the big answer\n", $0) }.joined()

    @Test("A client past its address's limit is closed at once; another address is served meanwhile; a freed place is taken again")
    func perAddress() async throws {
        // A total of five: a refused connection that kept its place would leave none for the last one.
        try await Self.withGatedServer(ConnectionLimits(total: 5, perAddress: 3)) { port, gate, _, _ in
            let held = try (0..<3).map { _ in try RawConnection(port: port, from: "127.0.0.1") }
            try await waitUntil("the gate counts three connections from 127.0.0.1") { gate.openConnections(from: "127.0.0.1") == 3 }
            for _ in 0..<3 {
                let past = try RawConnection(port: port, from: "127.0.0.1")
                try? past.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let refused = await past.readToEnd(within: 30)
                #expect(refused.closed && refused.bytes.isEmpty, "a fourth connection from one address is closed unanswered")
            }

            let other = try RawConnection(port: port, from: "127.0.0.2")
            #expect(try await other.get("/healthz").hasPrefix("HTTP/1.1 200"), "another address is served while 127.0.0.1 is at its limit")

            held[0].close()
            try await waitUntil("the gate frees the closed connection's place") { gate.openConnections(from: "127.0.0.1") == 2 }
            let again = try RawConnection(port: port, from: "127.0.0.1")
            #expect(try await again.get("/healthz").hasPrefix("HTTP/1.1 200"), "a place freed is given to the next connection")
            held.forEach { $0.close() }
        }
    }

    @Test("At the total limit a new connection waits, and is served as soon as one closes")
    func total() async throws {
        try await Self.withGatedServer(ConnectionLimits(total: 4, perAddress: 100)) { port, gate, _, _ in
            let held = try (1...4).map { try RawConnection(port: port, from: "127.0.0.\($0)") }
            try await waitUntil("four connections are open") { gate.openConnections == 4 }
            let waiting = try RawConnection(port: port, from: "127.0.0.9")
            try waiting.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(await waiting.readToEnd(within: 1).bytes.isEmpty, "a fifth connection is not served while four are open")
            #expect(gate.openConnections == 4)
            held[0].close()
            let answer = String(decoding: await waiting.readToEnd(within: 30).bytes, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "the waiting connection is served once a place is free: \(answer.prefix(80))")
            held.forEach { $0.close() }
        }
    }

    @Test("The server sees each client's own address through the gate, and bytes pass unchanged both ways")
    func splice() async throws {
        try await Self.withGatedServer(ConnectionLimits(total: 64, perAddress: 8)) { port, _, _, _ in
            let client = try RawConnection(port: port, from: "127.0.0.3")
            let peer = try await client.get("/gate-test/peer")
            #expect(peer.hasSuffix("\r\n\r\n127.0.0.3"), "the server saw: \(peer.suffix(40))")

            let big = try RawConnection(port: port, from: "127.0.0.4")
            try big.send("GET /gate-test/big HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let answer = await big.readToEnd(within: 60)
            #expect(answer.closed)
            let text = String(decoding: answer.bytes, as: UTF8.self)
            let body = try #require(text.range(of: "\r\n\r\n").map { text[$0.upperBound...] })
            #expect(body == Self.bigText[...], "5 MiB answered with Connection: close arrive whole (\(body.utf8.count) of \(Self.bigText.utf8.count) bytes)")
        }
    }

    @Test("A request whose client has gone is cancelled")
    func clientLeaves() async throws {
        try await Self.withGatedServer(ConnectionLimits(total: 64, perAddress: 8)) { port, gate, outcomes, starts in
            let client = try RawConnection(port: port, from: "127.0.0.5")
            try client.send("GET /gate-test/slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            var started = starts.makeAsyncIterator()
            _ = await started.next()
            client.close()
            // The route sleeps two minutes unless cancelled; a minute is the test's patience, not a timing.
            let outcome = try await first(within: .seconds(60)) {
                var iterator = outcomes.makeAsyncIterator()
                return await iterator.next()
            }
            #expect(outcome == .cancelled, "the request went on after its client left")
            try await waitUntil("the gate forgets the connection") { gate.openConnections == 0 }
        }
    }
}

extension GatedServer {
    /// Connections open now from `address`.
    func openConnections(from address: String) -> Int {
        registry.clients.filter { $0.ipAddress == address }.count
    }
}

/// Waits until `condition` holds, checking every 20 ms, for at most a minute (patience, not a timing).
func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("waited a minute for: \(what)")
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// The value of `work`, or `nil` when it takes longer than `limit`.
func first<T: Sendable>(within limit: Duration, _ work: @escaping @Sendable () async -> T?) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { await work() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        let value = try await group.next() ?? nil
        group.cancelAll()
        return value
    }
}

/// A plain TCP connection from a chosen loopback address, for what an HTTP client library hides:
/// which address a connection comes from, and whether the server closed it unanswered.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32
    private var isOpen = true

    init(port: Int, from source: String) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, connected == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
        }
    }

    deinit { close() }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPIPE) }
            sent += written
        }
    }

    /// What arrives until the server closes the connection (`closed`), or until `seconds` pass.
    /// It never blocks a thread: the server's handlers run on the same cooperative pool.
    func readToEnd(within seconds: Double) async -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            guard deadline.timeIntervalSinceNow > 0 else { return (bytes, false) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else {
                try? await Task.sleep(for: .milliseconds(5))
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return (bytes, true) }
            bytes += buffer[0..<count]
        }
    }

    /// `GET path` on this connection, closed after the answer; the whole answer as text.
    func get(_ path: String) async throws -> String {
        try send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return String(decoding: await readToEnd(within: 60).bytes, as: UTF8.self)
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        closeDescriptor(descriptor)
    }
}

private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
