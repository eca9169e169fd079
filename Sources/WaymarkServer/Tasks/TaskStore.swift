import Fluent
import Foundation
import SQLKit
import WaymarkAPI
import WaymarkCore

/// A task as the store hands it out, with the names of its people and how many photos it has.
struct TaskRecord: Sendable, Equatable {
    var id: UUID
    var name: String
    var instructions: String
    /// As ``TaskDueDate/normalized(_:)`` wrote it.
    var dueDate: String
    var note: String
    var status: TaskStatus
    var returnReason: String?
    var assignee: TaskPerson
    var createdBy: TaskPerson
    var createdAt: Date
    var updatedAt: Date
    var sentAt: Date?
    var photoCount: Int
}

/// A task to be stored.
struct NewTask: Sendable {
    var assigneeID: UUID
    var createdBy: UUID
    var name: String
    var instructions: String
    var dueDate: String
    /// The officer's Idempotency-Key: a resent request under it answers the task made the first time.
    var idempotencyKey: String? = nil
}

/// A photo of a task, and whether the task was sent with it.
struct TaskPhotoLink: Sendable, Equatable {
    var photoID: UUID
    var sent: Bool
}

/// One change of a task's status.
struct TaskHistoryEntry: Sendable, Equatable {
    var from: TaskStatus?
    var to: TaskStatus
    var actor: TaskPerson
    var at: Date
    var reason: String?
}

/// What became of a change asked of a task.
enum TaskChange: Sendable, Equatable {
    case changed(from: TaskStatus, to: TaskStatus)
    /// Allowed, but nothing to change (opening a task that is open already).
    case unchanged(TaskStatus)
    case notFound
}

/// What became of linking or unlinking a photo.
enum TaskPhotoChange: Sendable, Equatable {
    case done
    case notFound
    /// The photo belongs to another task.
    case elsewhere
    /// The task was sent with the photo: it stays.
    case sent
}

/// Where tasks, their photos and their history are kept (``SQLTaskStore`` on the server's
/// database; tests swap it through ``ServerStores``).
protocol TaskStore: Sendable {
    /// Stores a new task (status `new`) and its creation in the history; returns its id.
    func create(_ task: NewTask) async throws -> UUID
    /// The task an officer made under an Idempotency-Key, if any.
    func task(createdBy officer: UUID, idempotencyKey: String) async throws -> TaskRecord?
    func task(id: UUID) async throws -> TaskRecord?
    /// The tasks of one assignee, or of all (`nil`), of one status or all, newest first.
    func tasks(assignee: UUID?, status: TaskStatus?) async throws -> [TaskRecord]
    /// The task's photos, oldest first.
    func photos(of task: UUID) async throws -> [TaskPhotoLink]
    /// The task whose photo this is, and whether it was sent with it.
    func link(photo: UUID) async throws -> (task: UUID, sent: Bool)?
    /// Applies `event` to the task as ``TaskStateMachine`` rules, recording the change.
    /// - Throws: ``TaskRefusal`` when the rules refuse it in the task's status.
    func apply(_ event: TaskEvent, task id: UUID, actor: UUID, reason: String?) async throws -> TaskChange
    /// Sets the task's note while it is editable; false when it is not (or not there).
    func setNote(_ note: String, task id: UUID) async throws -> Bool
    func add(photo: UUID, to id: UUID) async throws -> TaskPhotoChange
    func remove(photo: UUID, from id: UUID) async throws -> TaskPhotoChange
    /// The task's changes of status, oldest first.
    func history(of task: UUID) async throws -> [TaskHistoryEntry]
    /// Whether a task was sent with this photo (``PhotoClaims/Evidence``), asked on `sql`, the
    /// connection of the photo area's transaction; `lock` locks the row that says so.
    func isSent(photoID: UUID, on sql: any SQLDatabase, lock: Bool) async throws -> Bool
    /// Whether a photo belongs to a task (officers and admins may see it, private or not).
    func isTaskPhoto(photoID: UUID, on sql: any SQLDatabase) async throws -> Bool
}

extension TaskStore {
    func apply(_ event: TaskEvent, task id: UUID, actor: UUID) async throws -> TaskChange {
        try await apply(event, task: id, actor: actor, reason: nil)
    }
}

/// Tasks on the server's database (SQLite or PostgreSQL), through SQLKit.
///
/// Every change of status is a compare-and-set in one transaction: the row is updated only
/// `WHERE status =` the status the rules were applied to, so two requests at once (two sends)
/// make one change, and the loser sees the status the winner left. The history entry and the
/// photos' `sent` marks go in the same transaction. An edit (note, photo) likewise updates the
/// row only while it is editable, which holds its lock until the edit commits.
struct SQLTaskStore: TaskStore {
    let database: ServerDatabase
    let clock: WallClock

