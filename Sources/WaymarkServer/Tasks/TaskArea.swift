import Fluent
import Vapor

/// Tasks of field inspection (DESIGN §3.10): officers hand them out, users fill and send them.
enum TaskArea {
    /// This area's migrations, in order; they run after every earlier one of the schema.
    static var migrations: [any Migration] { [] }

    /// Registers this area's routes.
    static func register(_ context: AreaContext) async throws {}
}
