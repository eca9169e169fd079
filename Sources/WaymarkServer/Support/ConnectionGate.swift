import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many connections the server holds open at once (`waymark serve --max-connections`,
/// `--max-connections-per-address`; #34 point 4).
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections open at once. Past it the server stops accepting: a new connection waits in the
    /// kernel's listen queue until one closes, so a burst is served late rather than refused.
    public var total: Int
    /// Connections open at once from one client address (a trusted proxy's are not counted). Past it
    /// a new connection from that address is closed as soon as it is accepted, so one client cannot
    /// take every place.
    public var perAddress: Int

    public init(total: Int, perAddress: Int) {
        self.total = total
        self.perAddress = perAddress
    }

    /// A browser opens six connections to a server; a household or an office behind one address
    /// opens a few dozen.
    public static let defaultPerAddress = 128
    /// The most connections by default, when the process may open enough files.
    public static let defaultTotal = 1024
    /// Files kept for everything but connections: the database, photos being read or written,
    /// derivatives, logs.
    static let reservedFiles = 256
    /// Files one connection costs the process: the client's socket, and both ends of the
    /// connection to the HTTP server behind the gate.
    static let filesPerConnection = 3

    /// The default total: ``defaultTotal``, or fewer when the process may open fewer files (after
    /// ``raiseOpenFileLimit()``): every connection must leave the server files to work with.
    static func total(fitting openFiles: Int) -> Int {
        max(16, min(defaultTotal, (openFiles - reservedFiles) / filesPerConnection))
    }

    /// The process's soft limit of open files.
    static func openFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(nofile, &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)
    }

    #if canImport(Glibc)
    private static let nofile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let nofile = RLIMIT_NOFILE
    #endif

    /// Raises the process's soft limit of open files to its hard limit (at most 65,536), as Go's
    /// runtime does at start; where it cannot, the limit stays as it was.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(nofile, &limit) == 0 else { return }
        let wanted = min(limit.rlim_max, 65_536)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = wanted
        _ = setrlimit(nofile, &limit)
    }
}

/// The server's front door (#34 point 4): it holds the listening socket, admits connections
/// within ``ConnectionLimits``, and splices each admitted one, byte for byte, to Vapor's HTTP
/// server listening on loopback behind it (TLS included: the gate never reads a byte).
///
/// Vapor 4 offers no hook where a server could count its connections or learn that a client left
/// (its channel handlers are internal), and both are needed: a cap on open connections, and the
/// cancellation of work for a client that has gone. The gate knows both. It records each spliced
/// connection in ``GateRegistry`` under the loopback port Vapor sees as the request's peer, so that
/// the middleware behind it learns the client's real address and is told when the client leaves.
final class ConnectionGate: Sendable {
    let limits: ConnectionLimits
    /// Peers whose connections are not counted per address (the trusted reverse proxies).
    let exempt: [IPRange]
    let registry: GateRegistry
    let logger: Logger
    private let perAddress = NIOLockedValueBox<[String: Int]>([:])
    private let listener = NIOLockedValueBox<Channel?>(nil)

    init(limits: ConnectionLimits, exempt: [IPRange], registry: GateRegistry, logger: Logger) {
        self.limits = limits
        self.exempt = exempt
        self.registry = registry
        self.logger = logger
    }

    /// Listens on `host:port` and splices every admitted connection to `upstream`; answers the
    /// address it listens on (its port when `port` is 0).
    func start(host: String, port: Int, backlog: Int, upstream: SocketAddress, group: any EventLoopGroup) -> EventLoopFuture<SocketAddress> {
        let total = limits.total
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: Int32(backlog))
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            // One accept per read, so that the count never passes the limit.
            .serverChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPacing(limit: total))
                }
            }
            .childChannelInitializer { [self] client in
                admit(client, upstream: upstream)
            }
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        return bootstrap.bind(host: host, port: port).flatMapThrowing { [self] channel in
            listener.withLockedValue { $0 = channel }
            guard let address = channel.localAddress else { throw ChannelError.unknownLocalAddress }
            return address
        }
    }

    /// Stops accepting; connections already admitted go on until they end.
    func close() -> EventLoopFuture<Void>? {
        listener.withLockedValue { channel in
            defer { channel = nil }
            return channel?.close()
        }
    }

    /// Counts `client` against its address's limit (closing it when that is full), then connects
    /// to `upstream` on the client's own event loop and splices the two.
    private func admit(_ client: Channel, upstream: SocketAddress) -> EventLoopFuture<Void> {
        guard let peer = client.remoteAddress, let address = peer.ipAddress else {
            return client.eventLoop.makeFailedFuture(ChannelError.unknownLocalAddress)
        }
        if !exempt.contains(where: { $0.contains(address) }) {
            let limit = limits.perAddress
            let admitted = perAddress.withLockedValue { counts -> Bool in
                guard counts[address, default: 0] < limit else { return false }
                counts[address, default: 0] += 1
                return true
            }
            guard admitted else {
                logger.debug("connection refused: too many from one address", metadata: ["client": "\(address)", "limit": "\(limit)"])
                return client.eventLoop.makeFailedFuture(GateRefusal.tooManyFromAddress)
            }
            client.closeFuture.whenComplete { [perAddress] _ in
                perAddress.withLockedValue { counts in
                    counts[address, default: 1] -= 1
                    if counts[address] == 0 { counts[address] = nil }
                }
            }
        }
        let registry = self.registry
        return ClientBootstrap(group: client.eventLoop)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connect(to: upstream)
            .flatMapThrowing { inner in
                guard let port = inner.localAddress?.port else {
                    inner.close(promise: nil)
                    throw ChannelError.unknownLocalAddress
                }
                // Known before the first byte reaches the server, so that its first request finds it.
                registry.opened(port: port, client: peer)
                // Whichever side ends first ends the request being answered: the client has gone, or
                // the server has closed the connection and could not deliver an answer any more.
                inner.closeFuture.whenComplete { _ in registry.ended(port: port) }
                client.closeFuture.whenComplete { _ in registry.ended(port: port) }
                let (outer, back) = Splice.pair()
                try client.pipeline.syncOperations.addHandler(outer)
                try inner.pipeline.syncOperations.addHandler(back)
            }
    }
}

