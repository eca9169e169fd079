import Fluent
import SQLKit

/// The OwnTracks tables (DESIGN §3.13).
///
/// `owntracks_devices`: each paired app of an account, with the SHA-256 of its secret (never the
/// secret), its nonce (which the owner's `/clock` shows) and the lookup key of that nonce (how a
/// QR photo finds it, as a route), the key sealed under the owner's passphrase, and when it was
/// revoked. `owntracks_messages`: what the devices sent, as it came: the `data` of each encrypted
/// message, when it came, and its SHA-256, unique per device, so that a retried message is kept once.
/// `seq` orders the messages as they arrived and is the lists' cursor.
struct CreateOwnTracks: AsyncMigration {
    var name: String { "WaymarkOwnTracks" }

    static let devices = "owntracks_devices"
    static let messages = "owntracks_messages"

    func prepare(on database: any Database) async throws {
        try await database.schema(Self.devices)
            .id()
            .field("owner_id", .uuid, .required, .references(AccountModel.schema, "id"))
            .field("name", .string, .required)
            .field("nonce", .string, .required)
            .field("lookup", .string, .required)
            .field("secret_hash", .string, .required)
            .field("sealed_key", .string, .required)
            .field("created_at", .double, .required)
            .field("revoked_at", .double)
            .unique(on: "nonce")
            .unique(on: "lookup")
            .create()
        try await database.schema(Self.messages)
            .field("seq", .int64, .identifier(auto: true))
            .field("device_id", .uuid, .required, .references(Self.devices, "id"))
            .field("digest", .string, .required)
            .field("data", .string, .required)
            .field("received_at", .double, .required)
            .unique(on: "device_id", "digest")
            .create()
        if let sql = database as? any SQLDatabase {
            try await sql.create(index: "owntracks_devices_owner_idx").on(Self.devices).column("owner_id").run()
            try await sql.create(index: "owntracks_messages_device_received_idx").on(Self.messages)
                .column("device_id").column("received_at").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Self.messages).delete()
        try await database.schema(Self.devices).delete()
    }
}
