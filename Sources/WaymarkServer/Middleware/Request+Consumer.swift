import Foundation
import Vapor

/// The consumer a signed request came from.
struct SignedCaller: Sendable {
    var consumerID: UUID
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
