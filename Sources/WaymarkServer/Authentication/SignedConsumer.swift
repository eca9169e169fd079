import Foundation
import NIOConcurrencyHelpers
import Vapor
import WaymarkAPI

/// The consumer a signed request came from (DESIGN §3.3).
struct SignedConsumer: Authenticatable {
    var consumerID: UUID
    /// The account whose device key signed it, if any.
    var userID: UUID?
    /// The request's nonce, when ``SignatureAuthenticator`` left it to the handler to record it
    /// in the handler's own transaction; `nil` when it was recorded before the handler ran.
    var nonce: NonceClaim? = nil
}

/// A request's nonce that the handler may record in its own transaction, together with what
/// the request writes, so that the request costs one commit instead of two.
///
/// Whatever the handler does, ``SignatureAuthenticator`` records the nonce on its own before
/// answering if the handler did not (an idempotent retry, a refused request, a failed
/// transaction): every request that passed the signature check burns its nonce.
final class NonceClaim: Sendable {
    private let state: NIOLockedValueBox<PendingNonce?>

    init(_ pending: PendingNonce) {
        state = NIOLockedValueBox(pending)
    }

    /// The nonce, until it has been recorded.
    var unrecorded: PendingNonce? { state.withLockedValue { $0 } }

    /// Called once the transaction that wrote the nonce has committed.
    func markRecorded() { state.withLockedValue { $0 = nil } }
}

extension SignedConsumer {
    /// The guard of every route that must be signed: an unsigned request gets `missing_signature`.
    static var required: any Middleware {
        SignedConsumer.guardMiddleware(throwing: APIError.unauthorized(
        .missingSignature,
        "Sign every request (signature version 2) with the \(APIHeader.key), \(APIHeader.timestamp), \(APIHeader.nonce), \(APIHeader.signedHeaders) and \(APIHeader.signature) headers."
        ))
    }
}

extension Request {
    /// The collected body as bytes (empty when there is none).
    var bodyBytes: [UInt8] {
        guard let buffer = body.data else { return [] }
        return buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? []
    }
}
