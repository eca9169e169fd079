import Crypto
import CryptoExtras
import Foundation

extension RouteEnvelope {
    /// Encrypts a route with a passphrase, bound to the route's QR nonce (DESIGN §3.2).
    ///
    /// Salt and IV are fresh random bytes. scrypt at the default cost takes a noticeable
    /// fraction of a second and about 128 MiB of memory.
    ///
    /// - Parameters:
    ///   - route: The route; its fixes are written in the order given.
    ///   - passphrase: The photographer's passphrase (NFC-normalised before use).
    ///   - nonce: The QR nonce; the route opens only together with it.
    ///   - kdf: The key derivation to use.
    public static func seal(_ route: Route, passphrase: String, nonce: String, kdf: KDFChoice = .scrypt()) throws -> RouteEnvelope {
        try seal(.route, RoutePlaintext.encode(route), passphrase: passphrase, nonce: nonce, kdf: kdf)
    }

    /// Encrypts a secret that is not a route (an OwnTracks device's key) exactly as a route is
    /// sealed, with the associated data of `content`: it opens only as that, with its nonce.
    public static func seal(_ content: EnvelopeContent, _ plaintext: Data, passphrase: String, nonce: String,
                            kdf: KDFChoice = .scrypt()) throws -> RouteEnvelope {
        var generator = SystemRandomNumberGenerator()
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let iv = Data((0..<12).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let parameters: KDF
        switch kdf {
        case let .scrypt(n, r, p): parameters = .scrypt(n: n, r: r, p: p, salt: salt)
        case let .pbkdf2(iterations): parameters = .pbkdf2(iterations: iterations, salt: salt)
        }
        return try seal(plaintext: plaintext, passphrase: passphrase, nonce: nonce, kdf: parameters, iv: iv, content: content)
    }

    /// Opens what ``seal(_:_:passphrase:nonce:kdf:)`` sealed as `content`.
    ///
    /// - Throws: ``RouteEnvelopeError/cannotOpen`` for another passphrase, nonce or content.
    public func open(_ content: EnvelopeContent, passphrase: String, nonce: String) throws -> Data {
        try openPlaintext(master: masterKey(passphrase: passphrase), nonce: nonce, content: content)
    }

    /// Encrypts plaintext with fixed KDF parameters and IV (for known-answer tests).
    static func seal(plaintext: Data, passphrase: String, nonce: String, kdf: KDF, iv: Data, content: EnvelopeContent = .route) throws -> RouteEnvelope {
        let master = try Self.masterKey(passphrase: passphrase, kdf: kdf)
        let box = try AES.GCM.seal(plaintext, using: RouteKeys.encryptionKey(master: master),
                                   nonce: AES.GCM.Nonce(data: iv), authenticating: RouteKeys.associatedData(content, nonce: nonce))
        return RouteEnvelope(kdf: kdf, iv: iv, ct: box.ciphertext + box.tag)
    }

    /// Decrypts the route with the photographer's passphrase and the nonce from the QR photo.
    ///
    /// - Throws: ``RouteEnvelopeError/cannotOpen`` when the passphrase or the nonce do not
    ///   match this route; ``RouteEnvelopeError/malformedPlaintext(path:reason:)`` if it opens
    ///   but holds no route.
    public func open(passphrase: String, nonce: String) throws -> Route {
        try open(master: masterKey(passphrase: passphrase), nonce: nonce)
    }

    /// Decrypts the route with an already derived master key (see ``masterKey(passphrase:)``).
    public func open(master: SymmetricKey, nonce: String) throws -> Route {
        var route = try RoutePlaintext.decode(openPlaintext(master: master, nonce: nonce))
        if route.nonce == nil { route.nonce = nonce }
        return route
    }

    /// The decrypted plaintext bytes.
    func openPlaintext(master: SymmetricKey, nonce: String, content: EnvelopeContent = .route) throws -> Data {
        guard ct.count >= 16, let box = try? AES.GCM.SealedBox(
            nonce: AES.GCM.Nonce(data: iv), ciphertext: ct.prefix(ct.count - 16), tag: ct.suffix(16)) else {
            throw RouteEnvelopeError.malformed(field: "ct", reason: "is too short to hold the 16-byte tag")
        }
        do {
            return try AES.GCM.open(box, using: RouteKeys.encryptionKey(master: master),
                                    authenticating: RouteKeys.associatedData(content, nonce: nonce))
        } catch {
            throw RouteEnvelopeError.cannotOpen
        }
    }

    /// The master key this envelope's KDF derives from a passphrase.
    ///
    /// Deriving it is deliberately slow; derive it once to both open a route and compute its
    /// delete token (``RouteKeys/deleteToken(master:)``).
    public func masterKey(passphrase: String) throws -> SymmetricKey {
        try Self.masterKey(passphrase: passphrase, kdf: kdf)
    }

    /// `master` of DESIGN §3.2: scrypt or PBKDF2-HMAC-SHA256 over the NFC-normalised passphrase, 32 bytes.
    static func masterKey(passphrase: String, kdf: KDF) throws -> SymmetricKey {
        let secret = Data(passphrase.precomposedStringWithCanonicalMapping.utf8)
        guard !secret.isEmpty else { throw RouteEnvelopeError.emptyPassphrase }
        if let problem = kdf.problem {
            throw RouteEnvelopeError.unsupportedKDF("\(problem.key.stringValue) \(problem.reason)")
        }
        switch kdf {
        case let .scrypt(n, r, p, salt):
            return try scrypt(secret, salt: salt, n: n, r: r, p: p)
        case let .pbkdf2(iterations, salt):
            return try CryptoExtras.KDF.Insecure.PBKDF2.deriveKey(from: secret, salt: salt, using: .sha256,
                                                                  outputByteCount: 32, unsafeUncheckedRounds: iterations)
        }
    }

    /// swift-crypto's scrypt.
    ///
    /// swift-crypto 4.x does not pass `maxMemory` on to BoringSSL; its own limit,
    /// 128·n·r·p bytes plus a page, covers what BoringSSL needs for r ≤ 16, which
    /// ``KDF/problem`` enforces. The value passed here is what scrypt really uses.
    private static func scrypt(_ secret: Data, salt: Data, n: Int, r: Int, p: Int) throws -> SymmetricKey {
        do {
            return try CryptoExtras.KDF.Scrypt.deriveKey(from: secret, salt: salt, outputByteCount: 32, rounds: n,
                                                         blockSize: r, parallelism: p, maxMemory: 128 * r * (n + p + 2))
        } catch {
            throw RouteEnvelopeError.unsupportedKDF("scrypt with n = \(n), r = \(r), p = \(p) failed (\(error))")
        }
    }
}
