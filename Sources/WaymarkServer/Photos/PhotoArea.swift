import Fluent
import Vapor

/// Photos and places (DESIGN §3.6, §3.7): uploads, images, nearby searches and map clusters;
/// browsing needs no account. Its ``PhotoService`` is made before any area registers, since the
/// others build on it (``AreaContext/photos``).
struct PhotoArea: ServerArea {
    var contract: String { "photos" }
    var migrations: [any Migration] { [CreatePhotos(), IndexPhotosByTime(), IndexPhotosByPlaceAndTime(), AddPhotoPlaceSource()] }

    func register(_ context: AreaContext) async throws {
        context.photos.register(on: context.routes)
    }
}
