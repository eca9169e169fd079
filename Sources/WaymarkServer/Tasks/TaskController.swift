import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore

/// The tasks of field inspection (DESIGN §3.10). Officers (and admins) hand tasks to users, see
/// them all and return sent ones; a user sees only their own, opens one (`new` → `open`), writes
/// a note and adds photos while it is editable, and sends it. Another user's task answers 404,
/// as one that does not exist; an officer's endpoint called by a user answers 403.
struct TaskController: Sendable {
    let tasks: any TaskStore
    let accounts: any AccountStore
    let photos: PhotoService

    static let maxNameLength = 200
    static let maxTextLength = 10_000
    static let maxReasonLength = 2_000

    func register(on routes: ContractRoutes) {
        routes.on("createTask", use: create)
        routes.on("listTasks", use: list)
        routes.on("getTask", use: find)
        routes.on("editTask", use: edit)
        routes.on("addTaskPhoto", body: .stream, use: addPhoto)
        routes.on("deleteTaskPhoto", use: removePhoto)
        routes.on("sendTask", use: send)
        routes.on("returnTask", use: giveBack)
        routes.on("taskHistory", use: history)
    }

    // MARK: - Officers

    @Sendable func create(_ request: Request) async throws -> Response {
        let officer = try Self.officer(request, doing: "hand out tasks")
        let key = try IdempotencyKey.of(request)
        // A resent request (its answer was lost) answers the task made the first time, once.
        let write = try await IdempotentWrite(key: key) { key in
            try await tasks.task(createdBy: officer.id, idempotencyKey: key).map(TaskCreated.init)
        }
        let body = try request.decodeJSON(NewTaskRequest.self)
        let name = try Self.text(body.name, field: "name", code: .invalidName, range: 1...Self.maxNameLength, lines: false)
        let instructions = try Self.text(body.instructions ?? "", field: "instructions", code: .invalidInstructions, range: 0...Self.maxTextLength, lines: true)
        guard let due = TaskDueDate.normalized(body.dueDate) else {
            throw APIError.badRequest(.invalidDueDate, "dueDate must be an ISO 8601 date (2026-07-01) or a date-time with its zone (2026-07-01T17:00:00+02:00), in the years 1970 to 9999.")
        }
        let username = AccountRules.normalizedUsername(body.assignee.trimmingCharacters(in: .whitespaces))
        guard AccountRules.isValidUsername(username) else {
            throw APIError.badRequest(.invalidAssignee, "assignee must be the username of an account (3 to 32 of a-z, 0-9, _, . and -).")
        }
        guard let assignee = try await accounts.account(username: username) else {
            throw APIError(.unprocessableEntity, .unknownAssignee, "No account is named \(username); check the assignee's username (waymark users list shows them).")
        }
        let new = NewTask(assigneeID: assignee.id, createdBy: officer.id, name: name, instructions: instructions, dueDate: due, idempotencyKey: key)
        let outcome = try await write.answer(
            sameRequest: { $0 == TaskCreated(id: $0.id, new) },
            reused: APIError(.conflict, .idempotencyKeyReused, "This Idempotency-Key was used for another task; send a new task under a new key.")
        ) {
            let id = try await tasks.create(new)
            request.logger.info("task created", metadata: ["task": "\(id)"])
            return TaskCreated(id: id, new)
        }
        return try await created(outcome.made.id, viewer: officer)
    }

    private func created(_ id: UUID, viewer officer: Account) async throws -> Response {
        let response = try await answer(id, viewer: officer, status: .created)
        response.headers.replaceOrAdd(name: .location, value: "/api/v1/tasks/\(id.uuidString.lowercased())")
        return response
    }

    @Sendable func giveBack(_ request: Request) async throws -> Response {
        let officer = try Self.officer(request, doing: "return tasks")
        let body = try request.decodeJSON(TaskReturnRequest.self)
        let reason = try Self.text(body.reason, field: "reason", code: .invalidReason, range: 1...Self.maxReasonLength, lines: true)
        let task = try await visibleTask(request, viewer: officer)
        try await change(.giveBack, task: task.id, actor: officer, reason: reason)
        return try await answer(task.id, viewer: officer)
    }

    // MARK: - Reading

    @Sendable func list(_ request: Request) async throws -> Response {
        let viewer = try request.auth.require(SignedInUser.self).account
        var status: TaskStatus?
        if let text = try? request.query.get(String.self, at: "status") {
            guard let value = TaskStatus(rawValue: text) else {
                throw APIError.badRequest(.invalidQuery, "status must be new, open, data_provided or returned.")
            }
            status = value
        }
        var assignee: UUID? = Self.isOfficer(viewer) ? nil : viewer.id
        if let text = try? request.query.get(String.self, at: "assignee"), !text.isEmpty {
            let username = AccountRules.normalizedUsername(text)
            if Self.isOfficer(viewer) {
                guard let account = try await accounts.account(username: username) else { return try Response.json(WaymarkAPI.Page<TaskDTO>(items: [], next: nil)) }
                assignee = account.id
            } else if username != viewer.username {
                // A user's list holds only their own tasks.
                return try Response.json(WaymarkAPI.Page<TaskDTO>(items: [], next: nil))
            }
        }
        let items = try await tasks.tasks(assignee: assignee, status: status).map { Self.dto($0, photos: nil) }
        return try Response.json(WaymarkAPI.Page(items: items, next: nil))
    }

