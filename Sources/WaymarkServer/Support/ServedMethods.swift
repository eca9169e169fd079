import Vapor

/// The methods each path serves, read from the application's own route table, so that a known
/// path asked with another method answers 405 with an `Allow` header instead of 404 (which
/// would say the path does not exist). No list is kept by hand: a new route is counted at once.
enum ServedMethods {
    /// The methods served at `path` (reads before writes), or nil when no route has this path.
    static func allowed(at path: String, in routes: Routes) -> [String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // As Vapor's router walks a path: where a constant segment matches, parameters are not tried.
        var candidates = routes.all.filter { matches($0.path, parts) }
        for (index, part) in parts.enumerated() {
            let constant = candidates.filter { route in
                guard index < route.path.count, case let .constant(value) = route.path[index] else { return false }
                return value == part
            }
            if !constant.isEmpty {
                candidates = candidates.filter { route in
                    guard index < route.path.count else { return false }
                    if case .catchall = route.path[index] { return true }
                    if case let .constant(value) = route.path[index] { return value == part }
                    return false
                }
            }
        }
        let methods = Set(candidates.map(\.method.rawValue))
        guard !methods.isEmpty else { return nil }
        let order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
        return methods.sorted { (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1) }
    }

    private static func matches(_ pattern: [PathComponent], _ parts: [String]) -> Bool {
        for (index, component) in pattern.enumerated() {
            switch component {
            case .catchall:
                return index < parts.count
            case .anything, .parameter:
                guard index < parts.count else { return false }
            case let .constant(value):
                guard index < parts.count, parts[index] == value else { return false }
            }
        }
        return pattern.count == parts.count
    }
}
