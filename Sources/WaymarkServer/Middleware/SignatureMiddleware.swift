import Fluent
import Vapor
import WaymarkAPI

/// Checks the request signature of DESIGN §3.3 and refuses replays.
///
/// Order: a declared body size within the limit, the three headers present, timestamp within ``RequestSigning/maxClockSkew``, key
/// known and not revoked, body within the size limit, signature right (constant-time), and
/// signature not seen before. A replayed POST with an `Idempotency-Key` passes, marked as a
/// replay: the idempotency record makes it answer what the first one answered.
///
/// Nothing secret is logged: neither the secret, the signature nor the body.
struct SignatureMiddleware: AsyncMiddleware {
    var maxBodySize: Int = ServerConfiguration.maxBodySize

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if let length = request.headers.first(name: .contentLength).flatMap(Int.init), length > maxBodySize {
            throw APIError.payloadTooLarge
        }
        guard let apiKey = request.headers.first(name: APIHeader.key), !apiKey.isEmpty,
              let timestampText = request.headers.first(name: APIHeader.timestamp),
              let signature = request.headers.first(name: APIHeader.signature), !signature.isEmpty
        else {
            throw APIError.unauthorized(
                "missing_signature",
                "Sign every request with the \(APIHeader.key), \(APIHeader.timestamp) and \(APIHeader.signature) headers."
            )
        }
        guard let timestamp = Int(timestampText) else {
            throw APIError.unauthorized("bad_signature", "\(APIHeader.timestamp) must be whole Unix seconds.")
        }
        let now = Int(Date().timeIntervalSince1970)
        guard abs(now - timestamp) <= RequestSigning.maxClockSkew else {
            throw APIError.unauthorized(
                "stale_timestamp",
                "\(APIHeader.timestamp) is \(abs(now - timestamp)) s away from the server's clock; at most \(RequestSigning.maxClockSkew) s is accepted. Check the client's clock."
            )
        }
        guard let consumer = try await ConsumerModel.query(on: request.quietDB).filter(\.$apiKey == apiKey).first(),
              consumer.revokedAt == nil, let consumerID = consumer.id
        else {
            throw APIError.unauthorized("unknown_key", "The API key is unknown or has been revoked.")
        }
        let body = try await collectBody(request)
        let verified = RequestSigning.verify(
            presented: signature, secret: consumer.secret, method: request.method.rawValue,
            target: request.url.string, timestamp: timestamp, bodyHash: RequestSigning.bodyHash(body)
        )
        guard verified else {
            throw APIError.unauthorized("bad_signature", "The signature does not match this request and the key's secret.")
        }
        let firstUse = try await ReplayStore(database: request.quietDB)
            .recordFirstUse(apiKey: apiKey, signature: signature, timestamp: timestamp)
        if !firstUse {
            guard request.method == .POST, request.headers.first(name: APIHeader.idempotencyKey) != nil else {
                throw APIError.unauthorized("replayed_request", "This signature was used before; sign each request anew.")
            }
            request.logger.info("replayed request with an Idempotency-Key; answering from the idempotency record")
        }
        request.logger[metadataKey: "consumer"] = "\(consumerID)"
        request.signedCaller = SignedCaller(consumerID: consumerID, isReplay: !firstUse)
        return try await next.respond(to: request)
    }

    /// Collects the body (which the route then reuses), refusing more than `maxBodySize`.
    private func collectBody(_ request: Request) async throws -> [UInt8] {
        let buffer: ByteBuffer?
        do {
            buffer = try await request.body.collect(max: maxBodySize).get()
        } catch let error as any AbortError where error.status == .payloadTooLarge {
            throw APIError.payloadTooLarge
        }
        guard let buffer else { return [] }
        guard buffer.readableBytes <= maxBodySize else { throw APIError.payloadTooLarge }
        return buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? []
    }
}