    @Sendable func find(_ request: Request) async throws -> Response {
        let viewer = try request.auth.require(SignedInUser.self).account
        let task = try await visibleTask(request, viewer: viewer)
        if task.assignee.id == viewer.id, task.status == .new {
            try await change(.open, task: task.id, actor: viewer)
        }
        return try await answer(task.id, viewer: viewer)
    }

    @Sendable func history(_ request: Request) async throws -> Response {
        let viewer = try request.auth.require(SignedInUser.self).account
        let task = try await visibleTask(request, viewer: viewer)
        let entries = try await tasks.history(of: task.id).map {
            TaskHistoryEntryDTO(from: $0.from, to: $0.to, actor: $0.actor, at: $0.at, reason: $0.reason)
        }
        return try Response.json(WaymarkAPI.Page(items: entries, next: nil))
    }

    // MARK: - Its assignee

    @Sendable func edit(_ request: Request) async throws -> Response {
        let (user, task) = try await assignedTask(request, doing: "change its note")
        let body = try request.decodeJSON(TaskEditRequest.self)
        let note = try Self.text(body.note, field: "note", code: .invalidNote, range: 0...Self.maxTextLength, lines: true, trim: false)
        do {
            guard try await tasks.setNote(note, task: task.id) else { throw Self.notFound }
        } catch let refusal as TaskRefusal {
            throw Self.error(refusal)
        }
        return try await answer(task.id, viewer: user)
    }

    @Sendable func send(_ request: Request) async throws -> Response {
        let (user, task) = try await assignedTask(request, doing: "send it")
        try await change(.send, task: task.id, actor: user)
        request.logger.info("task sent", metadata: ["task": "\(task.id)"])
        return try await answer(task.id, viewer: user)
    }

    @Sendable func addPhoto(_ request: Request) async throws -> Response {
        let (user, task) = try await assignedTask(request, doing: "add photos")
        let key = try IdempotencyKey.of(request)
        let earlier = if let key { try await photos.photo(owner: user.id, idempotencyKey: key) } else { Photo?.none }
        if let earlier, try await tasks.link(photo: earlier.id)?.task == task.id {
            // A retry of an upload that was stored and linked: the same answer, whatever the task's status now.
            return try await photos.created(earlier, viewer: user.id)
        }
        do {
            _ = try TaskStateMachine.apply(.edit, to: task.status)
        } catch {
            throw Self.error(error)
        }
        if earlier != nil {
            throw APIError(.conflict, .idempotencyKeyReused, "This Idempotency-Key was used for a photo that is not this task's; send a new key.")
        }
        let photo = try await photos.accept(request, fields: { fields, _ in fields })
        let outcome: TaskPhotoChange
        do {
            outcome = try await tasks.add(photo: photo.id, to: task.id)
        } catch let refusal as TaskRefusal {
            // The task was sent while the photo arrived: it is not kept.
            try await photos.remove(photo)
            throw Self.error(refusal)
        }
        switch outcome {
        case .done:
            request.logger.info("task photo added", metadata: ["task": "\(task.id)", "photo": "\(photo.id)"])
            return try await photos.created(photo, viewer: user.id)
        case .elsewhere:
            throw APIError(.conflict, .idempotencyKeyReused, "This Idempotency-Key was used for a photo of another task; send a new key.")
        case .notFound, .sent:
            try await photos.remove(photo)
            throw Self.notFound
        }
    }

    @Sendable func removePhoto(_ request: Request) async throws -> Response {
        let (_, task) = try await assignedTask(request, doing: "delete its photos")
        guard let photoID = request.uuidParameter("photo_id") else { throw Self.photoNotFound }
        let outcome: TaskPhotoChange
        do {
            outcome = try await tasks.remove(photo: photoID, from: task.id)
        } catch let refusal as TaskRefusal {
            throw Self.error(refusal)
        }
        switch outcome {
        case .done:
            if let photo = try await photos.photo(id: photoID) {
                try await photos.remove(photo)
            }
            request.logger.info("task photo deleted", metadata: ["task": "\(task.id)", "photo": "\(photoID)"])
            return Response(status: .noContent)
        case .sent:
            throw APIError(.conflict, .photoSent, "This photo was sent with the task, so it is evidence and can never be deleted.")
        case .notFound, .elsewhere:
            throw Self.photoNotFound
        }
    }

    // MARK: - Helpers

