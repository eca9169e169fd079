import Foundation
import WaymarkAPI

/// Photo receipts (DESIGN §3.10).
extension PlatformClient {
    /// The key the server signs photo receipts with (`GET /api/v1/receipts/public-key`; no account needed).
    public func receiptPublicKey() async throws -> ReceiptPublicKeyDTO {
        try await json("receiptPublicKey", body: Optional<String>.none, expecting: 200)
    }
}
