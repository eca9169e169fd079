import Foundation
import Vapor

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IP address range, `ADDRESS` or `ADDRESS/BITS` (IPv4 or IPv6), as `--trusted-proxy` takes it.
struct IPRange: Sendable, Equatable, CustomStringConvertible {
    /// The network's bytes (4 or 16).
    let network: [UInt8]
    let prefix: Int

    /// Reads `192.0.2.1`, `10.0.0.0/8`, `::1`, `fd00::/8`; `nil` for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = parts.first, let bytes = Self.bytes(of: String(first)) else { return nil }
        let bits = bytes.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given) else { return nil }
            prefix = given
        }
        self.prefix = prefix
        network = Self.masked(bytes, prefix: prefix)
    }

    /// Whether `address` (a textual IPv4 or IPv6 address; an IPv4-mapped IPv6 one counts as IPv4) is in the range.
    func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address), bytes.count == network.count else { return false }
        return Self.masked(bytes, prefix: prefix) == network
    }

    var description: String {
        let text = network.count == 4 ? network.map(String.init).joined(separator: ".") : Self.text(v6: network)
        return prefix == network.count * 8 ? text : "\(text)/\(prefix)"
    }

    /// The bytes of an address: 4 for IPv4 (also for `::ffff:a.b.c.d`), 16 for IPv6.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    private static func masked(_ bytes: [UInt8], prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keep = max(0, min(8, prefix - index * 8))
            return keep == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - keep))
        }
    }

    private static func text(v6 bytes: [UInt8]) -> String {
        stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}

/// Who a request came from, behind the proxies the server trusts (`--trusted-proxy`, DESIGN
/// §3.12): the peer's own address, unless the peer is a trusted proxy; then the rightmost
/// address of `X-Forwarded-For` that is not a trusted proxy (the nearest one no proxy of ours
/// vouches past). `X-Forwarded-Proto` and `X-Forwarded-Host` are believed only from a trusted
/// peer too. From anyone else those headers change nothing: a client cannot pick the address
/// the sign-in throttle counts for it, nor claim HTTPS for a cookie.
struct ClientAddressMiddleware: AsyncMiddleware {
    let trusted: [IPRange]
    /// Whether the server itself speaks TLS (every request it reads came over HTTPS).
    var overTLS = false

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let peer = request.peer?.ipAddress
        var client = ClientOrigin(address: peer, scheme: overTLS ? "https" : request.url.scheme, host: nil)
        if let peer, isTrusted(peer) {
            let forwarded = request.headers[.xForwardedFor].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if let nearest = forwarded.reversed().first(where: { !isTrusted($0) }) ?? forwarded.first, IPRange.bytes(of: nearest) != nil {
                client.address = nearest
            }
            if let proto = request.headers.first(name: "X-Forwarded-Proto")?.split(separator: ",").first?
                .trimmingCharacters(in: .whitespaces).lowercased(), ["http", "https"].contains(proto) {
                client.scheme = proto
            }
            client.host = request.headers.first(name: "X-Forwarded-Host")?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces)
        }
        request.storage[ClientOrigin.Key.self] = client
        if let address = client.address { request.logger[metadataKey: "client"] = .string(address) }
        return try await next.respond(to: request)
    }

    func isTrusted(_ address: String) -> Bool {
        trusted.contains { $0.contains(address) }
    }
}

/// Where a request came from, as ``ClientAddressMiddleware`` found it.
struct ClientOrigin: Sendable {
    /// The client's IP address (the peer's, or the one a trusted proxy forwarded).
    var address: String?
    /// `https` when the request came over TLS, directly or through a trusted proxy that says so.
    var scheme: String?
    /// The `Host` the client asked a trusted proxy for.
    var host: String?

    struct Key: StorageKey { typealias Value = ClientOrigin }
}

extension Request {
    /// Where the request came from (``ClientAddressMiddleware``); the peer itself when that did not run.
    var client: ClientOrigin {
        storage[ClientOrigin.Key.self] ?? ClientOrigin(address: peer?.ipAddress, scheme: url.scheme, host: nil)
    }
}
