/// Why a route envelope could not be made, read or opened, with what to do about it.
public enum RouteEnvelopeError: Error, Equatable, CustomStringConvertible {
    /// The passphrase or the QR nonce do not belong to this route (or the ciphertext was altered).
    case cannotOpen
    /// The envelope JSON is missing a field or has a bad value in it.
    case malformed(field: String, reason: String)
    /// The decrypted plaintext is not a route.
    case malformedPlaintext(path: String, reason: String)
    /// The passphrase is empty.
    case emptyPassphrase
    /// The key derivation parameters are out of the range Waymark accepts.
    case unsupportedKDF(String)
    /// A delete token that is not 64 hexadecimal digits.
    case malformedDeleteToken

    public var description: String {
        switch self {
        case .cannotOpen:
            return "Cannot open the route: the passphrase or the QR code's nonce do not match this route (or the stored route was altered). Check the passphrase, and that the QR photo was taken while recording this route."
        case let .malformed(field, reason):
            return "The route envelope is damaged: field \"\(field)\" \(reason). Fetch the route again; if it persists, the uploader wrote an invalid envelope."
        case let .malformedPlaintext(path, reason):
            return "The route opened but its content is not a route: \(path) \(reason). The recorder that wrote it may be incompatible with this version of Waymark."
        case .emptyPassphrase:
            return "The passphrase is empty. Choose a passphrase; it is the only way to open the route later."
        case let .unsupportedKDF(reason):
            return "The route envelope asks for key derivation parameters Waymark does not accept: \(reason)."
        case .malformedDeleteToken:
            return "The delete token must be 64 lowercase hexadecimal digits, as Waymark sends it."
        }
    }
}
