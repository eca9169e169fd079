import Vapor
import WaymarkAPI
import WaymarkCore

/// OwnTracks as a background recorder (DESIGN §3.13): the app's HTTP mode, and the devices an
/// account pairs with it. The server keeps what the app sends only when it is encrypted, as it
/// came; it never holds the key in clear (the client seals it under the passphrase) and so never
/// reads a position.
struct OwnTracksController: Sendable {
    let store: any OwnTracksStore
    let accounts: any AccountStore
    let clock: WallClock

    /// The largest message taken: a location is a few hundred bytes; OwnTracks' biggest messages
    /// (a waypoint list, a card with an image) stay far below.
    static let maxMessageSize = 64 * 1024
    /// The most messages one page of the list answers.
    static let maxPage = 1000

    func register(on routes: ContractRoutes, app: any RoutesBuilder) {
        let senders = routes.routing(.owntracks, to: app.grouped(OwnTracksAuthenticator(accounts: accounts, devices: store)))
        senders.on("publishOwnTracks", body: .collect(maxSize: ByteCount(value: Self.maxMessageSize)), use: publish)
        routes.on("createOwnTracksDevice", use: create)
        routes.on("listOwnTracksDevices", use: list)
        routes.on("revokeOwnTracksDevice", use: revoke)
        routes.on("findOwnTracksDevice", use: findByLookup)
        routes.on("listOwnTracksMessages", use: messages)
    }

    // MARK: the app

