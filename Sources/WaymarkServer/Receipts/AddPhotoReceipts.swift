import Fluent

/// Adds to the photos table the centroid of an inspection photo and the server's signed receipt
/// (DESIGN §3.10), all nullable: photos stored before have neither.
///
/// The receipt's columns hold what was signed, verbatim: the metadata's canonical JSON text (its
/// SHA-256 is the receipt's `sha256Metadata`, also kept), the time text, the base64 signature and
/// the base64 public key that made it (so that a receipt still shows its own key after the
/// server's key is replaced). `sha256Image` is the photo's `sha256` column.
struct AddPhotoReceipts: AsyncMigration {
    var name: String { "WaymarkPhotoReceiptsAndCentroids" }

    static let fields: [(name: String, type: DatabaseSchema.DataType)] = [
        ("centroid_latitude", .double), ("centroid_longitude", .double), ("centroid_samples", .int64),
        ("receipt_metadata", .string), ("receipt_sha256_metadata", .string), ("receipt_received_at", .string),
        ("receipt_signature", .string), ("receipt_public_key", .string),
    ]

    func prepare(on database: any Database) async throws {
        // One column a statement: SQLite adds one per ALTER TABLE.
        for field in Self.fields {
            try await database.schema(CreatePhotos.table).field(FieldKey(stringLiteral: field.name), field.type).update()
        }
    }

    func revert(on database: any Database) async throws {
        for field in Self.fields.reversed() {
            try await database.schema(CreatePhotos.table).deleteField(FieldKey(stringLiteral: field.name)).update()
        }
    }
}
