import Vapor
import WaymarkAPI
import WaymarkCore

/// Checks the request signature, version 2, of DESIGN §3.3, refuses replays, and logs the
/// consumer in (``SignedConsumer``). A request without any of the signing headers passes on
/// unauthenticated, for ``SignedConsumer/required`` (or another authenticator) to decide.
///
/// Order: a declared body size within the limit; the five signing headers present (a request
/// signed without `X-API-Nonce`, as version 1 did, gets `signature_version`); a readable
/// timestamp and nonce; `X-API-Signed-Headers` naming only headers the request carries, each
/// once, and every header of ``RequestSigning/headersThatMustBeSigned`` the request carries;
/// the timestamp within ``RequestSigning/maxClockSkew``; the key known and not revoked; the
/// body within the size limit; the signature right (constant-time); and the nonce not seen
/// before from this consumer. An idempotent retry is a new request with a new nonce: a
/// replayed nonce is refused whatever the method.
///
/// When the nonce is recorded is ``NonceRecording``: before the handler runs (lookups and
/// deletes), or by a handler that writes, in its own transaction (uploads); either way it is
/// committed before the answer leaves, and a request that passed the signature check burns
/// its nonce whatever the answer — a nonce that was seen is never accepted twice.
///
/// Nothing secret is logged: neither the secret, the signature nor the body.
struct SignatureAuthenticator: AsyncAuthenticator {
    /// When the nonce of a request that passed the signature check is recorded.
    enum NonceRecording: Sendable {
        /// In a commit of its own before the handler runs: a replay never reaches the handler.
        case beforeHandler
        /// By the handler, in the transaction that stores what the request writes (see
        /// ``NonceClaim``); if the handler did not, in a commit of its own after it, and a
        /// replay then gets `replayed_request` instead of the handler's answer.
        case withHandlersWrite
    }

