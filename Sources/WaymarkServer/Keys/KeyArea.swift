import Fluent
import Vapor

/// Device keys (DESIGN §3.5): a signed-in user makes, lists and revokes the keys its devices sign
/// route requests with.
struct KeyArea: ServerArea {
    var contract: String { "keys" }
    var migrations: [any Migration] { [AddOwnerToConsumers()] }

    func register(_ context: AreaContext) async throws {
        KeyController(consumers: context.stores.consumers, clock: context.clock).register(on: context.routes)
    }
}
