import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import Vapor
import WaymarkCore
import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `waymark serve` speaks TLS (DESIGN §3.12).
public enum TLSMode: Sendable, Equatable {
    /// Plain HTTP: on loopback, or behind a proxy that terminates TLS.
    case off
    /// Waymark's own CA in `DATA/tls/` and a server certificate for every name it is reached by.
    case automatic
    /// The operator's own chain and key (PEM), read again on SIGHUP.
    case files(certificate: URL, key: URL)
}

/// The server's TLS while it runs: the identity in use, made (``TLSMode/automatic``) or read
/// (``TLSMode/files(certificate:key:)``) at start, renewed in place a day at a time (a
/// certificate with less than 30 days left, or whose names changed) or on SIGHUP, without a
/// restart: Vapor's server reads its TLS configuration for every new connection.
final class ServerTLS: LifecycleHandler, Sendable {
    let mode: TLSMode
    let dataDirectory: URL
    /// The DNS names and IP addresses the certificate names.
    let names: [String]
    let addresses: [String]
    let clock: WallClock
    let authority: CertificateAuthority?
    private let current: NIOLockedValueBox<ServerIdentity>
    private let timer = NIOLockedValueBox<RepeatedTask?>(nil)
    private let hangUp = NIOLockedValueBox<SignalWatch?>(nil)

    init(mode: TLSMode, dataDirectory: URL, names: [String], addresses: [String], clock: WallClock) throws {
        self.mode = mode
        self.dataDirectory = dataDirectory
        self.names = names
        self.addresses = addresses
        self.clock = clock
        switch mode {
        case .off:
            throw ServerTLSProblem.off
        case .automatic:
            let authority = try CertificateAuthority.loadOrCreate(in: dataDirectory, now: clock.now())
            self.authority = authority
            current = NIOLockedValueBox(try authority.serverIdentity(in: dataDirectory, names: names, addresses: addresses, now: clock.now()))
        case let .files(certificate, key):
            authority = nil
            current = NIOLockedValueBox(try Self.read(certificate: certificate, key: key))
        }
    }

    /// The identity in use.
    var identity: ServerIdentity { current.withLockedValue { $0 } }

    /// SwiftNIO SSL's server configuration of the identity in use: TLS 1.2 and 1.3 only.
    func configuration() throws -> TLSConfiguration {
        let identity = self.identity
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(identity.chainPEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(bytes: Array(identity.keyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }

    /// Makes or reads the identity again and hands it to the server; `true` when it changed.
    @discardableResult
    func refresh(_ application: Application) throws -> Bool {
        let fresh: ServerIdentity
        switch mode {
        case .off: return false
        case .automatic:
            guard let authority else { return false }
            fresh = try authority.serverIdentity(in: dataDirectory, names: names, addresses: addresses, now: clock.now())
            guard fresh.renewed else { return false }
        case let .files(certificate, key):
            fresh = try Self.read(certificate: certificate, key: key)
        }
        current.withLockedValue { $0 = fresh }
        application.http.server.configuration.tlsConfiguration = try configuration()
        application.logger.notice("TLS certificate in use", metadata: [
            "notValidAfter": "\(ISO8601DateFormatter().string(from: fresh.certificate.notValidAfter))",
        ])
        return true
    }

    func didBootAsync(_ application: Application) async throws {
        let logger = application.logger
        let loop = application.eventLoopGroup.next()
        // Once a day: a certificate with less than 30 days left is made anew.
        let task = loop.scheduleRepeatedTask(initialDelay: .hours(24), delay: .hours(24)) { [weak self] _ in
            do { try self?.refresh(application) } catch {
                logger.error("could not renew the TLS certificate", metadata: ["error": "\(error)"])
            }
        }
        timer.withLockedValue { $0 = task }
        if case .files = mode {
            signal(SIGHUP, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
            source.setEventHandler { [weak self] in
                do {
                    try self?.refresh(application)
                    logger.notice("TLS certificate read again (SIGHUP)")
                } catch {
                    logger.error("SIGHUP: the TLS certificate or key could not be read; the old one stays", metadata: ["error": "\(error)"])
                }
            }
            source.resume()
            hangUp.withLockedValue { $0 = SignalWatch(source: source) }
        }
    }

    func shutdownAsync(_ application: Application) async {
        timer.withLockedValue { $0?.cancel(); $0 = nil }
        hangUp.withLockedValue { $0?.source.cancel(); $0 = nil }
    }

    /// The operator's chain and key, checked: PEM that SwiftNIO SSL reads, and a key that matches the first certificate.
    static func read(certificate: URL, key: URL) throws -> ServerIdentity {
        guard let chainPEM = try? String(contentsOf: certificate, encoding: .utf8),
              let first = try? Certificate(pemEncoded: chainPEM)
        else { throw ServerTLSProblem.unreadable(certificate.path) }
        guard let keyPEM = try? String(contentsOf: key, encoding: .utf8), (try? NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)) != nil
        else { throw ServerTLSProblem.unreadable(key.path) }
        return ServerIdentity(keyPEM: keyPEM, chainPEM: chainPEM, certificate: first, renewed: true)
    }

    /// This machine's interface addresses (IPv4 and IPv6, loopback and link-local included).
    static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count))
            case AF_INET6:
                var v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count))
            default:
                continue
            }
            let text = String(cString: buffer)
            if !text.isEmpty, !found.contains(text) { found.append(text) }
        }
        return found
    }
}

/// A signal source kept while the server runs. Dispatch sources may be used from any thread.
private final class SignalWatch: @unchecked Sendable {
    let source: any DispatchSourceSignal
    init(source: any DispatchSourceSignal) { self.source = source }
}

/// Why TLS could not be set up.
enum ServerTLSProblem: Error, Equatable {
    case off
    /// A certificate or key file that is missing or not PEM (its path).
    case unreadable(String)
}
