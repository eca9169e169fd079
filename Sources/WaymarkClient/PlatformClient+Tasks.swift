import Foundation
import NIOCore
import NIOHTTP1
import WaymarkAPI

/// Field-inspection tasks (DESIGN §3.10), as an officer hands them out, lists and returns them.
extension PlatformClient {
    /// Hands a task to a user (officers and admins).
    /// Hands out a task under a fresh Idempotency-Key, so that the client's own retries (after a
    /// lost answer or a 5xx) make it once.
    public func createTask(_ task: NewTaskRequest, idempotencyKey: String = UUID().uuidString) async throws -> TaskDTO {
        try await json("createTask", body: task, expecting: 201, extra: [("Idempotency-Key", idempotencyKey)])
    }

    /// The tasks this account may see (a user's own; an officer's all), newest first.
    public func tasks(status: TaskStatus? = nil, assignee: String? = nil) async throws -> [TaskDTO] {
        let page: Page<TaskDTO> = try await json("listTasks", query: [("status", status?.rawValue), ("assignee", assignee)],
                                                 body: Optional<String>.none, expecting: 200)
        return page.items
    }

    /// One task with its photos.
    public func task(id: UUID) async throws -> TaskDTO {
        try await json("getTask", path: ["task_id": id.uuidString.lowercased()], body: Optional<String>.none, expecting: 200)
    }

    /// Sends a sent task back to its user with the reason (officers and admins).
    public func returnTask(id: UUID, reason: String) async throws -> TaskDTO {
        try await json("returnTask", path: ["task_id": id.uuidString.lowercased()], body: TaskReturnRequest(reason: reason), expecting: 200)
    }

    /// Every change of a task's status, oldest first.
    public func taskHistory(id: UUID) async throws -> [TaskHistoryEntryDTO] {
        let page: Page<TaskHistoryEntryDTO> = try await json("taskHistory", path: ["task_id": id.uuidString.lowercased()],
                                                             body: Optional<String>.none, expecting: 200)
        return page.items
    }

    /// Sends `body` as JSON (none when `nil`) and decodes the answer of status `expecting`;
    /// any other answer is a ``WaymarkClientError``.
    func json<Body: Encodable, Answer: Decodable>(_ id: String, path parameters: [String: String] = [:], query: [(String, String?)] = [],
                                                  body: Body?, expecting: Int, extra: [(String, String)] = []) async throws -> Answer {
        let bytes = try body.map { ByteBuffer(bytes: try JSONEncoder().encode($0)) } ?? ByteBuffer()
        let (status, data) = try await send(id, path: parameters, query: query, body: bytes, contentType: "application/json", extra: extra)
        guard status == expecting else { throw WaymarkClientError.from(status: status, body: data) }
        return try WaymarkClientError.decode(Answer.self, data, status: status)
    }
}
