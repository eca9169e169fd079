import Fluent
import SQLKit

/// Adds the officer's Idempotency-Key to the tasks table (nullable: tasks made before, and
/// requests without the header, have none), unique per officer, so that a request resent after
/// its answer was lost makes the task once.
struct AddTaskIdempotencyKeys: AsyncMigration {
    var name: String { "WaymarkTaskIdempotencyKeys" }

    static let index = "tasks_creator_idempotency_key_idx"

    func prepare(on database: any Database) async throws {
        try await database.schema(CreateTasks.tasks).field("idempotency_key", .string).update()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: Self.index).unique().on(CreateTasks.tasks).column("created_by").column("idempotency_key").run()
        }
    }

    func revert(on database: any Database) async throws {
        if let sql = database as? any SQLDatabase {
            try await sql.drop(index: Self.index).run()
        }
        try await database.schema(CreateTasks.tasks).deleteField("idempotency_key").update()
    }
}
