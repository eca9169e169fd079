import Crypto
import Foundation

/// A photo's receipt (DESIGN §3.10): the server's Ed25519 signature over the SHA-256 of the
/// uploaded bytes and of the metadata it stored, so that anyone holding the receipt, the photo
/// and the server's public key can check that neither changed after the server received them.
///
/// The JSON form (`GET /api/v1/photos/{id}/receipt`, ``json``):
/// `{"algorithm": "Ed25519", "metadata": {…}, "photoId", "publicKey", "receivedAt",
/// "sha256Image", "sha256Metadata", "signature"}`, where `metadata` is the object of
/// ``ReceiptMetadata``, the hashes are lowercase hex, and `signature` (64 bytes) and `publicKey`
/// (32 bytes, the raw Ed25519 key of RFC 8032) are standard base64.
///
/// The signature is Ed25519 (RFC 8032, pure) over the UTF-8 bytes of ``message(photoId:sha256Image:sha256Metadata:receivedAt:)``:
///
///     waymark-photo-receipt-v1\n<photoId>\n<sha256Image>\n<sha256Metadata>\n<receivedAt>\n
///
/// each field exactly as the receipt's JSON writes it, each line ending in a line feed.
/// `sha256Metadata` is the SHA-256 of the metadata's canonical text (RFC 8785, ``CanonicalJSON``),
/// which a verifier recomputes from the `metadata` object (`JSON.stringify` with sorted members in
/// JavaScript writes the same bytes).
public struct PhotoReceipt: Sendable, Equatable {
    /// The only signature algorithm.
    public static let algorithm = "Ed25519"
    /// The first line of every signed message, so that a receipt's signature can never be taken
    /// for the server's signature of anything else.
    public static let domain = "waymark-photo-receipt-v1"
    /// The members of the JSON form.
    public static let memberNames: Set<String> = ["algorithm", "metadata", "photoId", "publicKey", "receivedAt", "sha256Image", "sha256Metadata", "signature"]

    public var photoId: UUID
    /// Lowercase hex SHA-256 of the uploaded bytes.
    public var sha256Image: String
    /// Lowercase hex SHA-256 of the metadata's canonical text.
    public var sha256Metadata: String
    public var metadata: ReceiptMetadata
    /// RFC 3339 UTC with milliseconds, as in the metadata.
    public var receivedAt: String
    /// The Ed25519 signature (64 bytes when intact).
    public var signature: Data
    /// The signer's raw Ed25519 public key (32 bytes when intact).
    public var publicKey: Data

    public init(photoId: UUID, sha256Image: String, sha256Metadata: String, metadata: ReceiptMetadata, receivedAt: String, signature: Data, publicKey: Data) {
        self.photoId = photoId
        self.sha256Image = sha256Image
        self.sha256Metadata = sha256Metadata
        self.metadata = metadata
        self.receivedAt = receivedAt
        self.signature = signature
        self.publicKey = publicKey
    }

    /// The bytes that are signed (see the type's description).
    public static func message(photoId: UUID, sha256Image: String, sha256Metadata: String, receivedAt: String) -> Data {
        Data("\(domain)\n\(photoId.uuidString.lowercased())\n\(sha256Image)\n\(sha256Metadata)\n\(receivedAt)\n".utf8)
    }

    /// This receipt's signed bytes.
    public var message: Data {
        Self.message(photoId: photoId, sha256Image: sha256Image, sha256Metadata: sha256Metadata, receivedAt: receivedAt)
    }

    /// Signs a receipt for a photo whose bytes hash to `sha256Image`.
    /// - Throws: ``ReceiptError/invalidMember(_:)`` (`metadata`) when a number is not finite,
    ///   `sha256Image` when it is not 64 lowercase hex digits.
    public static func issue(metadata: ReceiptMetadata, sha256Image: String, key: Curve25519.Signing.PrivateKey) throws(ReceiptError) -> PhotoReceipt {
        guard isHex64(sha256Image) else { throw .invalidMember("sha256Image") }
        guard let sha256Metadata = metadata.sha256 else { throw .invalidMember("metadata") }
        let message = message(photoId: metadata.photoId, sha256Image: sha256Image, sha256Metadata: sha256Metadata, receivedAt: metadata.receivedAt)
        let signature: Data
        do {
            signature = try key.signature(for: message)
        } catch {
            throw .signingFailed
        }
        return PhotoReceipt(photoId: metadata.photoId, sha256Image: sha256Image, sha256Metadata: sha256Metadata, metadata: metadata,
                            receivedAt: metadata.receivedAt, signature: signature, publicKey: key.publicKey.rawRepresentation)
    }