    let consumers: any ConsumerStore
    let nonces: any NonceStore
    /// The server's clock, which timestamps are checked against.
    let clock: WallClock
    var nonceRecording: NonceRecording = .beforeHandler
    var maxBodySize: Int = ServerConfiguration.maxBodySize

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let signingHeaderNames = [APIHeader.key, APIHeader.timestamp, APIHeader.nonce, APIHeader.signedHeaders, APIHeader.signature]
        guard signingHeaderNames.contains(where: { request.headers.contains(name: $0) }) else {
            return try await next.respond(to: request)
        }
        if let length = request.headers.first(name: .contentLength).flatMap(Int.init), length > maxBodySize {
            throw APIError.payloadTooLarge
        }
        let signing = try Self.signingHeaders(request.headers)
        let nowSeconds = clock.unixSeconds
        guard abs(nowSeconds - signing.timestamp) <= RequestSigning.maxClockSkew else {
            throw APIError.unauthorized(
                .staleTimestamp,
                "\(APIHeader.timestamp) is \(abs(nowSeconds - signing.timestamp)) s away from the server's clock; at most \(RequestSigning.maxClockSkew) s is accepted. Check the client's clock."
            )
        }
        guard let consumer = try await consumers.consumer(apiKey: signing.apiKey), consumer.revokedAt == nil else {
            throw APIError.unauthorized(.unknownKey, "The API key is unknown or has been revoked.")
        }
        let body = try await collectBody(request)
        let verified = RequestSigning.verify(
            presented: signing.signature, secret: consumer.secret, method: request.method.rawValue,
            target: request.url.string, timestamp: signing.timestamp, nonce: signing.nonce,
            bodyHash: RequestSigning.bodyHash(body), signedHeaders: signing.signedHeaders
        )
        guard verified else {
            throw APIError.unauthorized(.badSignature, "The signature does not match this request and the key's secret.")
        }
        let consumerID = consumer.id
        let pending = PendingNonce(consumerID: consumerID, nonce: signing.nonce, timestamp: signing.timestamp)
        request.logger[metadataKey: "consumer"] = "\(consumerID)"
        switch nonceRecording {
        case .beforeHandler:
            guard try await nonces.recordFirstUse(pending) else { throw Self.replayed }
            request.auth.login(SignedConsumer(consumerID: consumerID, userID: consumer.userID))
            return try await next.respond(to: request)
        case .withHandlersWrite:
            let claim = NonceClaim(pending)
            request.auth.login(SignedConsumer(consumerID: consumerID, userID: consumer.userID, nonce: claim))
            let answer: Result<Response, any Error>
            do {
                answer = .success(try await next.respond(to: request))
            } catch {
                answer = .failure(error)
            }
            if let unrecorded = claim.unrecorded {
                guard try await nonces.recordFirstUse(unrecorded) else { throw Self.replayed }
                claim.markRecorded()
            }
            return try answer.get()
        }
    }

    private static let replayed = APIError.unauthorized(
        .replayedRequest,
        "This \(APIHeader.nonce) was used before; sign every request, retries included, with a fresh nonce."
    )

    /// The signing headers of a request, read and checked without the secret.
    struct SigningHeaders {
        var apiKey: String
        var timestamp: Int
        var nonce: String
        var signature: String
        /// (lowercase name, value as received) in signing order.
        var signedHeaders: [(name: String, value: String)]
    }

    static func signingHeaders(_ headers: HTTPHeaders) throws -> SigningHeaders {
        let signature = headers.first(name: APIHeader.signature)
        guard let nonce = headers.first(name: APIHeader.nonce) else {
            if signature != nil {
                throw APIError.unauthorized(
                    .signatureVersion,
                    "This request has no \(APIHeader.nonce): request signature version 2 is required (DESIGN §3.3). Sign with \(APIHeader.key), \(APIHeader.timestamp), \(APIHeader.nonce), \(APIHeader.signedHeaders) and \(APIHeader.signature)."
                )
            }
            throw Self.missing
        }
        guard let apiKey = headers.first(name: APIHeader.key), !apiKey.isEmpty,
              let timestampText = headers.first(name: APIHeader.timestamp),
              let signedList = headers.first(name: APIHeader.signedHeaders),
              let signature, !signature.isEmpty
        else {
            throw Self.missing
        }
        guard let timestamp = Int(timestampText) else {
            throw APIError.unauthorized(.badSignature, "\(APIHeader.timestamp) must be whole Unix seconds.")
        }
        guard RequestSigning.isValidNonce(nonce) else {
            throw APIError.unauthorized(
                .badSignature,
                "\(APIHeader.nonce) must be \(RequestSigning.nonceLengths.lowerBound) to \(RequestSigning.nonceLengths.upperBound) characters of A-Z, a-z, 0-9, _ and -, fresh for every request."
            )
        }
        let list = RequestSigning.trimmed(signedList)
        let names = list.isEmpty ? [] : list.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var signed: [(name: String, value: String)] = []
        for name in names {
            guard !name.isEmpty, name == name.lowercased(), !signed.contains(where: { $0.name == name }) else {
                throw APIError.unauthorized(
                    .badSignature,
                    "\(APIHeader.signedHeaders) must list distinct lowercase header names separated by \";\"."
                )
            }
            let values = headers[name]
            guard values.count == 1, let value = values.first else {
                throw APIError.unauthorized(
                    .badSignature,
                    values.isEmpty
                        ? "\(APIHeader.signedHeaders) names \(name), which this request does not carry."
                        : "\(name) appears more than once; a signed header must appear once."
                )
            }
            signed.append((name, value))
        }
        for name in RequestSigning.headersThatMustBeSigned where headers.contains(name: name) {
            guard signed.contains(where: { $0.name == name }) else {
                throw APIError.unauthorized(
                    .unsignedHeader,
                    "This request carries \(name) without signing it; list it in \(APIHeader.signedHeaders) (\(RequestSigning.headersThatMustBeSigned.joined(separator: ", ")) must be signed whenever present)."
                )
            }
        }
        return SigningHeaders(apiKey: apiKey, timestamp: timestamp, nonce: nonce, signature: signature, signedHeaders: signed)
    }

    private static let missing = APIError.unauthorized(
        .missingSignature,
        "Sign every request (signature version 2) with the \(APIHeader.key), \(APIHeader.timestamp), \(APIHeader.nonce), \(APIHeader.signedHeaders) and \(APIHeader.signature) headers."
    )

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
