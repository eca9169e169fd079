import Vapor

/// The methods each path of the API serves, so that a known path asked with another method
/// answers 405 with an `Allow` header instead of 404 (which would say the path does not exist).
enum ServedMethods {
    /// The methods served at `path`, or nil when the API has no such path.
    static func allowed(at path: String) -> [String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        switch parts.count {
        case 1 where parts[0] == "healthz" || parts[0] == "openapi.yaml": return ["GET"]
        case 1 where parts[0] == "route": return ["POST"]
        case 3 where parts[0] == "api" && parts[1] == "v1" && parts[2] == "routes": return ["GET", "POST"]
        case 4 where parts[0] == "api" && parts[1] == "v1" && parts[2] == "routes": return ["GET", "DELETE"]
        default: return nil
        }
    }
}
