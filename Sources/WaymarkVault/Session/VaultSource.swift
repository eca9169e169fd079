import Crypto
import Foundation

/// The names under which the cache remembers what it has imported (``VaultCache/add(_:source:)``),
/// so the same route or file is not added twice.
public enum VaultSource {
    /// A route of the recorder's store, by its QR nonce: `route:<nonce>`.
    public static func route(nonce: String) -> String { "route:\(nonce)" }

    /// A track file, by its content: `file:<lowercase hex SHA-256 of its bytes>` (the same track
    /// under another name is the same source; an edited file is a new one).
    public static func file(contents: Data) -> String {
        "file:" + SHA256.hash(data: contents).map { String(format: "%02x", $0) }.joined()
    }
}