    static let notFound = APIError(.notFound, .notFound, "No task has this id.")
    static let photoNotFound = APIError(.notFound, .notFound, "This task has no photo with this id.")

    static func isOfficer(_ account: Account) -> Bool { account.role != .user }

    static func officer(_ request: Request, doing what: String) throws -> Account {
        let account = try request.auth.require(SignedInUser.self).account
        guard isOfficer(account) else {
            throw APIError(.forbidden, .forbidden, "Only officers and admins \(what); this account is a user.")
        }
        return account
    }

    /// The task of the path, if the viewer may see it (its assignee, or an officer); else 404.
    func visibleTask(_ request: Request, viewer: Account) async throws -> TaskRecord {
        guard let id = request.uuidParameter("task_id"),
              let task = try await tasks.task(id: id), task.assignee.id == viewer.id || Self.isOfficer(viewer)
        else { throw Self.notFound }
        return task
    }

    /// The task of the path and its assignee, the signed-in account: an officer who is not its
    /// assignee gets 403, anyone else 404.
    func assignedTask(_ request: Request, doing what: String) async throws -> (Account, TaskRecord) {
        let viewer = try request.auth.require(SignedInUser.self).account
        let task = try await visibleTask(request, viewer: viewer)
        guard task.assignee.id == viewer.id else {
            throw APIError(.forbidden, .forbidden, "Only the task's assignee (\(task.assignee.username)) can \(what).")
        }
        return (viewer, task)
    }

    /// Applies a status change, answering the rules' refusal as 409.
    private func change(_ event: TaskEvent, task: UUID, actor: Account, reason: String? = nil) async throws {
        do {
            guard try await tasks.apply(event, task: task, actor: actor.id, reason: reason) != .notFound else { throw Self.notFound }
        } catch let refusal as TaskRefusal {
            throw Self.error(refusal)
        }
    }

    static func error(_ refusal: TaskRefusal) -> APIError {
        APIError(.conflict, refusal.code, refusal.reason)
    }

    /// The task as it is now, with its photos.
    private func answer(_ id: UUID, viewer: Account, status: HTTPResponseStatus = .ok) async throws -> Response {
        guard let task = try await tasks.task(id: id) else { throw Self.notFound }
        var owners = OwnerCache(accounts: accounts)
        var items: [PhotoDTO] = [], sent: [UUID] = []
        for link in try await tasks.photos(of: id) {
            guard let photo = try await photos.photo(id: link.photoID) else { continue }
            items.append(try await owners.dto(photo, distance: nil, viewer: viewer.id))
            if link.sent { sent.append(photo.id) }
        }
        return try Response.json(Self.dto(task, photos: items, sentPhotoIds: sent), status: status)
    }

    static func dto(_ task: TaskRecord, photos: [PhotoDTO]?, sentPhotoIds: [UUID]? = nil) -> TaskDTO {
        TaskDTO(id: task.id, name: task.name, instructions: task.instructions, dueDate: task.dueDate, note: task.note, status: task.status,
                returnReason: task.returnReason, assignee: task.assignee, createdBy: task.createdBy,
                createdAt: task.createdAt, updatedAt: task.updatedAt,
                photoCount: task.photoCount, photos: photos, sentPhotoIds: sentPhotoIds)
    }

    /// Checks a text field: its length in characters after trimming (unless `trim` is off), and
    /// no control characters (line breaks and tabs allowed when `lines`).
    static func text(_ value: String, field: String, code: APIErrorCode, range: ClosedRange<Int>, lines: Bool, trim: Bool = true) throws -> String {
        let text = trim ? value.trimmingCharacters(in: .whitespacesAndNewlines) : value
        let allowed: Set<Unicode.Scalar> = lines ? ["\n", "\r", "\t"] : []
        let control = text.unicodeScalars.contains { $0.properties.generalCategory == .control && !allowed.contains($0) }
        guard range.contains(text.unicodeScalars.count), !control else {
            let length = range.lowerBound == 0 ? "at most \(range.upperBound) characters" : "\(range.lowerBound) to \(range.upperBound) characters"
            throw APIError.badRequest(code, "\(field) must be \(length)\(range.lowerBound > 0 ? ", not blank" : ""), with no control characters\(lines ? " other than line breaks and tabs" : "").")
        }
        return text
    }
}

/// What a task made under an Idempotency-Key is compared by: a retry asks for the same task.
private struct TaskCreated: Sendable, Equatable {
    var id: UUID
    var assignee: UUID
    var name: String
    var instructions: String
    var dueDate: String
}

extension TaskCreated {
    init(id: UUID, _ new: NewTask) {
        self.init(id: id, assignee: new.assigneeID, name: new.name, instructions: new.instructions, dueDate: new.dueDate)
    }

    init(_ stored: TaskRecord) {
        self.init(id: stored.id, assignee: stored.assignee.id, name: stored.name, instructions: stored.instructions, dueDate: stored.dueDate)
    }
}
