import Vapor
import WaymarkAPI
import WaymarkCore

/// The devices of an account (DESIGN §3.5): consumer keys for the route API, made, listed and
/// revoked by their signed-in owner. Another account's key answers 404.
struct KeyController: Sendable {
    let consumers: any ConsumerStore
    let clock: WallClock

    func register(on routes: ContractRoutes) {
        routes.on("createDeviceKey", use: create)
        routes.on("listDeviceKeys", use: list)
        routes.on("revokeDeviceKey", use: revoke)
    }

    @Sendable func create(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        let body = try request.decodeJSON(NewDeviceKeyRequest.self)
        let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard AccountRules.isValidName(name), !AccountRules.hasControlCharacters(body.name) else {
            throw APIError.badRequest(.invalidName, "name must be 1 to \(AccountRules.nameLengths.upperBound) characters, without control characters, e.g. \"Alice's phone\".")
        }
        let consumer = Consumer.make(name: name, userID: user.account.id, now: clock.now())
        try await consumers.create(consumer)
        request.logger.info("device key created", metadata: ["user": "\(user.account.id)", "key": "\(consumer.apiKey)"])
        let created = NewDeviceKeyDTO(key: consumer.apiKey, secret: consumer.secret, name: consumer.name,
                                      createdAt: consumer.createdAt)
        // The secret is shown once: no cache may keep it.
        let response = try Response.json(created, status: .created)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    @Sendable func list(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        let items = try await consumers.list(userID: user.account.id)
            .filter { $0.revokedAt == nil }
            .map { DeviceKeyDTO(key: $0.apiKey, name: $0.name, createdAt: $0.createdAt) }
        return try Response.json(Page(items: items, next: nil))
    }

    @Sendable func revoke(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        let key = request.parameters.get("key") ?? ""
        guard try await consumers.revoke(apiKey: key, userID: user.account.id, now: clock.now()) else {
            throw APIError(.notFound, .notFound, "You have no device key \(key).")
        }
        request.logger.info("device key revoked", metadata: ["user": "\(user.account.id)", "key": "\(key)"])
        return Response(status: .noContent)
    }
}
