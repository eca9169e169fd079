import Foundation
import Testing
import Vapor
import VaporTesting
@testable import WaymarkServer

@Suite("The web app is served from Web/ beside the API")
struct WebAppTests {
    /// The repository's `Web/` folder.
    static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Web")

    /// A vendor folder laid out as Debian's /usr/share/javascript.
    static func vendorFolder() throws -> URL {
        let folder = makeTemporaryDirectory().appendingPathComponent("javascript")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("leaflet"), withIntermediateDirectories: true)
        try Data("export const L = 1;\n".utf8).write(to: folder.appendingPathComponent("leaflet/leaflet.esm.js"))
        return folder
    }

    @Test("Pages from pages.json get the shell; files get their type; /vendor/ maps to the system's libraries; the rest is the API's 404")
    func serving() async throws {
        let vendor = try Self.vendorFolder()
        try await withServer(.sqlite, configuration: { $0.web = WebAppLocation(folder: Self.web, vendorFolder: vendor) }) { server in
            let index = try String(contentsOf: Self.web.appendingPathComponent("index.html"), encoding: .utf8)
            for page in ["/", "/account"] {
                let response = try await server.send(.GET, page)
                #expect(response.status == .ok, "\(page)")
                #expect(response.text == index, "\(page) is the shell")
                #expect(response.headers.first(name: .contentType) == "text/html; charset=utf-8")
                #expect(response.headers.first(name: "Content-Security-Policy")?.contains("script-src 'self'") == true)
                #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
                #expect(response.headers.first(name: "Referrer-Policy") == "same-origin")
            }
            let script = try await server.send(.GET, "/app/main.js")
            #expect(script.status == .ok)
            #expect(script.headers.first(name: .contentType) == "text/javascript; charset=utf-8")
            #expect(script.headers.first(name: .cacheControl) == "no-cache")
            let worker = try await server.send(.GET, "/app/sw.js")
            #expect(worker.headers.first(name: "Service-Worker-Allowed") == "/")
            #expect(try await server.send(.GET, "/manifest.webmanifest").headers.first(name: .contentType) == "application/manifest+json")

            let library = try await server.send(.GET, "/vendor/leaflet/leaflet.esm.js")
            #expect(library.status == .ok)
            #expect(library.text == "export const L = 1;\n")
            #expect(library.headers.first(name: .contentType) == "text/javascript; charset=utf-8")

            // Nothing outside the folders, nothing hidden, no scripts or notes that sit beside the app.
            for path in ["/app/../../Package.swift", "/%2e%2e/Package.swift", "/app/%2e%2e/%2e%2e/README.md", "/vendor/../index.html",
                         "/.git/config", "/icons/README.md", "/icons/make-icons.py", "/nowhere", "/account/extra"] {
                let refused = try await server.send(.GET, path)
                #expect(refused.status == .notFound, "\(path) answered \(refused.status)")
                #expect(try refused.apiError().error == "not_found")
            }
            // The API is unchanged beside it.
            #expect(try await server.send(.GET, "/api/v1/me").status == .unauthorized)
            #expect(try await server.send(.POST, "/account").status == .notFound, "pages are GET only")
        }
    }

    @Test("A folder without the app is refused at start with what to do")
    func missingApp() async throws {
        let empty = makeTemporaryDirectory()
        #expect(throws: WebAppError.self) {
            _ = try WebAppMiddleware(location: WebAppLocation(folder: empty))
        }
    }
}
