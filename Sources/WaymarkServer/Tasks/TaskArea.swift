import Fluent
import Vapor

/// Tasks of field inspection (DESIGN §3.10): officers hand them out, users fill and send them.
struct TaskArea: ServerArea {
    var contract: String { "tasks" }
    var migrations: [any Migration] { [CreateTasks(), AddTaskIdempotencyKeys()] }

    /// Registers this area's routes (every one needs a signed-in account) and what it holds on
    /// photos: a sent task's photos are evidence, officers see a task's photos, private or not,
    /// and a photo's PDF names its task.
    func register(_ context: AreaContext) async throws {
        let tasks = context.stores.tasks
        context.photos.claims.use(
            evidence: { photo, sql, lock in try await tasks.isSent(photoID: photo, on: sql, lock: lock) },
            staffMaySee: { photo, sql in try await tasks.isTaskPhoto(photoID: photo, on: sql) },
            task: { photo in
                guard let link = try await tasks.link(photo: photo) else { return nil }
                return try await tasks.task(id: link.task)
            })
        TaskController(tasks: tasks, accounts: context.stores.accounts, photos: context.photos).register(on: context.routes)
    }
}
