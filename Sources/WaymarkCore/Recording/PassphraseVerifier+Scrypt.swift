import Crypto
import Foundation

/// Why a passphrase was refused.
public enum PassphraseError: Error, Equatable, CustomStringConvertible {
    /// Empty, or only whitespace (SCO-07, SCO-08).
    case empty

    public var description: String {
        switch self {
        case .empty:
            return "The passphrase is empty or only spaces. Type a passphrase: it is the only way to open your routes later."
        }
    }
}

/// The rules a passphrase must meet before it is used (SCO-07, SCO-08).
public enum Passphrase {
    /// The passphrase to use, or an error when it is empty or only whitespace.
    ///
    /// Leading and trailing whitespace only decide whether it is empty; the passphrase
    /// returned is the text as typed, because the route opener (`waymark tag`) uses the
    /// passphrase exactly as given, and both must derive the same key.
    public static func validate(_ text: String) throws -> String {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw PassphraseError.empty }
        return text
    }
}

extension PassphraseVerifier {
    /// A verifier for a new passphrase (SCO-09): scrypt with a fresh 16-byte random salt.
    ///
    /// It is the route envelope's own key derivation (DESIGN §3.2, NFC-normalised), under a
    /// salt no envelope uses, so it tells whether a passphrase matches and opens no route.
    /// At the default cost it takes a noticeable fraction of a second and about 128 MiB.
    ///
    /// - Throws: ``PassphraseError/empty`` for an empty passphrase;
    ///   ``RouteEnvelopeError/unsupportedKDF(_:)`` for cost parameters out of range.
    public static func make(passphrase: String, n: Int = 131_072, r: Int = 8, p: Int = 1) throws -> PassphraseVerifier {
        var generator = SystemRandomNumberGenerator()
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let hash = try derive(passphrase: Passphrase.validate(passphrase), n: n, r: r, p: p, salt: salt)
        return PassphraseVerifier(n: n, r: r, p: p, salt: salt, hash: hash)
    }

    /// Whether `passphrase` is the one this verifier was made from (SCO-10).
    ///
    /// The comparison takes the same time wherever the hashes differ.
    ///
    /// - Throws: ``PassphraseError/empty`` for an empty passphrase;
    ///   ``RouteEnvelopeError/unsupportedKDF(_:)`` when the stored parameters are damaged.
    public func matches(_ passphrase: String) throws -> Bool {
        let candidate = try Self.derive(passphrase: Passphrase.validate(passphrase), n: n, r: r, p: p, salt: salt)
        return Self.constantTimeEqual(candidate, hash)
    }

    /// scrypt(NFC passphrase, salt, n, r, p, 32 bytes), through the envelope's derivation.
    static func derive(passphrase: String, n: Int, r: Int, p: Int, salt: Data) throws -> Data {
        try RouteEnvelope.masterKey(passphrase: passphrase, kdf: .scrypt(n: n, r: r, p: p, salt: salt))
            .withUnsafeBytes { Data($0) }
    }

    /// Equality that looks at every byte whatever the first difference.
    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
