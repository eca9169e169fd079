import Fluent
import Vapor

/// Signed receipts of photos (DESIGN §3.10).
enum ReceiptArea {
    /// This area's migrations, in order; they run after every earlier one of the schema.
    static var migrations: [any Migration] { [] }

    /// Registers this area's routes.
    static func register(_ context: AreaContext) async throws {}
}
