import Foundation

/// Where a field-inspection task stands (DESIGN §3.10): `new` → `open` (its user opened it) →
/// `data_provided` (its user sent it) → `returned` (an officer sent it back) → `data_provided` again.
public enum TaskStatus: String, Codable, Sendable, CaseIterable {
    case new
    case open
    case dataProvided = "data_provided"
    case returned
}

/// An account as a task names it: its assignee, its creator, who made a change — the same
/// `{id, username, displayName}` as a photo's owner.
public typealias TaskPerson = PhotoDTO.Owner

/// A task as the API shows it; `photos` only in the answer about one task.
public struct TaskDTO: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var instructions: String
    /// `YYYY-MM-DD`, or a UTC date-time `YYYY-MM-DDTHH:MM:SSZ`.
    public var dueDate: String
    /// The user's note; empty when there is none.
    public var note: String
    public var status: TaskStatus
    /// Why an officer last returned it; `nil` if it was never returned.
    public var returnReason: String?
    public var assignee: TaskPerson
    public var createdBy: TaskPerson
    @UTCTime public var createdAt: Date
    @UTCTime public var updatedAt: Date
    public var photoCount: Int
    public var photos: [PhotoDTO]?
    /// With `photos`: the ids of those that were sent with the task (evidence, never deleted).
    public var sentPhotoIds: [UUID]?

    public init(id: UUID, name: String, instructions: String, dueDate: String, note: String, status: TaskStatus, returnReason: String?,
                assignee: TaskPerson, createdBy: TaskPerson, createdAt: Date, updatedAt: Date, photoCount: Int, photos: [PhotoDTO]?,
                sentPhotoIds: [UUID]? = nil) {
        self.id = id
        self.name = name
        self.instructions = instructions
        self.dueDate = dueDate
        self.note = note
        self.status = status
        self.returnReason = returnReason
        self.assignee = assignee
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.photoCount = photoCount
        self.photos = photos
        self.sentPhotoIds = sentPhotoIds
    }

    // `returnReason` always present (null when never returned); `photos` and `sentPhotoIds` only in the detail.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(instructions, forKey: .instructions)
        try container.encode(dueDate, forKey: .dueDate)
        try container.encode(note, forKey: .note)
        try container.encode(status, forKey: .status)
        try container.encode(returnReason, forKey: .returnReason)
        try container.encode(assignee, forKey: .assignee)
        try container.encode(createdBy, forKey: .createdBy)
        try container.encode(_createdAt, forKey: .createdAt)
        try container.encode(_updatedAt, forKey: .updatedAt)
        try container.encode(photoCount, forKey: .photoCount)
        try container.encodeIfPresent(photos, forKey: .photos)
        try container.encodeIfPresent(sentPhotoIds?.map { $0.uuidString.lowercased() }, forKey: .sentPhotoIds)
    }

    enum CodingKeys: String, CodingKey {
        case id, name, instructions, dueDate, note, status, returnReason, assignee, createdBy, createdAt, updatedAt, photoCount, photos, sentPhotoIds
    }
}

/// `POST /api/v1/tasks`: an officer hands a task to a user.
public struct NewTaskRequest: Codable, Sendable, Equatable {
    /// The username of the account that is to do it.
    public var assignee: String
    public var name: String
    public var instructions: String?
    /// An ISO 8601 date (`2026-07-01`) or date-time with its zone.
    public var dueDate: String

    public init(assignee: String, name: String, instructions: String? = nil, dueDate: String) {
        self.assignee = assignee
        self.name = name
        self.instructions = instructions
        self.dueDate = dueDate
    }
}

/// `PATCH /api/v1/tasks/{id}`: the assignee's note.
public struct TaskEditRequest: Codable, Sendable, Equatable {
    public var note: String

    public init(note: String) {
        self.note = note
    }
}

/// `POST /api/v1/tasks/{id}/return`: why an officer sends a task back.
public struct TaskReturnRequest: Codable, Sendable, Equatable {
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// One change of a task's status: `from` is `nil` for its creation.
public struct TaskHistoryEntryDTO: Codable, Sendable, Equatable {
    public var from: TaskStatus?
    public var to: TaskStatus
    public var actor: TaskPerson
    @UTCTime public var at: Date
    /// The reason of a return.
    public var reason: String?

    public init(from: TaskStatus?, to: TaskStatus, actor: TaskPerson, at: Date, reason: String?) {
        self.from = from
        self.to = to
        self.actor = actor
        self.at = at
        self.reason = reason
    }

    // `from` and `reason` always present, null when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(actor, forKey: .actor)
        try container.encode(_at, forKey: .at)
        try container.encode(reason, forKey: .reason)
    }

    enum CodingKeys: String, CodingKey { case from, to, actor, at, reason }
}
