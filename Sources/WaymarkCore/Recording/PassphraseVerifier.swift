import Foundation

/// What the recorder keeps of the photographer's passphrase (SCO-09…12): an scrypt hash that
/// tells whether a later passphrase matches, and nothing that opens a route.
public struct PassphraseVerifier: Sendable, Hashable, Codable {
    /// scrypt cost parameters and the 16-byte random salt.
    public var n: Int
    public var r: Int
    public var p: Int
    public var salt: Data
    /// scrypt(NFC passphrase, salt, n, r, p, 32 bytes).
    public var hash: Data

    public init(n: Int, r: Int, p: Int, salt: Data, hash: Data) {
        self.n = n
        self.r = r
        self.p = p
        self.salt = salt
        self.hash = hash
    }
}
