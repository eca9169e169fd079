import Fluent
import Vapor

/// Tasks of field inspection (DESIGN §3.10): officers hand them out, users fill and send them.
enum TaskArea {
    /// This area's migrations, in order; they run after every earlier one of the schema.
    static var migrations: [any Migration] { [CreateTasks(), AddTaskIdempotencyKeys()] }

    /// Registers this area's routes (every one needs a signed-in account).
    static func register(_ context: AreaContext) async throws {
        let tasks = SQLTaskStore(database: context.database, clock: context.clock)
        // A sent task's photos are evidence; officers see a task's photos, private or not.
        context.photos.claims.use(
            evidence: { photo, sql, lock in try await SQLTaskStore.isSent(photoID: photo, on: sql, lock: lock) },
            staffMaySee: { photo, sql in try await SQLTaskStore.isTaskPhoto(photoID: photo, on: sql) })
        TaskController(tasks: tasks, accounts: context.stores.accounts, photos: context.photos).register(on: context.routes)
    }
}
