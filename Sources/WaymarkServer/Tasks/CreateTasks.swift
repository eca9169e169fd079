import Fluent
import SQLKit

/// Field-inspection tasks (DESIGN §3.10): the tasks, the photos sent with them, and every change
/// of their status.
///
/// A photo belongs to at most one task (`photo_id` is the key of `task_photos`); deleting the
/// photo or the task removes the link. Times are Unix seconds, as the photos' are.
struct CreateTasks: AsyncMigration {
    var name: String { "WaymarkTasks" }

    static let tasks = "tasks"
    static let photos = "task_photos"
    static let history = "task_history"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.tasks)
            .id()
            .field("assignee_id", .uuid, .required, .references(AccountModel.schema, "id"))
            .field("created_by", .uuid, .required, .references(AccountModel.schema, "id"))
            .field("name", .string, .required)
            .field("instructions", .string, .required)
            .field("due_date", .string, .required)
            .field("note", .string, .required)
            .field("status", .string, .required)
            .field("return_reason", .string)
            .field("created_at", .double, .required)
            .field("updated_at", .double, .required)
            .field("sent_at", .double)
            .create()
        try await database.schema(Self.photos)
            .field("photo_id", .uuid, .identifier(auto: false), .references(CreatePhotos.table, "id", onDelete: .cascade))
            .field("task_id", .uuid, .required, .references(Self.tasks, "id", onDelete: .cascade))
            .field("added_at", .double, .required)
            .field("sent", .bool, .required)
            .create()
        try await database.schema(Self.history)
            .id()
            .field("task_id", .uuid, .required, .references(Self.tasks, "id", onDelete: .cascade))
            .field("seq", .int64, .required)
            .field("from_status", .string)
            .field("to_status", .string, .required)
            .field("actor_id", .uuid, .required, .references(AccountModel.schema, "id"))
            .field("at", .double, .required)
            .field("reason", .string)
            .unique(on: "task_id", "seq")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "tasks_assignee_idx").on(Self.tasks).column("assignee_id").run()
            try await sql.create(index: "tasks_status_idx").on(Self.tasks).column("status").run()
            try await sql.create(index: "task_photos_task_idx").on(Self.photos).column("task_id").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.history).delete()
        try await database.schema(Self.photos).delete()
        try await database.schema(Self.tasks).delete()
    }
}
