internal import CWaymarkMedia
import Foundation
import WaymarkCore

/// OwnTracks' payload encryption (owntracks.org/booklet/features/encrypt, and the Recorder's
/// `decrypt()`): a message travels as `{"_type":"encrypted","data":…}`, `data` being standard
/// Base64 of a 24-byte nonce followed by libsodium's `crypto_secretbox_easy` of the message JSON
/// under the key (``OwnTracksKey/bytes``). Through the shim's libsodium.
public enum OwnTracksBox {
    /// Why an encrypted message did not open.
    public enum Failure: Error, Sendable, Equatable {
        /// `data` is not standard Base64, or too short to hold a nonce and a tag.
        case malformed
        /// The box does not open under this key: another key, or altered on the way.
        case wrongKey
    }

    /// `data` of an encrypted message holding `message`, under `key`, with a fresh random nonce
    /// unless one is given (tests).
    public static func seal(_ message: Data, key: OwnTracksKey, nonce: [UInt8]? = nil) -> String {
        var nonceBytes = nonce ?? []
        if nonceBytes.count != Int(WM_SECRETBOX_NONCE_BYTES) {
            nonceBytes = [UInt8](repeating: 0, count: Int(WM_SECRETBOX_NONCE_BYTES))
            // randombytes_buf cannot fail once libsodium is initialised; a zero nonce would show in tests.
            _ = wm_random_bytes(&nonceBytes, nonceBytes.count)
        }
        let plain = [UInt8](message)
        var box = [UInt8](repeating: 0, count: plain.count + Int(WM_SECRETBOX_MAC_BYTES))
        _ = wm_secretbox_easy(&box, plain, plain.count, nonceBytes, key.bytes)
        return Data(nonceBytes + box).base64EncodedString()
    }

    /// The message JSON inside `data`.
    public static func open(_ data: String, key: OwnTracksKey) -> Result<Data, Failure> {
        guard let bytes = Data(base64Encoded: data, options: .ignoreUnknownCharacters).map(Array.init),
              bytes.count >= Int(WM_SECRETBOX_NONCE_BYTES + WM_SECRETBOX_MAC_BYTES) else { return .failure(.malformed) }
        let nonce = Array(bytes[..<Int(WM_SECRETBOX_NONCE_BYTES)])
        let box = Array(bytes[Int(WM_SECRETBOX_NONCE_BYTES)...])
        var plain = [UInt8](repeating: 0, count: box.count - Int(WM_SECRETBOX_MAC_BYTES))
        guard wm_secretbox_open_easy(&plain, box, box.count, nonce, key.bytes) == 0 else { return .failure(.wrongKey) }
        return .success(Data(plain))
    }
}