    /// The receipt's JSON, canonical (RFC 8785): members sorted, no whitespace.
    public var json: String {
        let value = CanonicalJSON.Value.object([
            "algorithm": .string(Self.algorithm),
            "metadata": metadata.value,
            "photoId": .string(photoId.uuidString.lowercased()),
            "publicKey": .string(publicKey.base64EncodedString()),
            "receivedAt": .string(receivedAt),
            "sha256Image": .string(sha256Image),
            "sha256Metadata": .string(sha256Metadata),
            "signature": .string(signature.base64EncodedString()),
        ])
        return CanonicalJSON.text(value) ?? "{}"
    }

    /// Reads a receipt strictly: a JSON object with exactly the members of ``memberNames``,
    /// `algorithm` `Ed25519`, a lowercase UUID, hashes of 64 lowercase hex digits, base64 key and
    /// signature, and metadata as ``ReceiptMetadata`` reads it. Lengths of the key and signature
    /// are checked by ``verify(image:trustedKey:)``, which says which check fails.
    public init(json data: Data) throws(ReceiptError) {
        do {
            self = try JSONDecoder().decode(Wire.self, from: data).receipt
        } catch let error as ReceiptError {
            throw error
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
                let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw .invalidMember(context.codingPath[0].stringValue)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalidMember(context.codingPath.first?.stringValue ?? key.stringValue)
        } catch {
            throw .notJSON
        }
    }

    static func isHex64(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The JSON form as read.
    private struct Wire: Decodable {
        var receipt: PhotoReceipt

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: ReceiptJSONKey.self) else { throw ReceiptError.notAnObject }
            let names = Set(container.allKeys.map(\.stringValue))
            guard names == PhotoReceipt.memberNames else {
                throw ReceiptError.members(missing: PhotoReceipt.memberNames.subtracting(names).sorted(), unknown: names.subtracting(PhotoReceipt.memberNames).sorted())
            }
            func text(_ name: String) throws -> String {
                guard let value = try? container.decode(String.self, forKey: ReceiptJSONKey(stringValue: name)) else { throw ReceiptError.invalidMember(name) }
                return value
            }
            func base64(_ name: String) throws -> Data {
                guard let data = Data(base64Encoded: try text(name)) else { throw ReceiptError.invalidMember(name) }
                return data
            }
            let algorithm = try text("algorithm")
            guard algorithm == PhotoReceipt.algorithm else { throw ReceiptError.unknownAlgorithm(algorithm) }
            let id = try text("photoId")
            guard id == id.lowercased(), let photoId = UUID(uuidString: id) else { throw ReceiptError.invalidMember("photoId") }
            let sha256Image = try text("sha256Image"), sha256Metadata = try text("sha256Metadata")
            guard PhotoReceipt.isHex64(sha256Image) else { throw ReceiptError.invalidMember("sha256Image") }
            guard PhotoReceipt.isHex64(sha256Metadata) else { throw ReceiptError.invalidMember("sha256Metadata") }
            let metadata: ReceiptMetadata
            do {
                metadata = try container.decode(ReceiptMetadata.self, forKey: ReceiptJSONKey(stringValue: "metadata"))
            } catch {
                throw ReceiptError.invalidMember("metadata")
            }
            receipt = PhotoReceipt(photoId: photoId, sha256Image: sha256Image, sha256Metadata: sha256Metadata, metadata: metadata,
                                   receivedAt: try text("receivedAt"), signature: try base64("signature"), publicKey: try base64("publicKey"))
        }
    }
}

/// Why a receipt could not be read or made.
public enum ReceiptError: Error, Sendable, Equatable {
    /// Not JSON at all.
    case notJSON
    /// JSON, but not an object.
    case notAnObject
    /// Members missing or unknown (sorted names).
    case members(missing: [String], unknown: [String])
    /// A member of the wrong type or form (its name; `metadata` for anything inside it).
    case invalidMember(String)
    /// An `algorithm` other than `Ed25519`.
    case unknownAlgorithm(String)
    /// The signing key failed to sign.
    case signingFailed
}
