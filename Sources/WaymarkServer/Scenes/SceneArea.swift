import Fluent
import Foundation
import Vapor

/// Scenes of rephotography (DESIGN §3.9): a reference photo, its feet shot, its rephotographs.
enum SceneArea {
    /// This area's migrations, in order; they run after every earlier one of the schema.
    static var migrations: [any Migration] { [CreateScenes()] }

    /// Registers this area's routes; addresses come from the server's gazetteer.
    static func register(_ context: AreaContext) async throws {
        let controller = SceneController(
            scenes: SQLSceneStore(database: context.database), photos: context.stores.photos, accounts: context.stores.accounts,
            blobs: context.blobs, uploader: context.photos.uploader, photoArea: context.photos, addresses: SceneAddresses(loader: context.gazetteer),
            clock: context.clock)
        controller.register(sessions: context.sessions, signedIn: context.signedIn)
    }
}
