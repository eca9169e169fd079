import Foundation
import Testing
import Vapor
import VaporTesting
@testable import WaymarkServer

/// What `waymark serve` gives the `/vault` page (DESIGN §3.11): the vaults it may talk to, in the
/// Content-Security-Policy and in `/api/v1/config`, and the browser's NaCl from the system's folders.
@Suite("The server and the personal data vaults: --vault-url, the CSP, /api/v1/config, /vendor/")
struct VaultServeTests {
    /// The `name value…` directive of a Content-Security-Policy.
    static func directive(_ name: String, in policy: String?) -> String? {
        policy?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix(name + " ") }
    }

    @Test("By default the vault is https://data-vault.eu: the page may call it and frame its pages (and other https pages)")
    func defaultVault() async throws {
        try await withServer(.sqlite) { server in
            for path in ["/healthz", "/api/v1/config", "/nowhere"] {
                let answer = try await server.send(.GET, path)
                let policy = answer.headers.first(name: "Content-Security-Policy")
                #expect(Self.directive("connect-src", in: policy) == "connect-src 'self' https://data-vault.eu", "\(path)")
                #expect(Self.directive("frame-src", in: policy) == "frame-src 'self' https: https://data-vault.eu", "\(path)")
                // The rest stays as strict as before.
                #expect(Self.directive("script-src", in: policy) == "script-src 'self'")
                #expect(Self.directive("frame-ancestors", in: policy) == "frame-ancestors 'none'")
                #expect(Self.directive("img-src", in: policy) == "img-src 'self' data: blob: https://tile.openstreetmap.org")
            }
            let config = try await server.send(.GET, "/api/v1/config")
            #expect(config.status == .ok)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(config.body.readableBytesView)) as? [String: Any])
            #expect(json["vaults"] as? [String] == ["https://data-vault.eu"])
            #expect(json["tiles"] != nil, "the maps' settings are still there")
        }
    }

    @Test("--vault-url given: each vault's origin (scheme, host, port) in connect-src and frame-src, the URLs as given in /api/v1/config")
    func givenVaults() async throws {
        let vaults = try ["http://127.0.0.1:9999/", "https://Vault.Example.org:8443/pia/", "https://vault.example.org:8443/other"].map(ServiceURL.init)
        try await withServer(.sqlite, configuration: { $0.vaults = vaults }) { server in
            let answer = try await server.send(.GET, "/api/v1/config")
            let policy = answer.headers.first(name: "Content-Security-Policy")
            #expect(Self.directive("connect-src", in: policy) == "connect-src 'self' http://127.0.0.1:9999 https://vault.example.org:8443")
            #expect(Self.directive("frame-src", in: policy) == "frame-src 'self' https: http://127.0.0.1:9999 https://vault.example.org:8443")
            #expect(policy?.contains("data-vault.eu") == false, "the default is replaced, not added to")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [String: Any])
            #expect(json["vaults"] as? [String] == ["http://127.0.0.1:9999", "https://Vault.Example.org:8443/pia", "https://vault.example.org:8443/other"])
        }
    }

    @Test("A vault URL that is not an absolute http(s) URL is refused, nothing of it reaches the CSP",
          arguments: ["ftp://data-vault.eu", "data-vault.eu", "https://", "", "javascript:alert(1)", "file:///etc/passwd",
                      "https://user:secret@data-vault.eu", "https://data-vault.eu/?next=1", "https://data-vault.eu/#top",
                      "https://data-vault.eu; script-src *", "https://data vault.eu", "https://*.eu", "wss://data-vault.eu"])
    func refused(url: String) {
        #expect(throws: ServiceURL.Problem.notHTTP(url)) { try ServiceURL(url) }
    }

    @Test("An accepted vault URL keeps its path, loses its trailing slashes, and names its origin in lower case")
    func accepted() throws {
        let vault = try ServiceURL("HTTPS://Data-Vault.EU:443//")
        #expect(vault.url == "HTTPS://Data-Vault.EU:443")
        #expect(vault.origin == "https://data-vault.eu:443")
        #expect(try ServiceURL("http://[::1]:3000/vault").origin == "http://[::1]:3000")
        #expect(ServiceURL.dataVaultEU.url == "https://data-vault.eu")
    }

    /// A vendor folder holding `files` (relative path → content).
    static func vendorFolder(_ name: String, _ files: [String: String]) throws -> URL {
        let folder = makeTemporaryDirectory().appendingPathComponent(name)
        for (path, content) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: file)
        }
        return folder
    }

    @Test("/vendor/ looks in its folders in order: the first that has the file serves it; a path out of any folder is refused")
    func vendorOrder() async throws {
        let first = try Self.vendorFolder("javascript", ["leaflet/leaflet.esm.js": "first\n", "leaflet/leaflet.css": "a\n",
                                                          "typescript/package.json": "{}"])
        let second = try Self.vendorFolder("nodejs", ["leaflet/leaflet.esm.js": "second\n", "tweetnacl/nacl-fast.js": "nacl\n", "tweetnacl/.hidden.js": "x"])
        let location = WebAppLocation(folder: WebAppTests.web, vendorFolders: [first, second])
        try await withServer(.sqlite, configuration: { $0.web = location }) { server in
            let both = try await server.send(.GET, "/vendor/leaflet/leaflet.esm.js")
            #expect(both.status == .ok)
            #expect(both.text == "first\n")
            #expect(try await server.send(.GET, "/vendor/leaflet/leaflet.css").text == "a\n")
            #expect(try await server.send(.GET, "/vendor/typescript/package.json").status == .notFound, "only the libraries the app loads (#34)")
            let nacl = try await server.send(.GET, "/vendor/tweetnacl/nacl-fast.js")
            #expect(nacl.status == .ok)
            #expect(nacl.text == "nacl\n", "found in the second folder")
            #expect(nacl.headers.first(name: .contentType) == "text/javascript; charset=utf-8")
            // From the first folder, a way up into the second is still refused.
            for path in ["/vendor/../nodejs/both/lib.js", "/vendor/%2e%2e/nodejs/tweetnacl/nacl-fast.js", "/vendor/tweetnacl/.hidden.js",
                         "/vendor/tweetnacl/", "/vendor/nowhere.js"] {
                let refused = try await server.send(.GET, path)
                #expect(refused.status == .notFound, "\(path) answered \(refused.status)")
            }
        }
    }

    @Test("By default /vendor/ serves Debian's node-tweetnacl from /usr/share/nodejs, as JavaScript")
    func systemTweetNaCl() async throws {
        let installed = URL(fileURLWithPath: "/usr/share/nodejs/tweetnacl/nacl-fast.js")
        let expected = try Data(contentsOf: installed)  // node-tweetnacl is a bootstrap dependency: missing fails here
        #expect(WebAppLocation(folder: WebAppTests.web).vendorFolders.map(\.path) == ["/usr/share/javascript", "/usr/share/nodejs"])
        try await withServer(.sqlite, configuration: { $0.web = WebAppLocation(folder: WebAppTests.web) }) { server in
            let nacl = try await server.send(.GET, "/vendor/tweetnacl/nacl-fast.js")
            #expect(nacl.status == .ok)
            #expect(nacl.headers.first(name: .contentType) == "text/javascript; charset=utf-8")
            #expect(Data(nacl.body.readableBytesView) == expected)
        }
    }
}
