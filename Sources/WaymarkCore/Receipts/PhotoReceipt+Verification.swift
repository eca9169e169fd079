import Crypto
import Foundation

/// What checking a receipt found, check by check (``PhotoReceipt/verify(image:trustedKey:)``).
public struct ReceiptVerification: Sendable, Equatable {
    /// One check's outcome.
    public enum Outcome: Sendable, Equatable {
        case passed
        /// Nothing was given to check against (no photo, no trusted key).
        case notChecked
        case failed(ReceiptCheckFailure)

        public var failed: Bool { if case .failed = self { true } else { false } }
    }

    /// The Ed25519 signature over the signed message, with the receipt's own public key.
    public var signature: Outcome
    /// The metadata's canonical SHA-256 against `sha256Metadata` (and the metadata's photo id and
    /// time against the receipt's).
    public var metadataHash: Outcome
    /// The photo's SHA-256 against `sha256Image`.
    public var imageHash: Outcome
    /// The receipt's public key against the one the verifier trusts.
    public var publicKey: Outcome

    /// Whether every check that was made passed (the signature and metadata always are).
    public var isValid: Bool { ![signature, metadataHash, imageHash, publicKey].contains(where: \.failed) }
}

/// Why a check failed.
public enum ReceiptCheckFailure: Sendable, Equatable {
    /// The signature is not 64 bytes (e.g. truncated).
    case signatureMalformed(bytes: Int)
    /// The public key is not 32 bytes.
    case publicKeyMalformed(bytes: Int)
    /// The signature does not verify: the signed message or the key is not the one signed.
    case signatureMismatch
    /// A hash recomputed here differs from the receipt's.
    case hashMismatch(receipt: String, computed: String)
    /// The metadata's `photoId` or `receivedAt` (the name) differs from the receipt's.
    case metadataDisagrees(member: String)
    /// The receipt was signed with another key than the trusted one.
    case keyMismatch(trusted: Data, receipt: Data)
}

extension PhotoReceipt {
    /// Checks the receipt: its signature (always), its metadata hash (always), the photo's bytes
    /// when given, and its public key against a trusted one when given (the server's published
    /// key, pinned by the verifier: without it, the signature only shows that whoever holds the
    /// receipt's key signed it).
    public func verify(image: Data?, trustedKey: Data?) -> ReceiptVerification {
        ReceiptVerification(signature: checkSignature(), metadataHash: checkMetadata(),
                            imageHash: image.map { checkImage(sha256: SHA256.hash(data: $0).hexString) } ?? .notChecked,
                            publicKey: trustedKey.map { $0 == publicKey ? .passed : .failed(.keyMismatch(trusted: $0, receipt: publicKey)) } ?? .notChecked)
    }

    /// The image check for a photo whose SHA-256 (lowercase hex) was computed elsewhere (e.g. streamed from a file).
    public func checkImage(sha256 computed: String) -> ReceiptVerification.Outcome {
        computed == sha256Image ? .passed : .failed(.hashMismatch(receipt: sha256Image, computed: computed))
    }

    private func checkSignature() -> ReceiptVerification.Outcome {
        guard publicKey.count == 32 else { return .failed(.publicKeyMalformed(bytes: publicKey.count)) }
        guard signature.count == 64 else { return .failed(.signatureMalformed(bytes: signature.count)) }
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return .failed(.publicKeyMalformed(bytes: publicKey.count)) }
        return key.isValidSignature(signature, for: message) ? .passed : .failed(.signatureMismatch)
    }

    private func checkMetadata() -> ReceiptVerification.Outcome {
        guard let computed = metadata.sha256 else { return .failed(.hashMismatch(receipt: sha256Metadata, computed: "")) }
        guard computed == sha256Metadata else { return .failed(.hashMismatch(receipt: sha256Metadata, computed: computed)) }
        if metadata.photoId != photoId { return .failed(.metadataDisagrees(member: "photoId")) }
        if metadata.receivedAt != receivedAt { return .failed(.metadataDisagrees(member: "receivedAt")) }
        return .passed
    }
}
