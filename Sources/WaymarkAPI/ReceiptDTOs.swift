import Foundation

/// The server's receipt key (`GET /api/v1/receipts/public-key`), for an agency to pin: receipts
/// whose `publicKey` is another one were not signed by this server's current key.
public struct ReceiptPublicKeyDTO: Codable, Sendable, Equatable {
    /// The raw 32-byte Ed25519 public key, standard base64.
    public var publicKey: String
    /// Always `Ed25519`.
    public var algorithm: String

    public init(publicKey: String, algorithm: String) {
        self.publicKey = publicKey
        self.algorithm = algorithm
    }
}
