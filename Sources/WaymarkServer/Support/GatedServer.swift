import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// The server `waymark serve` runs (`app.servers.use(.gated(…))`): ``ConnectionGate`` on the
/// configured address, in front of Vapor's own HTTP server on a loopback port of its choosing.
/// Vapor's server keeps doing all of HTTP and TLS (certificate reloads included); the gate bounds
/// the connections and tells ``Request/cancelledWhenClientLeaves(_:)`` when a client has gone.
final class GatedServer: Server, Sendable {
    let application: Application
    let limits: ConnectionLimits
    let exempt: [IPRange]
    /// Print where Vapor's server listens behind the gate (`waymark-load serve`: `make bench` measures the gate's cost).
    let announcesUpstream: Bool
    let registry = GateRegistry()
    private let gate = NIOLockedValueBox<ConnectionGate?>(nil)
    private let boundAddress = NIOLockedValueBox<SocketAddress?>(nil)

    init(application: Application, limits: ConnectionLimits, exempt: [IPRange], announcesUpstream: Bool = false) {
        self.application = application
        self.limits = limits
        self.exempt = exempt
        self.announcesUpstream = announcesUpstream
    }

    /// The address the gate listens on (its port when 0 was asked for).
    var localAddress: SocketAddress? {
        boundAddress.withLockedValue { $0 }
    }

    /// The connections the gate spliced that are open now.
    var openConnections: Int {
        registry.count
    }

    var onShutdown: EventLoopFuture<Void> {
        application.http.server.shared.onShutdown
    }

    func start(address: BindAddress?) async throws {
        let (host, port) = try publicAddress(address)
        let inner = prepareInner()
        try await inner.start(address: .hostname("127.0.0.1", port: 0))
        do {
            try await openGate(host: host, port: port, in: inner).get()
        } catch {
            await inner.shutdown()
            throw error
        }
    }

    /// As the async one; it blocks on event loop futures only, never on Swift's cooperative pool
    /// (Vapor's test tools call it from a pool thread).
    @available(*, noasync)
    func start(address: BindAddress?) throws {
        let (host, port) = try publicAddress(address)
        let inner = prepareInner()
        try inner.start(address: .hostname("127.0.0.1", port: 0))
        do {
            try openGate(host: host, port: port, in: inner).wait()
        } catch {
            inner.shutdown()
            throw error
        }
    }

    func shutdown() async {
        await closeGate()
        await application.http.server.shared.shutdown()
    }

    @available(*, noasync)
    func shutdown() {
        try? takeGate()?.close()?.wait()
        application.http.server.shared.shutdown()
    }

    /// Stops accepting connections.
    func closeGate() async {
        try? await takeGate()?.close()?.get()
    }

    /// The gate, which is no longer this server's.
    func takeGate() -> ConnectionGate? {
        gate.withLockedValue { value in
            defer { value = nil }
            return value
        }
    }

    /// Vapor's server, told to keep its start-up notice to itself: it would name the loopback port
    /// behind the gate, and the gate says where the server listens.
    private func prepareInner() -> HTTPServer {
        let inner = application.http.server.shared
        var quiet = inner.configuration.logger
        quiet.logLevel = max(quiet.logLevel, .warning)
        inner.configuration.logger = quiet
        return inner
    }

    /// Opens the gate on `host:port` in front of `inner`, which has started.
    private func openGate(host: String, port: Int, in inner: HTTPServer) -> EventLoopFuture<Void> {
        let loop = application.eventLoopGroup.any()
        guard let upstream = inner.localAddress else {
            return loop.makeFailedFuture(Abort(.internalServerError, reason: "Vapor's server behind the gate has no address."))
        }
        application.storage[GateRegistry.Key.self] = registry
        let gate = ConnectionGate(limits: limits, exempt: exempt, registry: registry, logger: application.logger)
        let scheme = inner.configuration.tlsConfiguration == nil ? "http" : "https"
        return gate.start(host: host, port: port, backlog: inner.configuration.backlog, upstream: upstream, group: application.eventLoopGroup)
            .map { [self] bound in
                self.gate.withLockedValue { $0 = gate }
                boundAddress.withLockedValue { $0 = bound }
                if announcesUpstream {
                    FileHandle.standardOutput.write(Data("bench: behind the gate at 127.0.0.1:\(upstream.port ?? 0)\n".utf8))
                }
                application.logger.notice("Server started on \(scheme)://\(host):\(bound.port ?? port)",
                                          metadata: ["connections": "\(limits.total)", "per-address": "\(limits.perAddress)"])
            }
    }

    /// The address asked for, else the configured one.
    private func publicAddress(_ address: BindAddress?) throws -> (String, Int) {
        let configured = application.http.server.configuration
        switch address {
        case .none:
            return (configured.hostname, configured.port)
        case let .hostname(host, port):
            return (host ?? configured.hostname, port ?? configured.port)
        case .unixDomainSocket:
            throw Abort(.internalServerError, reason: "The gate listens on TCP only.")
        }
    }
}

extension Application.Servers.Provider {
    /// ``GatedServer`` with `limits`; `exempt` peers (trusted proxies) are not counted per address.
    /// Vapor asks for the server each time it starts or stops it: the one made first is kept.
    static func gated(_ limits: ConnectionLimits, exempt: [IPRange], announcesUpstream: Bool = false) -> Self {
        .init { app in
            app.servers.use { app in
                app.locks.lock(for: GatedServer.Key.self).withLock {
                    if let made = app.storage[GatedServer.Key.self] { return made }
                    let made = GatedServer(application: app, limits: limits, exempt: exempt, announcesUpstream: announcesUpstream)
                    // However the application ends, the gate's socket closes with it.
                    app.storage.set(GatedServer.Key.self, to: made) { _ = $0.takeGate()?.close() }
                    return made
                }
            }
        }
    }
}

extension GatedServer {
    struct Key: LockKey, StorageKey { typealias Value = GatedServer }
}

extension GateRegistry {
    struct Key: StorageKey { typealias Value = GateRegistry }
}

extension Request {
    /// The client's own address when the request came through ``ConnectionGate`` (Vapor's
    /// `remoteAddress` is then the gate's loopback end); `remoteAddress` otherwise.
    var peer: SocketAddress? {
        guard let registry = application.storage[GateRegistry.Key.self], let port = remoteAddress?.port else { return remoteAddress }
        return registry.client(port: port) ?? remoteAddress
    }
}

extension Request {
    /// Runs `work` (a route's handler) in a task of its own that is cancelled when the request's
    /// client has gone (#34 point 1), as ``ConnectionGate`` sees its connection close: whatever the
    /// handler awaits — a database query, a pool's thread, a search's next step, a throttle's
    /// wait — ends instead of finishing for nobody. Vapor hands a request from one middleware to
    /// the next through futures, each in a task of its own, so a cancellation at the outermost
    /// layer would not reach the handler: it is cancelled here, where the handler is called.
    /// Without the gate (tests on Vapor's own server) `work` simply runs.
    func cancelledWhenClientLeaves(_ work: @escaping @Sendable () async throws -> Response) async throws -> Response {
        guard let registry = application.storage[GateRegistry.Key.self], let port = remoteAddress?.port else {
            return try await work()
        }
        let task = Task { try await work() }
        let logger = self.logger
        let token = registry.whenEnded(port: port) {
            logger.debug("connection ended: the request is cancelled")
            task.cancel()
        }
        defer { if let token { registry.forget(token, port: port) } }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
