import Fluent

/// Adds to the photos table where a photo's place came from (``PlaceSource``): `client` (the
/// fields the phone sent, or a later edit), `file` (the photo's own GPS tags), or NULL for no
/// place. Photos stored before it count as `client`: their place was published as it was.
struct AddPhotoPlaceSource: AsyncMigration {
    var name: String { "WaymarkPhotoPlaceSource" }

    func prepare(on database: any Database) async throws {
        try await database.schema(CreatePhotos.table).field("place_source", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(CreatePhotos.table).deleteField("place_source").update()
    }
}
