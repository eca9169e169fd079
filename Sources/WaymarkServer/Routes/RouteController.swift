import Fluent
import Vapor
import WaymarkAPI
import WaymarkCore

/// The route API of DESIGN §3.3. Every handler runs behind the request signature
/// (``SignatureAuthenticator`` and ``SignedConsumer/required``).
struct RouteController: Sendable {
    let store: any RouteStore

    /// Binds the handlers, each behind the signature check (the contract's default security).
    /// Uploads record their request's nonce in the transaction that stores the route (one commit
    /// per upload); lookups and deletes record it before they run.
    func register(on routes: ContractRoutes, app: any RoutesBuilder, signature: SignatureAuthenticator) {
        let body = HTTPBodyStreamStrategy.collect(maxSize: ByteCount(value: ServerConfiguration.maxBodySize))
        var uploadSignature = signature
        uploadSignature.nonceRecording = .withHandlersWrite
        let reads = routes.routing(.signature, to: app.grouped(signature, SignedConsumer.required))
        let uploads = routes.routing(.signature, to: app.grouped(uploadSignature, SignedConsumer.required))
        uploads.on("createRoute", body: body, use: createJSON)
        reads.on("findRouteByLookup", use: findByLookup)
        reads.on("getRoute", use: find)
        reads.on("deleteRoute", use: delete)
        uploads.on("createRouteBase64", body: body, use: createBase64)
    }

    @Sendable func createJSON(_ request: Request) async throws -> Response {
        let caller = try request.auth.require(SignedConsumer.self)
        let key = try IdempotencyKey.of(request)
        let route = try RouteRequestParser.parseJSON(request.bodyBytes)
        return try await create(route, caller: caller, key: key, request: request)
    }

    @Sendable func createBase64(_ request: Request) async throws -> Response {
        let caller = try request.auth.require(SignedConsumer.self)
        let key = try IdempotencyKey.of(request)
        let route = try RouteRequestParser.parseBase64(
            request.bodyBytes,
            lookup: request.headers.first(name: APIHeader.routeLookup),
            deleteTokenHash: request.headers.first(name: APIHeader.deleteTokenHash)
        )
        return try await create(route, caller: caller, key: key, request: request)
    }

    @Sendable func find(_ request: Request) async throws -> Response {
        let id = request.parameters.get("route_id") ?? ""
        guard let route = try await store.route(id: id) else { throw Self.notFound }
        return try record(route)
    }

    @Sendable func findByLookup(_ request: Request) async throws -> Response {
        let lookup = try RouteRequestParser.lookup(try? request.query.get(String.self, at: "lookup"))
        guard let route = try await store.route(lookup: lookup) else { throw Self.notFound }
        return try record(route)
    }

    @Sendable func delete(_ request: Request) async throws -> Response {
        guard let token = request.headers.first(name: APIHeader.deleteToken) else {
            throw APIError.badRequest(.invalidDeleteToken, "\(APIHeader.deleteToken) is missing.")
        }
        guard let presentedHash = try? RouteKeys.deleteTokenHash(token: token) else {
            throw APIError.badRequest(.invalidDeleteToken, "\(APIHeader.deleteToken) must be 64 hexadecimal digits.")
        }
        let id = request.parameters.get("route_id") ?? ""
        guard let route = try await store.route(id: id) else { throw Self.notFound }
        guard let storedHash = route.deleteTokenHash else {
            throw APIError(.forbidden, .notDeletable, "This route was stored without a delete-token hash, so it cannot be deleted.")
        }
        guard RequestSigning.constantTimeEqual(Array(presentedHash.utf8), Array(storedHash.utf8)) else {
            throw APIError(.forbidden, .wrongDeleteToken, "The delete token does not belong to this route.")
        }
        try await store.delete(id: id)
        request.logger.info("route deleted", metadata: ["route_id": "\(id)"])
        return Response(status: .noContent)
    }

    // MARK: - Helpers

    static let notFound = APIError(.notFound, .notFound, "No route has this id or lookup key.")

    private func create(_ route: NewRoute, caller: SignedConsumer, key: String?, request: Request) async throws -> Response {
        let outcome = try await store.create(route, consumerID: caller.consumerID, idempotencyKey: key, nonce: caller.nonce)
        switch outcome {
        case let .created(created), let .repeated(created):
            if case .created = outcome {
                request.logger.info("route stored", metadata: ["route_id": "\(created.routeID)"])
            } else {
                request.logger.info("idempotent retry answered", metadata: ["route_id": "\(created.routeID)"])
            }
            let response = try json(created, status: .created)
            response.headers.replaceOrAdd(name: .location, value: "/api/v1/routes/\(created.routeID)")
            return response
        case .keyReused:
            throw APIError(
                .conflict, .idempotencyKeyReused,
                "This \(APIHeader.idempotencyKey) was already used with a different request; use a new key for a new route."
            )
        }
    }

    private func record(_ route: StoredRoute) throws -> Response {
        let envelope = try RouteEnvelope.decode(json: Data(route.envelopeJSON.utf8))
        return try json(RouteRecord(routeID: route.id, creationTime: route.creationTime, envelope: envelope), status: .ok)
    }

    private func json<T: Encodable>(_ value: T, status: HTTPResponseStatus) throws -> Response {
        try Response.json(value, status: status)
    }
}
