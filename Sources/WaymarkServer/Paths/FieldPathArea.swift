import Fluent
import Vapor

/// Field paths (DESIGN §3.10): walked boundaries with their area, and KML.
enum FieldPathArea {
    /// This area's migrations, in order; they run after every earlier one of the schema.
    static var migrations: [any Migration] { [CreateFieldPaths()] }

    /// Registers this area's routes: `/api/v1/paths…`, for signed-in users only.
    static func register(_ context: AreaContext) async throws {
        FieldPathController(store: SQLFieldPathStore(database: context.database), clock: context.clock)
            .register(on: context.routes)
    }
}
