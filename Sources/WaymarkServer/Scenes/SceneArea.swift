import Fluent
import Vapor

/// Scenes of rephotography (DESIGN §3.9): a reference photo, its feet shot, its rephotographs.
enum SceneArea {
    /// This area's migrations, in order; they run after every earlier one of the schema.
    static var migrations: [any Migration] { [] }

    /// Registers this area's routes.
    static func register(_ context: AreaContext) async throws {}
}
