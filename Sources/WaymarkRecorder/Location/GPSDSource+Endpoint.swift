import Foundation

extension GPSDSource {
    /// gpsd's well-known port.
    public static let defaultPort = 2947
    /// Where gpsd listens unless told otherwise.
    public static let defaultHost = "127.0.0.1"

    /// A source for the `--gpsd` value `HOST:PORT`, `[IPv6]:PORT`, bare `HOST` or bare IPv6 address.
    public init(endpoint: String) throws {
        let (host, port) = try Self.parseEndpoint(endpoint)
        self.init(host: host, port: port)
    }

    /// Splits `HOST:PORT`, `[IPv6]:PORT`, `[IPv6]`, a bare IPv6 address or a bare `HOST`;
    /// the port defaults to 2947 and an empty host (`:2947`) to 127.0.0.1.
    public static func parseEndpoint(_ text: String) throws -> (host: String, port: Int) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw GPSDError.invalidEndpoint(text, problem: "it is empty") }
        let host: Substring
        let portText: Substring?
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else {
                throw GPSDError.invalidEndpoint(text, problem: "the IPv6 address has no closing ]")
            }
            host = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
            let rest = trimmed[trimmed.index(after: close)...]
            if rest.isEmpty {
                portText = nil
            } else if rest.hasPrefix(":") {
                portText = rest.dropFirst()
            } else {
                throw GPSDError.invalidEndpoint(text, problem: "'\(rest)' follows the IPv6 address where :PORT belongs")
            }
            guard !host.isEmpty else { throw GPSDError.invalidEndpoint(text, problem: "the brackets hold no address") }
        } else {
            let colons = trimmed.filter { $0 == ":" }.count
            if colons == 1, let colon = trimmed.firstIndex(of: ":") {
                host = trimmed[..<colon]
                portText = trimmed[trimmed.index(after: colon)...]
            } else {
                // No colon: a host name or IPv4 address; several: a bare IPv6 address.
                host = Substring(trimmed)
                portText = nil
            }
        }
        guard !host.contains(where: { $0 == " " || $0 == "/" }) else {
            throw GPSDError.invalidEndpoint(text, problem: "'\(host)' is not a host name or address")
        }
        var port = defaultPort
        if let portText {
            guard let value = Int(portText), (1...65_535).contains(value) else {
                throw GPSDError.invalidEndpoint(text, problem: "the port '\(portText)' is not a number from 1 to 65535")
            }
            port = value
        }
        return (host.isEmpty ? defaultHost : String(host), port)
    }

    /// `127.0.0.1:2947`, `[::1]:2947`.
    static func format(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
