import Foundation
import NIOConcurrencyHelpers
import Vapor

/// With TLS on, the plain-HTTP port (`--http-port`, DESIGN §3.12) serves only what a phone needs
/// before it trusts Waymark's CA: `/ca.crt` (the CA certificate, DER, for Android and desktops)
/// `/ca.mobileconfig` (an iOS/macOS profile holding it) and `/pair` (``PairingPage``, how to
/// trust the CA on each platform); every other request is redirected
/// (308, method and body kept) to the same path and query on the HTTPS port, under the name the
/// request used when it is one of the server's, else under the server's first name.
///
/// A small application of its own, started and stopped with the main one.
final class PlainHTTPSide: LifecycleHandler, Sendable {
    let host: String
    let port: Int
    let httpsPort: Int
    /// The CA certificate's DER bytes; `nil` with the operator's own certificate (no CA to hand out).
    let authorityDER: [UInt8]?
    let authorityName: String
    let names: HostCheckMiddleware
    let fallbackName: String
    /// A listener open to anyone too: the same bounds as the HTTPS one, counted apart.
    let connections: ConnectionLimits
    let exempt: [IPRange]
    private let side = NIOLockedValueBox<Application?>(nil)

    init(host: String, port: Int, httpsPort: Int, authority: CertificateAuthority?, names: HostCheckMiddleware, fallbackName: String,
         connections: ConnectionLimits, exempt: [IPRange]) throws {
        self.connections = connections
        self.exempt = exempt
        self.host = host
        self.port = port
        self.httpsPort = httpsPort
        authorityDER = try authority?.der
        authorityName = authority.map { String(describing: $0.certificate.subject) } ?? ""
        self.names = names
        self.fallbackName = fallbackName
    }

    func didBootAsync(_ application: Application) async throws {
        let app = try await Application.make(Environment(name: application.environment.name, arguments: ["waymark"]))
        app.logger = application.logger
        app.http.server.configuration.hostname = host
        app.http.server.configuration.port = port
        app.http.server.configuration.idleTimeout = application.http.server.configuration.idleTimeout
        app.servers.use(.gated(connections, exempt: exempt))
        app.middleware = Middlewares()
        app.middleware.use(PlainHTTPResponder(side: self))
        side.withLockedValue { $0 = app }
        try await app.server.start(address: .hostname(host, port: port))
        application.logger.notice("plain HTTP for pairing and redirects", metadata: ["port": "\(port)", "https": "\(httpsPort)"])
    }

    func shutdownAsync(_ application: Application) async {
        guard let app = side.withLockedValue({ value -> Application? in defer { value = nil }; return value }) else { return }
        await app.server.shutdown()
        try? await app.asyncShutdown()
    }

    /// The answer to a request on the plain port.
    func respond(to request: Request) -> Response {
        switch (request.method, request.url.path) {
        case (.GET, "/ca.crt"), (.HEAD, "/ca.crt"):
            guard let der = authorityDER else { break }
            return Response(status: .ok, headers: ["Content-Type": "application/x-x509-ca-cert",
                                                   "Content-Disposition": #"attachment; filename="waymark-ca.crt""#],
                            body: .init(data: Data(der)))
        case (.GET, "/ca.mobileconfig"), (.HEAD, "/ca.mobileconfig"):
            guard let der = authorityDER else { break }
            return Response(status: .ok, headers: ["Content-Type": "application/x-apple-aspen-config",
                                                   "Content-Disposition": #"attachment; filename="waymark-ca.mobileconfig""#],
                            body: .init(string: Self.profile(der: der, name: authorityName)))
        case (.GET, "/pair"), (.HEAD, "/pair"):
            return PairingPage(httpsAddress: httpsAddress(for: request, path: "/"), authorityDER: authorityDER).response(for: request)
        default:
            break
        }
        let query = request.url.query.map { "?\($0)" } ?? ""
        return Response(status: .permanentRedirect, headers: ["Location": httpsAddress(for: request, path: request.url.path + query), "Content-Length": "0"])
    }

    /// `path` on the HTTPS port, under the name the request used when it is one of the server's,
    /// else under the server's first name.
    func httpsAddress(for request: Request, path: String) -> String {
        var name = fallbackName
        if let given = request.headers.first(name: .host), names.admits(given) { name = HostCheckMiddleware.name(of: given.lowercased()) }
        let shown = name.contains(":") ? "[\(name)]" : name
        return "https://\(shown)\(httpsPort == 443 ? "" : ":\(httpsPort)")\(path)"
    }

    /// An Apple configuration profile that installs the CA certificate (a root certificate
    /// payload); iOS then asks to turn on full trust in Certificate Trust Settings.
    static func profile(der: [UInt8], name: String) -> String {
        let identifier = "org.waymark.ca." + Data(der.prefix(32)).base64EncodedString().filter { $0.isLetter || $0.isNumber }.prefix(16)
        let uuid = UUID().uuidString, payload = UUID().uuidString
        let escaped = name.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
              <key>PayloadContent</key>
              <array>
                <dict>
                  <key>PayloadCertificateFileName</key><string>waymark-ca.crt</string>
                  <key>PayloadContent</key><data>\(Data(der).base64EncodedString())</data>
                  <key>PayloadDescription</key><string>Lets this device trust the Waymark server that made it.</string>
                  <key>PayloadDisplayName</key><string>\(escaped)</string>
                  <key>PayloadIdentifier</key><string>\(identifier).certificate</string>
                  <key>PayloadType</key><string>com.apple.security.root</string>
                  <key>PayloadUUID</key><string>\(payload)</string>
                  <key>PayloadVersion</key><integer>1</integer>
                </dict>
              </array>
              <key>PayloadDisplayName</key><string>Waymark</string>
              <key>PayloadIdentifier</key><string>\(identifier)</string>
              <key>PayloadRemovalDisallowed</key><false/>
              <key>PayloadType</key><string>Configuration</string>
              <key>PayloadUUID</key><string>\(uuid)</string>
              <key>PayloadVersion</key><integer>1</integer>
            </dict>
            </plist>

            """
    }
}

/// Answers every request of the plain port through ``PlainHTTPSide/respond(to:)``.
private struct PlainHTTPResponder: AsyncMiddleware {
    let side: PlainHTTPSide

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        side.respond(to: request)
    }
}