    private func sql() throws -> any SQLDatabase {
        guard let sql = try database.db as? any SQLDatabase else { throw PhotoStoreError.notSQL }
        return sql
    }

    private static func sql(_ database: any Database) throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw PhotoStoreError.notSQL }
        return sql
    }

    /// Stores a new task (status `new`) and its creation in the history; returns its id.
    func create(_ task: NewTask) async throws -> UUID {
        let id = UUID()
        let now = clock.now().timeIntervalSince1970
        try await database.transaction { connection in
            let sql = try Self.sql(connection)
            try await sql.insert(into: CreateTasks.tasks)
                .columns("id", "assignee_id", "created_by", "name", "instructions", "due_date", "note", "status", "created_at", "updated_at",
                         "idempotency_key")
                .values(SQLBind(id), SQLBind(task.assigneeID), SQLBind(task.createdBy), SQLBind(task.name), SQLBind(task.instructions),
                        SQLBind(task.dueDate), SQLBind(""), SQLBind(TaskStatus.new.rawValue), SQLBind(now), SQLBind(now),
                        task.idempotencyKey.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null)
                .run()
            try await Self.record(task: id, from: nil, to: .new, actor: task.createdBy, at: now, reason: nil, on: sql)
        }
        return id
    }

    private static let selected: SQLQueryString = """
        SELECT t.id, t.name, t.instructions, t.due_date, t.note, t.status, t.return_reason, t.created_at, t.updated_at, t.sent_at, \
        a.id AS assignee_id, a.username AS assignee_username, a.display_name AS assignee_display_name, \
        c.id AS creator_id, c.username AS creator_username, c.display_name AS creator_display_name, \
        (SELECT COUNT(*) FROM task_photos tp WHERE tp.task_id = t.id) AS photo_count \
        FROM tasks t JOIN users a ON a.id = t.assignee_id JOIN users c ON c.id = t.created_by
        """

    /// The task an officer made under an Idempotency-Key, if any.
    func task(createdBy officer: UUID, idempotencyKey: String) async throws -> TaskRecord? {
        try await sql().raw(Self.selected + " WHERE t.created_by = \(bind: officer) AND t.idempotency_key = \(bind: idempotencyKey)")
            .first().map(Self.record(from:))
    }

    func task(id: UUID) async throws -> TaskRecord? {
        try await sql().raw(Self.selected + " WHERE t.id = \(bind: id)").first().map(Self.record(from:))
    }

    /// The tasks of one assignee, or of all (`nil`), of one status or all, newest first.
    func tasks(assignee: UUID?, status: TaskStatus?) async throws -> [TaskRecord] {
        var query = Self.selected + " WHERE 1 = 1"
        if let assignee { query += " AND t.assignee_id = \(bind: assignee)" }
        if let status { query += " AND t.status = \(bind: status.rawValue)" }
        query += " ORDER BY t.created_at DESC, t.id"
        return try await sql().raw(query).all().map(Self.record(from:))
    }

    /// The task's photos, oldest first.
    func photos(of task: UUID) async throws -> [TaskPhotoLink] {
        try await sql().raw("""
            SELECT photo_id, sent FROM \(ident: CreateTasks.photos) WHERE task_id = \(bind: task) ORDER BY added_at, photo_id
            """).all().map { TaskPhotoLink(photoID: try $0.decode(column: "photo_id", as: UUID.self), sent: try $0.decode(column: "sent", as: Bool.self)) }
    }

    /// The task whose photo this is, and whether it was sent with it.
    func link(photo: UUID) async throws -> (task: UUID, sent: Bool)? {
        guard let row = try await sql().raw("SELECT task_id, sent FROM \(ident: CreateTasks.photos) WHERE photo_id = \(bind: photo)").first() else {
            return nil
        }
        return (try row.decode(column: "task_id", as: UUID.self), try row.decode(column: "sent", as: Bool.self))
    }

    /// Applies `event` to the task as ``TaskStateMachine`` rules, recording the change.
    /// - Throws: ``TaskRefusal`` when the rules refuse it in the task's status.
    func apply(_ event: TaskEvent, task id: UUID, actor: UUID, reason: String?) async throws -> TaskChange {
        let now = clock.now().timeIntervalSince1970
        return try await database.transaction { connection in
            let sql = try Self.sql(connection)
            // A compare-and-set: when another request changed the status in between, read it again.
            for _ in 0..<8 {
                guard let current = try await Self.status(of: id, on: sql) else { return .notFound }
                guard let next = try TaskStateMachine.apply(event, to: current) else { return .unchanged(current) }
                var update: SQLQueryString = "UPDATE \(ident: CreateTasks.tasks) SET status = \(bind: next.rawValue), updated_at = \(bind: now)"
                if event == .send { update += ", sent_at = \(bind: now)" }
                if event == .giveBack { update += ", return_reason = \(bind: reason)" }
                update += " WHERE id = \(bind: id) AND status = \(bind: current.rawValue) RETURNING id"
                guard try await !sql.raw(update).all().isEmpty else { continue }
                try await Self.record(task: id, from: current, to: next, actor: actor, at: now, reason: event == .giveBack ? reason : nil, on: sql)
                if event == .send {
                    try await sql.raw("UPDATE \(ident: CreateTasks.photos) SET sent = \(bind: true) WHERE task_id = \(bind: id)").run()
                }
                return .changed(from: current, to: next)
            }
            throw TaskRefusal(code: .taskBusy, reason: "This task is being changed by another request right now; try again.")
        }
    }

    /// Sets the note while the task is editable.
    /// - Throws: ``TaskRefusal`` when it is not.
    func setNote(_ note: String, task id: UUID) async throws -> Bool {
        let now = clock.now().timeIntervalSince1970
        return try await database.transaction { connection in
            let sql = try Self.sql(connection)
            guard try await Self.holdEditable(id, now: now, set: "note = \(bind: note), ", on: sql) else { return false }
            return true
        }
    }

    /// Links a photo to the task while it is editable (a photo linked to it already is fine).
    /// - Throws: ``TaskRefusal`` when the task is not editable.
    func add(photo: UUID, to id: UUID) async throws -> TaskPhotoChange {
        let now = clock.now().timeIntervalSince1970
        return try await database.transaction { connection in
            let sql = try Self.sql(connection)
            guard try await Self.holdEditable(id, now: now, on: sql) else { return .notFound }
            if let row = try await sql.raw("SELECT task_id FROM \(ident: CreateTasks.photos) WHERE photo_id = \(bind: photo)").first() {
                return try row.decode(column: "task_id", as: UUID.self) == id ? .done : .elsewhere
            }
            try await sql.insert(into: CreateTasks.photos).columns("photo_id", "task_id", "added_at", "sent")
                .values(SQLBind(photo), SQLBind(id), SQLBind(now), SQLBind(false)).run()
            return .done
        }
    }

    /// Unlinks a photo the task was not sent with, while the task is editable; the caller then
    /// deletes the photo itself.
    /// - Throws: ``TaskRefusal`` when the task is not editable.
    func remove(photo: UUID, from id: UUID) async throws -> TaskPhotoChange {
        let now = clock.now().timeIntervalSince1970
        return try await database.transaction { connection in
            let sql = try Self.sql(connection)
            guard let status = try await Self.status(of: id, on: sql) else { return .notFound }
            guard let row = try await sql.raw("""
                SELECT sent FROM \(ident: CreateTasks.photos) WHERE photo_id = \(bind: photo) AND task_id = \(bind: id)
                """).first() else { return .notFound }
            // A sent photo stays, whatever the task's status.
            if try row.decode(column: "sent", as: Bool.self) { return .sent }
            _ = try TaskStateMachine.apply(.edit, to: status)
            guard try await Self.holdEditable(id, now: now, on: sql) else { return .notFound }
            let removed = try await sql.raw("""
                DELETE FROM \(ident: CreateTasks.photos) WHERE photo_id = \(bind: photo) AND task_id = \(bind: id) AND sent = \(bind: false) RETURNING photo_id
                """).all()
            return removed.isEmpty ? .sent : .done
        }
    }

    /// Every change of the task's status, oldest first.
    func history(of task: UUID) async throws -> [TaskHistoryEntry] {
        try await sql().raw("""
            SELECT h.from_status, h.to_status, h.at, h.reason, u.id AS actor_id, u.username, u.display_name \
            FROM \(ident: CreateTasks.history) h JOIN users u ON u.id = h.actor_id \
            WHERE h.task_id = \(bind: task) ORDER BY h.seq
            """).all().map { row in
            let from = try row.decode(column: "from_status", as: String?.self)
            return TaskHistoryEntry(
                from: from.flatMap(TaskStatus.init(rawValue:)),
                to: TaskStatus(rawValue: try row.decode(column: "to_status", as: String.self)) ?? .new,
                actor: TaskPerson(id: try row.decode(column: "actor_id", as: UUID.self), username: try row.decode(column: "username", as: String.self),
                                  displayName: try row.decode(column: "display_name", as: String.self)),
                at: Date(timeIntervalSince1970: try row.decode(column: "at", as: Double.self)),
                reason: try row.decode(column: "reason", as: String?.self))
        }
    }

    /// Whether a task was sent with this photo, so that it is evidence and may never be changed
    /// or deleted (``PhotoClaims/Evidence``). Without `sent = true` in the condition: with `lock`,
    /// PostgreSQL must lock the link row as it is, so a send updating it now is waited for and
    /// its result read.
    func isSent(photoID: UUID, on sql: any SQLDatabase, lock: Bool) async throws -> Bool {
        let forUpdate: SQLQueryString = lock ? " FOR UPDATE" : ""
        let link = try await sql.raw("SELECT sent FROM \(ident: CreateTasks.photos) WHERE photo_id = \(bind: photoID)" + forUpdate).first()
        return try link?.decode(column: "sent", as: Bool.self) ?? false
    }

    /// Whether a photo belongs to a task (officers and admins may see it, private or not).
    func isTaskPhoto(photoID: UUID, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT photo_id FROM \(ident: CreateTasks.photos) WHERE photo_id = \(bind: photoID)").first() != nil
    }

    // MARK: - Inside a transaction

    private static func status(of id: UUID, on sql: any SQLDatabase) async throws -> TaskStatus? {
        guard let row = try await sql.raw("SELECT status FROM \(ident: CreateTasks.tasks) WHERE id = \(bind: id)").first() else { return nil }
        return TaskStatus(rawValue: try row.decode(column: "status", as: String.self))
    }

    /// Touches the task (and sets `set`, e.g. the note) only while it is editable, which holds
    /// its row until the transaction ends, so that a send waits for the edit. `false`: no such
    /// task. - Throws: ``TaskRefusal`` when it is not editable.
    private static func holdEditable(_ id: UUID, now: Double, set: SQLQueryString = "", on sql: any SQLDatabase) async throws -> Bool {
        let editable = TaskStateMachine.editable.map { $0.rawValue as any Encodable & Sendable }
        let touched = try await sql.raw("""
            UPDATE \(ident: CreateTasks.tasks) SET \(set)updated_at = \(bind: now) \
            WHERE id = \(bind: id) AND status IN (\(binds: editable)) RETURNING id
            """).all()
        if !touched.isEmpty { return true }
        guard let status = try await status(of: id, on: sql) else { return false }
        _ = try TaskStateMachine.apply(.edit, to: status)
        // Editable after all: it changed in between; the caller's request is answered as busy.
        throw TaskRefusal(code: .taskBusy, reason: "This task is being changed by another request right now; try again.")
    }

    private static func record(task: UUID, from: TaskStatus?, to: TaskStatus, actor: UUID, at: Double, reason: String?,
                               on sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO \(ident: CreateTasks.history) (id, task_id, seq, from_status, to_status, actor_id, at, reason) \
            SELECT \(bind: UUID()), \(bind: task), COALESCE(MAX(seq), 0) + 1, \(bind: from?.rawValue), \(bind: to.rawValue), \
            \(bind: actor), \(bind: at), \(bind: reason) FROM \(ident: CreateTasks.history) WHERE task_id = \(bind: task)
            """).run()
    }

    private static func record(from row: any SQLRow) throws -> TaskRecord {
        TaskRecord(
            id: try row.decode(column: "id", as: UUID.self),
            name: try row.decode(column: "name", as: String.self),
            instructions: try row.decode(column: "instructions", as: String.self),
            dueDate: try row.decode(column: "due_date", as: String.self),
            note: try row.decode(column: "note", as: String.self),
            status: TaskStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .new,
            returnReason: try row.decode(column: "return_reason", as: String?.self),
            assignee: TaskPerson(id: try row.decode(column: "assignee_id", as: UUID.self),
                                 username: try row.decode(column: "assignee_username", as: String.self),
                                 displayName: try row.decode(column: "assignee_display_name", as: String.self)),
            createdBy: TaskPerson(id: try row.decode(column: "creator_id", as: UUID.self),
                                  username: try row.decode(column: "creator_username", as: String.self),
                                  displayName: try row.decode(column: "creator_display_name", as: String.self)),
            createdAt: Date(timeIntervalSince1970: try row.decode(column: "created_at", as: Double.self)),
            updatedAt: Date(timeIntervalSince1970: try row.decode(column: "updated_at", as: Double.self)),
            sentAt: try row.decode(column: "sent_at", as: Double?.self).map(Date.init(timeIntervalSince1970:)),
            photoCount: Int(try row.decode(column: "photo_count", as: Int64.self))
        )
    }
}
