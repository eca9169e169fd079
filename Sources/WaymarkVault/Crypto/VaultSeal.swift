internal import CWaymarkMedia
import Crypto
import Foundation

/// A record sealed for a repository: `{"value","nonce","version":"0.4"}`, lowercase hex.
public struct SealedItem: Codable, Sendable, Equatable {
    /// hex(crypto_box_easy(record JSON)): the 16-byte tag, then the ciphertext.
    public var value: String
    /// hex of the 24-byte nonce.
    public var nonce: String
    /// Always ``VaultSeal/version``.
    public var version: String

    public init(value: String, nonce: String, version: String = VaultSeal.version) {
        self.value = value
        self.nonce = nonce
        self.version = version
    }

    /// The JSON sent to the vault, keys in the seed's order (value, nonce, version).
    public func json() -> Data {
        Data("{\"value\":\"\(value)\",\"nonce\":\"\(nonce)\",\"version\":\"\(version)\"}".utf8)
    }
}

/// The vault's encryption (DESIGN §3.11, the seed's "Encrypting data"): libsodium's
/// `crypto_box_easy` to the repository's public key, from the fixed sender secret key
/// SHA-256("auth") — the seed's `sodium::auth_encrypt` with its `authentication_key`.
public enum VaultSeal {
    /// The `version` of every sealed item.
    public static let version = "0.4"

    /// SHA-256 of the UTF-8 bytes of "auth": the sender's secret key the seed prescribes (not a secret).
    public static var senderSecretKey: [UInt8] { Array(SHA256.hash(data: Data("auth".utf8))) }

    /// The X25519 public key of ``senderSecretKey`` (crypto_scalarmult_base); the repository opens with it.
    public static var senderPublicKey: [UInt8] {
        var key = [UInt8](repeating: 0, count: Int(WM_BOX_PUBLIC_KEY_BYTES))
        let secret = senderSecretKey
        // crypto_scalarmult_base cannot fail for a 32-byte scalar once libsodium is initialised.
        _ = wm_box_public_key(&key, secret)
        return key
    }

    /// Seals `plaintext` for the repository: a fresh random 24-byte nonce unless one is given (tests).
    public static func seal(_ plaintext: Data, to repositoryKey: RepositoryKey, nonce: [UInt8]? = nil) throws(VaultError) -> SealedItem {
        let nonceBytes: [UInt8]
        if let nonce {
            guard nonce.count == Int(WM_BOX_NONCE_BYTES) else { throw .crypto("a nonce has 24 bytes, not \(nonce.count)") }
            nonceBytes = nonce
        } else {
            nonceBytes = try randomBytes(Int(WM_BOX_NONCE_BYTES))
        }
        guard repositoryKey.bytes.count == Int(WM_BOX_PUBLIC_KEY_BYTES) else { throw .invalidKey("\(repositoryKey.bytes.count) bytes instead of 32") }
        let message = [UInt8](plaintext)
        var box = [UInt8](repeating: 0, count: message.count + Int(WM_BOX_MAC_BYTES))
        let secret = senderSecretKey
        let status = wm_box_easy(&box, message, message.count, nonceBytes, repositoryKey.bytes, secret)
        guard status == 0 else { throw .crypto("libsodium could not seal the record") }
        return SealedItem(value: Hex.encode(box), nonce: Hex.encode(nonceBytes), version: version)
    }

    /// Opens a sealed item with the repository's secret key (the vault's side: for tests and tools).
    public static func open(_ item: SealedItem, secretKey: [UInt8]) throws(VaultError) -> Data {
        guard item.version == version else { throw .crypto("version \(item.version) is not \(version)") }
        guard let box = Hex.decode(item.value) else { throw .crypto("the value is not hexadecimal") }
        guard let nonce = Hex.decode(item.nonce), nonce.count == Int(WM_BOX_NONCE_BYTES) else { throw .crypto("the nonce is not 24 bytes of hexadecimal") }
        guard secretKey.count == Int(WM_BOX_SECRET_KEY_BYTES) else { throw .crypto("a secret key has 32 bytes, not \(secretKey.count)") }
        guard box.count >= Int(WM_BOX_MAC_BYTES) else { throw .crypto("the value is shorter than its tag") }
        var message = [UInt8](repeating: 0, count: box.count - Int(WM_BOX_MAC_BYTES))
        let senderPublic = senderPublicKey
        guard wm_box_open_easy(&message, box, box.count, nonce, senderPublic, secretKey) == 0 else {
            throw .crypto("the box does not open with this key (forged, damaged, or sealed for another key)")
        }
        return Data(message)
    }

    /// The public key of a secret key (crypto_scalarmult_base): for tests and tools making key pairs.
    public static func publicKey(secretKey: [UInt8]) throws(VaultError) -> RepositoryKey {
        guard secretKey.count == Int(WM_BOX_SECRET_KEY_BYTES) else { throw .crypto("a secret key has 32 bytes, not \(secretKey.count)") }
        var key = [UInt8](repeating: 0, count: Int(WM_BOX_PUBLIC_KEY_BYTES))
        guard wm_box_public_key(&key, secretKey) == 0 else { throw .crypto("libsodium refused the secret key") }
        return try RepositoryKey(hex: Hex.encode(key))
    }

    /// `count` bytes from the system's CSPRNG (libsodium's randombytes_buf).
    public static func randomBytes(_ count: Int) throws(VaultError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard wm_random_bytes(&bytes, count) == 0 else { throw .crypto("libsodium could not be initialised (no entropy source)") }
        return bytes
    }
}
