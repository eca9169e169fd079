#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import NIOCore
import NIOPosix
import WaymarkCore

/// A GPS receiver served by gpsd, read through gpsd's JSON protocol over TCP.
///
/// ``events()`` connects, sends `?WATCH={"enable":true,"json":true};` and turns the TPV reports
/// into one event per epoch (see ``GPSDEpochFilter``). If the first connection fails, the stream
/// throws ``GPSDError/unreachable(endpoint:reason:)``. If gpsd goes away later, the source yields
/// ``LocationEvent/noFix`` and reconnects, waiting 0.5 s, then twice as long each time up to
/// 5 s, until the iteration is cancelled. Cancelling closes the connection at once.
public struct GPSDSource: LocationSource {
    /// gpsd's host name or address.
    public let host: String
    /// gpsd's TCP port.
    public let port: Int
    private let logger: Logger

    /// The command that asks gpsd for JSON reports.
    static let watchCommand = "?WATCH={\"enable\":true,\"json\":true};\n"
    static let firstRetryDelay = Duration.milliseconds(500)
    static let longestRetryDelay = Duration.seconds(5)
    static let connectTimeout = TimeAmount.seconds(5)

    /// A source reading gpsd at `host`:`port`.
    public init(host: String = GPSDSource.defaultHost, port: Int = GPSDSource.defaultPort,
                logger: Logger = Logger(label: "waymark.recorder.gpsd")) {
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// `gpsd at 127.0.0.1:2947`.
    public var description: String { "gpsd at \(endpoint)" }

    /// Always `true`: gpsd reports the receiver's GPS time.
    public var isLive: Bool { true }

    var endpoint: String { Self.format(host: host, port: port) }

    /// Events until the iteration is cancelled; throws only when the first connection fails.
    public func events() -> AsyncThrowingStream<LocationEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task { await self.run(into: continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: - Connections

    private enum SessionEnd {
        case couldNotConnect(any Error)
        case disconnected((any Error)?)
    }

    private func run(into continuation: AsyncThrowingStream<LocationEvent, Error>.Continuation) async {
        var delay = Self.firstRetryDelay
        var everConnected = false
        while !Task.isCancelled {
            switch await session(into: continuation) {
            case .couldNotConnect(let error):
                if !everConnected {
                    logger.debug("gpsd unreachable", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
                    continuation.finish(throwing: GPSDError.unreachable(endpoint: endpoint, reason: Self.reason(for: error)))
                    return
                }
                logger.debug("gpsd still unreachable", metadata: ["endpoint": "\(endpoint)", "retryIn": "\(delay)"])
            case .disconnected(let error):
                everConnected = true
                delay = Self.firstRetryDelay
                if Task.isCancelled { break }
                logger.debug("gpsd went away", metadata: ["endpoint": "\(endpoint)", "error": "\(error.map { "\($0)" } ?? "closed")"])
            }
            if Task.isCancelled { break }
            continuation.yield(.noFix)
            do {
                try await Task.sleep(for: delay)
            } catch {
                break
            }
            delay = min(delay * 2, Self.longestRetryDelay)
        }
        continuation.finish()
    }

    /// One connection: from connecting until gpsd closes it or the task is cancelled.
    private func session(into continuation: AsyncThrowingStream<LocationEvent, Error>.Continuation) async -> SessionEnd {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(Self.connectTimeout)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            return .couldNotConnect(error)
        }
        logger.debug("Connected to gpsd", metadata: ["endpoint": "\(endpoint)"])
        let raw = channel.channel
        do {
            try await withTaskCancellationHandler {
                try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(string: Self.watchCommand))
                    var filter = GPSDEpochFilter()
                    let decoder = JSONDecoder()
                    for try await line in inbound {
                        guard let report = try? decoder.decode(GPSDReport.self, from: Data(line.readableBytesView)) else {
                            logger.trace("Skipped a line gpsd sent", metadata: ["line": "\(String(buffer: line).prefix(200))"])
                            continue
                        }
                        for event in filter.accept(report) { continuation.yield(event) }
                    }
                    for event in filter.flush() { continuation.yield(event) }
                }
            } onCancel: {
                // Closing ends the inbound stream at once, whatever the event loop is doing.
                raw.close(promise: nil)
            }
            return .disconnected(nil)
        } catch {
            return .disconnected(error)
        }
    }

    /// `connection refused`, `host not found`, `no answer within 5 s`: what went wrong, briefly.
    static func reason(for error: any Error) -> String {
        if let connection = error as? NIOConnectionError {
            if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
                return "host not found"
            }
            if let first = connection.connectionErrors.first { return reason(for: first.error) }
        }
        if let io = error as? IOError {
            return io.errnoCode == ECONNREFUSED ? "connection refused" : String(cString: strerror(io.errnoCode))
        }
        if let channel = error as? ChannelError, case .connectTimeout = channel {
            return "no answer within \(connectTimeout.nanoseconds / 1_000_000_000) s"
        }
        return "\(error)"
    }
}
