import Foundation
import NIOCore
import Vapor

/// Where the web app's files are (DESIGN §3.8).
public struct WebAppLocation: Sendable {
    /// The repository's `Web/` folder, or another holding the same layout.
    public var folder: URL
    /// Where the system keeps browser libraries, served under `/vendor/`: a path is looked up in
    /// each folder in turn and the first that has the file serves it.
    public var vendorFolders: [URL]

    /// Debian's folders of browser libraries: `/usr/share/javascript` (libjs-* packages, e.g.
    /// Leaflet), then `/usr/share/nodejs` (node-* packages, e.g. node-tweetnacl, which installs
    /// nothing under /usr/share/javascript).
    public static let defaultVendorFolders = [URL(fileURLWithPath: "/usr/share/javascript"), URL(fileURLWithPath: "/usr/share/nodejs")]

    public init(folder: URL, vendorFolders: [URL] = WebAppLocation.defaultVendorFolders) {
        self.folder = folder
        self.vendorFolders = vendorFolders
    }

    /// A location whose `/vendor/` is this one folder.
    public init(folder: URL, vendorFolder: URL) {
        self.init(folder: folder, vendorFolders: [vendorFolder])
    }
}

/// A page URL of the web app: a pattern from `Web/app/pages.json` such as `/photos/:id`.
struct WebPage: Decodable, Sendable {
    var path: String

    /// Whether a request path is this page.
    func matches(_ requestPath: String) -> Bool {
        let pattern = path.split(separator: "/", omittingEmptySubsequences: true)
        let parts = requestPath.split(separator: "/", omittingEmptySubsequences: true)
        guard pattern.count == parts.count else { return false }
        return zip(pattern, parts).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
    }
}

/// Serves the web app (DESIGN §3.8): the files of `Web/` at their paths, the system's browser
/// libraries under `/vendor/` (from the first of its folders that has the file), and the shell (`index.html`) at every page URL that
/// `Web/app/pages.json` lists — the same file the browser's router reads, so the pages are
/// listed once. GET and HEAD only; everything else goes on to the API's routes.
///
/// Files are streamed by Vapor's `FileIO` (ETag, `Range`, `If-None-Match`) and revalidated on
/// every load (`Cache-Control: no-cache`), because the service worker, not the HTTP cache,
/// keeps the shell for offline use. A path with a `..`, empty or hidden segment is not served
/// (Debian's library folders hold links into `/usr/share/nodejs`, which are followed).
struct WebAppMiddleware: AsyncMiddleware {
    let location: WebAppLocation
    let pages: [WebPage]

    /// Reads the page list of `location`.
    /// - Throws: ``WebAppError`` when `index.html` or `app/pages.json` is missing or unreadable.
    init(location: WebAppLocation) throws {
        self.location = location
        let index = location.folder.appendingPathComponent("index.html")
        guard FileManager.default.fileExists(atPath: index.path) else {
            throw WebAppError(message: "\(location.folder.path) holds no index.html; point --web at the repository's Web folder")
        }
        let list = location.folder.appendingPathComponent("app/pages.json")
        do {
            pages = try JSONDecoder().decode([WebPage].self, from: Data(contentsOf: list))
        } catch {
            throw WebAppError(message: "\(list.path) is not a JSON list of {\"path\": …} pages: \(error.localizedDescription)")
        }
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.method == .GET || request.method == .HEAD else { return try await next.respond(to: request) }
        let path = request.url.path
        if path.hasPrefix("/api/") { return try await next.respond(to: request) }
        if path.hasPrefix("/vendor/") {
            // Only the libraries the app loads, not everything the system's folders hold (#34:
            // all of /usr/share/nodejs was served).
            let relative = String(path.dropFirst("/vendor/".count))
            guard Self.isVendorLibrary(relative), let file = Self.vendorFile(relative, in: location.vendorFolders) else {
                return try await next.respond(to: request)
            }
            return try await serve(file, request: request, cacheControl: "public, max-age=86400")
        }
        if let file = Self.file(String(path.dropFirst()), in: location.folder) {
            let response = try await serve(file, request: request, cacheControl: "no-cache")
            if path == "/app/sw.js" {
                response.headers.replaceOrAdd(name: "Service-Worker-Allowed", value: "/")
            }
            return response
        }
        if pages.contains(where: { $0.matches(path) }) {
            return try await serve(location.folder.appendingPathComponent("index.html"), request: request, cacheControl: "no-cache")
        }
        return try await next.respond(to: request)
    }

    private func serve(_ file: URL, request: Request, cacheControl: String) async throws -> Response {
        let response = try await request.fileio.asyncStreamFile(at: file.path)
        response.headers.replaceOrAdd(name: .cacheControl, value: cacheControl)
        if let type = Self.contentTypes[file.pathExtension.lowercased()] {
            response.headers.replaceOrAdd(name: .contentType, value: type)
        }
        return response
    }

    /// The browser libraries the app loads from `/vendor/` (`VENDOR_FILES` in `Web/app/shell.js`,
    /// which a test compares with this list), and the images Leaflet's style sheet names.
    static let vendorLibraries: Set<String> = [
        "qrcode-generator/qrcode.js", "leaflet/leaflet.esm.js", "leaflet/leaflet.css", "tweetnacl/nacl-fast.js",
    ]
    static let vendorImageFolder = "leaflet/images/"

    /// Whether `/vendor/` + `relative` is one of the app's libraries.
    static func isVendorLibrary(_ relative: String) -> Bool {
        guard let decoded = relative.removingPercentEncoding else { return false }
        if vendorLibraries.contains(decoded) { return true }
        let image = decoded.dropFirst(vendorImageFolder.count)
        return decoded.hasPrefix(vendorImageFolder) && image.hasSuffix(".png") && !image.contains("/")
    }

    /// The file at `relative` in the first of `folders` that has it, with ``file(_:in:)``'s rules in each.
    static func vendorFile(_ relative: String, in folders: [URL]) -> URL? {
        for folder in folders {
            if let file = file(relative, in: folder) { return file }
        }
        return nil
    }

    /// The regular file at `relative` inside `folder`, or `nil` when there is none or the path
    /// has an empty, `..` or hidden segment, or is not of a type a browser loads (a README or a
    /// script beside the app's files is not served).
    static func file(_ relative: String, in folder: URL) -> URL? {
        guard let decoded = relative.removingPercentEncoding, !decoded.isEmpty else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\\") && !$0.contains("\0") }) else { return nil }
        let root = folder.standardizedFileURL
        let candidate = root.appendingPathComponent(decoded).standardizedFileURL
        guard candidate.path.hasPrefix(root.path + "/") else { return nil }
        guard contentTypes[candidate.pathExtension.lowercased()] != nil else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return candidate
    }

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json; charset=utf-8", "webmanifest": "application/manifest+json",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "woff2": "font/woff2", "map": "application/json",
    ]
}

/// The web app's folder is not usable.
public struct WebAppError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
