import Foundation
import WaymarkCore

/// What one run of the upload queue did, and what is left.
public struct UploadReport: Sendable, Equatable {
    /// A route the route service now holds.
    public struct Stored: Sendable, Hashable {
        /// The local id.
        public var route: Int64
        /// The id the route service gave.
        public var serverRouteID: String

        public init(route: Int64, serverRouteID: String) {
            self.route = route
            self.serverRouteID = serverRouteID
        }
    }

    /// Why a run stopped before it had tried everything that was due.
    public enum Stop: Sendable, Equatable, CustomStringConvertible {
        /// No connection, or not the kind the settings allow; nothing was sent.
        case waitingForNetwork(String)
        /// The server refused the consumer key or signature (401/403); every route stays queued.
        case refused(String)
        /// The local store could not be read or written; the routes are as they were.
        case storeFailed(String)
        /// The task was cancelled.
        case cancelled

        public var description: String {
            switch self {
            case let .waitingForNetwork(reason):
                return "Nothing was sent: \(reason)."
            case let .refused(reason):
                return "Stopped: \(reason) Every route stays queued; fix the key, then upload again."
            case let .storeFailed(reason):
                return "Stopped: \(reason)"
            case .cancelled:
                return "Stopped before the end; the routes not sent stay queued."
            }
        }
    }

    /// The routes stored by this run, in the order they were stored.
    public var stored: [Stored] = []
    /// Remote deletes done by this run (the route is gone from the service, or was never there).
    public var deletesDone: Int = 0
    /// Routes still waiting for their upload after the run.
    public var stillQueued: Int = 0
    /// Remote deletes still to do after the run.
    public var pendingDeletes: Int = 0
    /// The last error of the run, or the newest one recorded on a queued route.
    public var lastError: String?
    /// When the earliest retry is due (nil when nothing waits).
    public var nextAttempt: Date?
    /// Why the run stopped early, if it did.
    public var stopped: Stop?

    public init() {}

    /// The in-app notification for this run's successes ("3 routes stored"), or nil.
    public var announcement: String? { UploadAnnouncement.text(stored: stored.count) }

    /// One or two lines for the user.
    public var summary: String {
        var parts: [String] = []
        parts.append(announcement ?? "No route stored")
        if deletesDone > 0 { parts.append("\(deletesDone) remote delete\(deletesDone == 1 ? "" : "s") done") }
        if stillQueued > 0 { parts.append("\(stillQueued) route\(stillQueued == 1 ? "" : "s") still queued") }
        if pendingDeletes > 0 { parts.append("\(pendingDeletes) remote delete\(pendingDeletes == 1 ? "" : "s") still to do") }
        var text = parts.joined(separator: ", ") + "."
        if let stopped { text += "\n" + stopped.description }
        else if stillQueued > 0, let lastError { text += "\nLast error: \(lastError)" }
        return text
    }

    /// Adds a later run's results: its successes to these, its view of the queue in place of this one's.
    mutating func add(_ later: UploadReport) {
        stored += later.stored
        deletesDone += later.deletesDone
        stillQueued = later.stillQueued
        pendingDeletes = later.pendingDeletes
        lastError = later.lastError ?? lastError
        nextAttempt = later.nextAttempt
        stopped = later.stopped
    }
}