/// Why the gate closed a connection as it came.
enum GateRefusal: Error {
    case tooManyFromAddress
}

/// On the listening channel: withholds accepting while ``limit`` connections are open, and
/// accepts again as one closes. What waits meanwhile waits in the kernel's listen queue.
private final class AcceptPacing: ChannelDuplexHandler {
    typealias InboundIn = Channel
    typealias InboundOut = Channel
    typealias OutboundIn = Never

    let limit: Int
    private var open = 0
    private var readWithheld = false

    init(limit: Int) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        open += 1
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        child.closeFuture.whenComplete { _ in
            loop.execute {
                let (pacing, context) = bound.value
                pacing.open -= 1
                if pacing.readWithheld, pacing.open < pacing.limit {
                    pacing.readWithheld = false
                    context.read()
                }
            }
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        if open >= limit {
            readWithheld = true
        } else {
            context.read()
        }
    }
}

/// One end of a splice: what its channel reads, the partner's channel writes. Both ends live on
/// one event loop. Reading stops while the partner cannot write (the other side reads slowly), and
/// when one side closes, the other closes once what it was given is written.
private final class Splice: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: Splice?
    private var context: ChannelHandlerContext?
    private var readWithheld = false

    static func pair() -> (Splice, Splice) {
        let first = Splice(), second = Splice()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.context?.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.closeAfterWrites()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        partner?.closeAfterWrites()
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.partnerBecameWritable() }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if partner?.context?.channel.isWritable ?? true {
            context.read()
        } else {
            readWithheld = true
        }
    }

    private func partnerBecameWritable() {
        guard readWithheld, let context else { return }
        readWithheld = false
        context.read()
    }

    /// Closes this side once every byte written to it has gone out (writes complete in order).
    private func closeAfterWrites() {
        guard let context else { return }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(capacity: 0)), promise: written)
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }
}

/// The connections the gate has spliced to the HTTP server, by the loopback port the server sees
/// as each one's peer: who the client is, and what to do when the connection ends.
final class GateRegistry: Sendable {
    private struct Connection {
        var client: SocketAddress
        var onEnd: [Int: @Sendable () -> Void] = [:]
    }

    private struct State {
        var connections: [Int: Connection] = [:]
        var nextToken = 0
    }

    private let state = NIOLockedValueBox(State())

    /// A spliced connection from `client` reaches the server from loopback `port`.
    func opened(port: Int, client: SocketAddress) {
        state.withLockedValue { $0.connections[port] = Connection(client: client) }
    }

    /// The connection of `port` has ended, on either side (the client left, or the server closed
    /// it): what was waiting for that runs now, and the port may be used again.
    func ended(port: Int) {
        let actions = state.withLockedValue { state in
            state.connections.removeValue(forKey: port).map { Array($0.onEnd.values) } ?? []
        }
        for action in actions { action() }
    }

    /// The client whose connection reaches the server from loopback `port`, when it came through the gate.
    func client(port: Int) -> SocketAddress? {
        state.withLockedValue { $0.connections[port]?.client }
    }

    /// Runs `action` when the connection of `port` ends; answers a token for
    /// ``forget(_:port:)``, or `nil` (and runs nothing) when `port` is not a connection of the gate's.
    func whenEnded(port: Int, _ action: @escaping @Sendable () -> Void) -> Int? {
        state.withLockedValue { state -> Int? in
            guard state.connections[port] != nil else { return nil }
            state.nextToken += 1
            state.connections[port]?.onEnd[state.nextToken] = action
            return state.nextToken
        }
    }

    /// No longer runs what ``whenEnded(port:_:)`` registered under `token`.
    func forget(_ token: Int, port: Int) {
        state.withLockedValue { _ = $0.connections[port]?.onEnd.removeValue(forKey: token) }
    }

    /// The clients of the connections spliced now.
    var clients: [SocketAddress] {
        state.withLockedValue { $0.connections.values.map(\.client) }
    }

    /// Connections spliced now.
    var count: Int {
        state.withLockedValue { $0.connections.count }
    }
}
