import Fluent
import Foundation
import Vapor

/// Scenes of rephotography (DESIGN §3.9): a reference photo, its feet shot, its rephotographs.
struct SceneArea: ServerArea {
    var contract: String { "scenes" }
    var migrations: [any Migration] { [CreateScenes()] }

    /// Registers this area's routes; addresses come from the server's gazetteer, and street
    /// addresses from `--nominatim-url`'s geocoder when there is one (through Vapor's shared HTTP
    /// client, which the application shuts down).
    func register(_ context: AreaContext) async throws {
        var addresses = SceneAddresses(loader: context.gazetteer)
        if let geocoder = context.configuration.nominatim {
            addresses.street = StreetAddresses(geocoder: geocoder, http: context.app.http.client.shared, logger: context.app.logger)
        }
        let scenes = context.stores.scenes
        // A scene's feet shot is as public as its reference.
        context.photos.companions.use { photo in try await scenes.feetShots(ofReference: photo) }
        let controller = SceneController(
            scenes: scenes, photos: context.photos, accounts: context.stores.accounts, addresses: addresses,
            clock: context.clock, cursors: context.photos.cursors)
        controller.register(on: context.routes)
    }
}
