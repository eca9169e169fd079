import Crypto
import Foundation

/// Why the upload of a stopped route could not be prepared.
public enum RouteUploadError: Error, Equatable, CustomStringConvertible {
    /// The route carries no QR nonce, so neither its envelope nor its lookup key can be made.
    case missingNonce

    public var description: String {
        switch self {
        case .missingNonce:
            return "The route has no QR nonce, so it cannot be encrypted for upload. This is a recorder bug: every recording starts with a nonce; report it with the route's id."
        }
    }
}

extension RouteUpload {
    /// Prepares everything the upload of a stopped route will send, once, so that every retry
    /// sends the same bytes under the same idempotency key (DESIGN §3.2, §3.3).
    ///
    /// The master key is derived from the passphrase once (scrypt is deliberately slow) and
    /// gives both the envelope's encryption key and the route's delete token.
    ///
    /// - Parameters:
    ///   - route: The route; `route.nonce` must be set. Its fixes are written in the order given.
    ///   - passphrase: The photographer's passphrase (NFC-normalised before use).
    ///   - kdf: The key derivation; DESIGN §3.2's scrypt parameters by default.
    /// - Throws: ``RouteUploadError/missingNonce``, or a ``RouteEnvelopeError`` for an empty
    ///   passphrase or KDF parameters out of range.
    public static func seal(route: Route, passphrase: String, kdf: RouteEnvelope.KDFChoice = .scrypt()) throws -> RouteUpload {
        guard let nonce = route.nonce, !nonce.isEmpty else { throw RouteUploadError.missingNonce }
        var generator = SystemRandomNumberGenerator()
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let iv = Data((0..<12).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let parameters: RouteEnvelope.KDF
        switch kdf {
        case let .scrypt(n, r, p): parameters = .scrypt(n: n, r: r, p: p, salt: salt)
        case let .pbkdf2(iterations): parameters = .pbkdf2(iterations: iterations, salt: salt)
        }
        let master = try RouteEnvelope.masterKey(passphrase: passphrase, kdf: parameters)
        let box = try AES.GCM.seal(RoutePlaintext.encode(route), using: RouteKeys.encryptionKey(master: master),
                                   nonce: AES.GCM.Nonce(data: iv), authenticating: RouteKeys.associatedData(nonce: nonce))
        let envelope = RouteEnvelope(kdf: parameters, iv: iv, ct: box.ciphertext + box.tag)
        let deleteToken = RouteKeys.deleteToken(master: master)
        return RouteUpload(envelope: envelope.jsonData(), lookupKey: RouteKeys.lookupKey(nonce: nonce), deleteToken: deleteToken,
                           deleteTokenHash: try RouteKeys.deleteTokenHash(token: deleteToken),
                           idempotencyKey: UUID().uuidString.lowercased())
    }
}
