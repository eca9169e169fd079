import Foundation
import WaymarkCore

/// Why the recorder's local store failed, with what to do about it.
public enum RecordingStoreError: Error, Equatable, CustomStringConvertible {
    /// The store file could not be opened or set up.
    case cannotOpen(path: String, reason: String)
    /// The file was written by a newer Waymark, whose changes this version does not know.
    case newerVersion(path: String)
    /// A read or write failed after the file was opened (disk full, file removed, I/O error).
    case failed(path: String, operation: String, reason: String)
    /// No route has this local id.
    case noSuchRoute(Int64)
    /// The route is not in the state the operation needs.
    case wrongState(route: Int64, state: RouteState, operation: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "Cannot open the recorder's store at \(path): \(reason). Check that its folder exists and is writable, and that the file is a Waymark store; or set WAYMARK_HOME to another folder."
        case let .newerVersion(path):
            return "The recorder's store at \(path) was written by a newer version of Waymark. Update Waymark to use it (this version leaves it untouched)."
        case let .failed(path, operation, reason):
            return "The recorder's store at \(path) could not \(operation): \(reason). Check free disk space and that the file is still there and writable; nothing was half-written."
        case let .noSuchRoute(id):
            return "There is no route \(id) in the recorder's store: it was deleted, or never recorded here."
        case let .wrongState(id, state, operation):
            return "Route \(id) is \(state.rawValue), so it cannot \(operation)."
        }
    }
}
