import Foundation
import WaymarkAPI

/// What can happen to a task.
enum TaskEvent: Sendable, Equatable {
    /// Its assignee opens it.
    case open
    /// Its assignee sends it (note and photos) to the agency.
    case send
    /// An officer sends it back, with a reason.
    case giveBack
    /// Its assignee changes it: the note, a photo added or deleted. Never a change of status.
    case edit
}

/// A change the status rules refuse, with the reason told to the user (answered as 409).
struct TaskRefusal: Error, Sendable, Equatable {
    var code: APIErrorCode
    var reason: String
}

/// The status rules of DESIGN §3.10, in one place: which event leads from which status to
/// which, and when a task may be changed. The stores and the controller ask it; nothing else
/// decides a status.
enum TaskStateMachine {
    /// The statuses in which its assignee may change a task.
    static let editable: [TaskStatus] = [.new, .open, .returned]

    /// The status `event` leads to from `status`; `nil` when it changes nothing (opening a task
    /// that is no longer new, or an edit, which never changes the status).
    /// - Throws: ``TaskRefusal`` when the event is not allowed in `status`.
    static func apply(_ event: TaskEvent, to status: TaskStatus) throws(TaskRefusal) -> TaskStatus? {
        switch (event, status) {
        case (.open, .new):
            return .open
        case (.open, _):
            return nil
        case (.send, .new), (.send, .open), (.send, .returned):
            return .dataProvided
        case (.send, .dataProvided):
            throw TaskRefusal(code: .taskAlreadySent,
                              reason: "This task was already sent (status data_provided); it can be sent again only after an officer returns it.")
        case (.giveBack, .dataProvided):
            return .returned
        case (.giveBack, .returned):
            throw TaskRefusal(code: .taskNotSent,
                              reason: "This task was already returned (status returned) and its user has not sent it again yet.")
        case (.giveBack, _):
            throw TaskRefusal(code: .taskNotSent,
                              reason: "Only a sent task (status data_provided) can be returned; this one is \(status.rawValue), its user has not sent it yet.")
        case (.edit, .dataProvided):
            throw TaskRefusal(code: .taskNotEditable,
                              reason: "This task was sent (status data_provided): its note and photos cannot change until an officer returns it.")
        case (.edit, _):
            return nil
        }
    }

    /// The statuses from which `event` changes something.
    static func sources(of event: TaskEvent) -> [TaskStatus] {
        TaskStatus.allCases.filter { status in ((try? apply(event, to: status)) ?? nil) != nil }
    }
}

/// A task's due date as the API takes it: an ISO 8601 date (`2026-07-01`, kept as it is) or a
/// date-time with its zone (kept in UTC, `2026-07-01T09:30:00Z`).
enum TaskDueDate {
    static let years = 1970...9999

    /// The normalized text, or `nil` when `text` is neither.
    static func normalized(_ text: String) -> String? {
        let value = text.trimmingCharacters(in: .whitespaces)
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        if let match = value.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})/) {
            guard let year = Int(match.1), let month = Int(match.2), let day = Int(match.3), years.contains(year),
                  DateComponents(calendar: calendar, year: year, month: month, day: day).isValidDate(in: calendar)
            else { return nil }
            return value
        }
        // RFC 3339: a date, T, a time with optional fractions, and Z or an offset.
        guard value.wholeMatch(of: /\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})/) != nil else { return nil }
        // A due date needs no fractions of a second (and Foundation reads at most three).
        let whole = value.uppercased().replacing(/\.\d{1,9}/, with: "")
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        guard let date = plain.date(from: whole) else { return nil }
        let year = calendar.component(.year, from: date)
        guard years.contains(year) else { return nil }
        let output = ISO8601DateFormatter()
        output.formatOptions = [.withInternetDateTime]
        output.timeZone = utc
        return output.string(from: date)
    }
}
