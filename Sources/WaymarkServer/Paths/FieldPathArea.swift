import Fluent
import Vapor

/// Field paths (DESIGN §3.10): walked boundaries with their area, and KML.
enum FieldPathArea {
    /// This area's migrations, in order; they run after every earlier one of the schema.
    static var migrations: [any Migration] { [] }

    /// Registers this area's routes.
    static func register(_ context: AreaContext) async throws {}
}
