import Foundation
import NIOConcurrencyHelpers
import Vapor

/// The consumer a signed request came from.
struct SignedCaller: Sendable {
    var consumerID: UUID
    /// The request's nonce, when ``SignatureMiddleware`` left it to the handler to record it
    /// in the handler's own transaction; `nil` when it was recorded before the handler ran.
    var nonce: NonceClaim? = nil
}

/// A request's nonce that the handler may record in its own transaction, together with what
/// the request writes, so that the request costs one commit instead of two.
///
/// Whatever the handler does, ``SignatureMiddleware`` records the nonce on its own before
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

private struct SignedCallerKey: StorageKey {
    typealias Value = SignedCaller
}

extension Request {
    /// Set by ``SignatureMiddleware`` once the request's signature checked out.
    var signedCaller: SignedCaller? {
        get { storage[SignedCallerKey.self] }
        set { storage[SignedCallerKey.self] = newValue }
    }

    /// The caller, or a 401 if the route was registered without ``SignatureMiddleware``.
    func requireCaller() throws -> SignedCaller {
        guard let caller = signedCaller else {
            throw APIError.unauthorized("missing_signature", "This request must be signed.")
        }
        return caller
    }

    /// The collected body as bytes (empty when there is none).
    var bodyBytes: [UInt8] {
        guard let buffer = body.data else { return [] }
        return buffer.getBytes(at: buffer.readerIndex, length: buffer.readableBytes) ?? []
    }
}