    @Sendable func publish(_ request: Request) async throws -> Response {
        let sender = try request.auth.require(OwnTracksSender.self)
        let body = request.body.data.map { Data($0.readableBytesView) } ?? Data()
        // OwnTracks posts an empty body when a friend is removed: nothing to keep.
        if !body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            let data = try Self.encryptedData(body)
            let digest = AccountService.tokenHash(data)
            let stored = try await store.append(device: sender.device.id, data: data, digest: digest, receivedAt: clock.now())
            request.logger.info("owntracks message", metadata: ["device": "\(sender.device.id)", "bytes": "\(data.utf8.count)", "new": "\(stored)"])
        }
        return Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"], body: .init(string: "[]"))
    }

    /// The `data` of an encrypted message; anything else is refused and nothing of it is kept.
    static func encryptedData(_ body: Data) throws -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body), let message = object as? [String: Any] else {
            throw APIError.badRequest(.invalidJson, "The body must be one OwnTracks message, a JSON object.")
        }
        guard message["_type"] as? String == "encrypted" else {
            let type = (message["_type"] as? String).map { "a plaintext \"\($0)\" message" } ?? "a message without _type"
            throw APIError.badRequest(.notEncrypted, "This is \(type): Waymark keeps only encrypted OwnTracks messages, and kept nothing. "
                + "Set the encryption key in OwnTracks (Settings → Encryption key, as shown when the device was paired on /account).")
        }
        guard let data = message["data"] as? String, !data.isEmpty, let bytes = Data(base64Encoded: data), bytes.count > 40 else {
            throw APIError.badRequest(.invalidField, "data must be the Base64 of a 24-byte nonce and the encrypted message.")
        }
        return data
    }

    // MARK: the account's devices

    @Sendable func create(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        let body = try Self.creation(request.body.data.map { Data($0.readableBytesView) } ?? Data())
        let secret = "wmo_" + RandomToken.make(bytes: 32)
        let secretHash = AccountService.tokenHash(secret)
        var device = StoredOwnTracksDevice(
            id: UUID(), ownerID: user.account.id, name: body.name, nonce: body.nonce, lookup: RouteKeys.lookupKey(nonce: body.nonce),
            secretHash: secretHash, sealedKey: body.sealedKey, createdAt: clock.now(), revokedAt: nil)
        if try await !store.insert(device) {
            // The same pairing sent again (its answer was lost on the way): the device it made, with
            // a new secret, since the first never reached its owner. Another's nonce is a conflict.
            guard let existing = try await store.device(lookup: device.lookup)?.device, existing.ownerID == user.account.id,
                  existing.revokedAt == nil, existing.name == body.name,
                  try Self.envelope(existing) == RouteEnvelope.decode(json: Data(body.sealedKey.utf8)) else {
                throw APIError(.conflict, .conflict, "This nonce belongs to another device already; pair again with a new one.")
            }
            try await store.replaceSecret(id: existing.id, secretHash: secretHash)
            device = existing
        }
        request.logger.info("owntracks device paired", metadata: ["user": "\(user.account.id)", "device": "\(device.id)"])
        let created = NewOwnTracksDeviceDTO(id: device.id, name: device.name, nonce: device.nonce, username: user.account.username,
                                            secret: secret, createdAt: device.createdAt)
        // The secret is shown once: no cache may keep it.
        let response = try Response.json(created, status: .created)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    /// A new device's name, nonce and sealed key (as envelope JSON), each checked.
    static func creation(_ body: Data) throws -> (name: String, nonce: String, sealedKey: String) {
        guard let object = try? JSONSerialization.jsonObject(with: body), let fields = object as? [String: Any] else {
            throw APIError.badRequest(.invalidJson, "The body must be a JSON object {name, nonce, sealedKey}.")
        }
        let rawName = fields["name"] as? String ?? ""
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard AccountRules.isValidName(name), !AccountRules.hasControlCharacters(rawName) else {
            throw APIError.badRequest(.invalidName, "name must be 1 to \(AccountRules.nameLengths.upperBound) characters, without control characters, e.g. \"Alice's phone\".")
        }
        guard let nonce = fields["nonce"] as? String, nonce.utf8.count == 12,
              nonce.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }) else {
            throw APIError.badRequest(.invalidField, "nonce must be 12 characters of 0-9 and A-Z, made at random as a route's QR nonce.")
        }
        guard let sealed = fields["sealedKey"], JSONSerialization.isValidJSONObject(sealed),
              let json = try? JSONSerialization.data(withJSONObject: sealed) else {
            throw APIError.badRequest(.invalidEnvelope, "sealedKey must be the key sealed as a route envelope {v, kdf, aead, iv, ct}.")
        }
        let envelope: RouteEnvelope
        do {
            envelope = try RouteEnvelope.decode(json: json)
        } catch {
            throw APIError.badRequest(.invalidEnvelope, "sealedKey is not a route envelope: \(error)")
        }
        // What is stored is the envelope as Waymark writes it, not the client's spelling of it.
        // (RouteEnvelope.jsonData has a fixed key order; JSONEncoder's changes from call to call.)
        return (name, nonce, String(decoding: envelope.jsonData(), as: UTF8.self))
    }

    @Sendable func list(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        let items = try await store.devices(owner: user.account.id).map(Self.dto)
        let response = try Response.json(Page(items: items, next: nil))
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
        return response
    }

    @Sendable func revoke(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        let text = request.parameters.get("device_id") ?? ""
        guard let id = UUID(uuidString: text), try await store.revoke(id: id, owner: user.account.id, now: clock.now()) else {
            throw APIError(.notFound, .notFound, "You have no OwnTracks device \(text).")
        }
        request.logger.info("owntracks device revoked", metadata: ["user": "\(user.account.id)", "device": "\(id)"])
        return Response(status: .noContent)
    }

    // MARK: by nonce, as a route

    @Sendable func findByLookup(_ request: Request) async throws -> Response {
        let summary = try await device(request)
        return try Response.json(OwnTracksSealedDeviceDTO(sealedKey: try Self.envelope(summary.device), createdAt: summary.device.createdAt,
                                                          messages: summary.messages))
    }

    @Sendable func messages(_ request: Request) async throws -> Response {
        let from = try request.queryInstant("from"), to = try request.queryInstant("to")
        let limit = try request.queryLimit(1...Self.maxPage, otherwise: 500)
        var after: Int64?
        if let text = try? request.query.get(String.self, at: "cursor"), !text.isEmpty {
            guard let value = Int64(text), value >= 0 else { throw APIError.invalidCursor }
            after = value
        }
        let summary = try await device(request)
        // One more than asked tells whether another page follows.
        let page = try await store.messages(device: summary.device.id, from: from, to: to, after: after, limit: limit + 1)
        let items = page.prefix(limit).map { OwnTracksStoredMessageDTO(data: $0.data, receivedAt: $0.receivedAt) }
        let next = page.count > limit ? page[limit - 1].seq.description : nil
        return try Response.json(Page(items: Array(items), next: next))
    }

    /// The device a request's lookup key finds; 404 otherwise.
    private func device(_ request: Request) async throws -> OwnTracksDeviceSummary {
        let lookup = try RouteRequestParser.lookup(request.parameters.get("lookup"))
        guard let summary = try await store.device(lookup: lookup) else {
            throw APIError(.notFound, .notFound, "No OwnTracks device has this nonce's lookup key.")
        }
        return summary
    }

    static func envelope(_ device: StoredOwnTracksDevice) throws -> RouteEnvelope {
        try RouteEnvelope.decode(json: Data(device.sealedKey.utf8))
    }

    static func dto(_ summary: OwnTracksDeviceSummary) throws -> OwnTracksDeviceDTO {
        OwnTracksDeviceDTO(id: summary.device.id, name: summary.device.name, nonce: summary.device.nonce, sealedKey: try envelope(summary.device),
                           createdAt: summary.device.createdAt, messages: summary.messages, lastMessageAt: summary.lastMessageAt)
    }
}
