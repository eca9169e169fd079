import Foundation
import Vapor

/// Answers only requests for a name this server is reached by (#34: it answered any `Host`, so
/// a page of another site whose name was pointed at this machine, DNS rebinding, could read its
/// answers as its own origin). Allowed: the names given (`--public-name`) and the listening
/// host, the loopback names, any IP address literal (rebinding needs a name), and this
/// machine's host name with and without `.local`; any port. A request without `Host` (HTTP/1.0,
/// in-process tests) passes. Any other answers 421 `unknown_host`.
struct HostCheckMiddleware: AsyncMiddleware {
    let names: Set<String>

    init(configuration: ServerConfiguration, hostName: String = ServerConfiguration.machineName()) {
        names = Set(configuration.ownNames(hostName: hostName) + ["localhost.", configuration.host.lowercased()])
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if let host = request.headers.first(name: .host), !admits(host) {
            throw APIError(.misdirectedRequest, .unknownHost, "This server does not answer for that name; open it by one of its own names (waymark serve --public-name).")
        }
        return try await next.respond(to: request)
    }

    /// Whether a `Host` header's value (`name[:port]`, `[v6][:port]`) names this server.
    func admits(_ value: String) -> Bool {
        let host = Self.name(of: value.lowercased())
        if host.hasSuffix(".localhost") || names.contains(host) { return true }
        return Self.isIPAddress(host)
    }

    /// The name of `name[:port]` or `[address][:port]`.
    static func name(of value: String) -> String {
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") {
            return String(value[value.index(after: value.startIndex)..<end])
        }
        if let colon = value.lastIndex(of: ":"), value.firstIndex(of: ":") == colon { return String(value[..<colon]) }
        return value
    }

    static func isIPAddress(_ text: String) -> Bool {
        IPRange.bytes(of: text) != nil
    }
}
