import Fluent
import Vapor

/// Field paths (DESIGN §3.10): walked boundaries with their area, and KML.
struct FieldPathArea: ServerArea {
    var contract: String { "paths" }
    var migrations: [any Migration] { [CreateFieldPaths()] }

    /// Registers this area's routes: `/api/v1/paths…`, for signed-in users only.
    func register(_ context: AreaContext) async throws {
        FieldPathController(store: context.stores.paths, clock: context.clock)
            .register(on: context.routes)
    }
}
