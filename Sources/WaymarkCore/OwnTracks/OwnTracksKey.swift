/// An OwnTracks encryption key (owntracks.org/booklet/features/encrypt): text of at most 32
/// bytes, which the apps pad with zero bytes to the 32 bytes of libsodium's secretbox key.
///
/// Waymark makes the key on the client (the browser or `waymark owntracks pair`) and the server
/// never holds it in clear: it is kept sealed under the passphrase (``EnvelopeContent/owntracksKey``).
public struct OwnTracksKey: Sendable, Equatable, CustomStringConvertible {
    /// The text the app is configured with.
    public let text: String

    /// The length of the keys Waymark makes.
    public static let length = 32
    /// The alphabet of the keys Waymark makes: letters and digits without look-alikes (0/O, 1/l/I),
    /// so that one typed by hand from the screen is typed right; 32 of 56 symbols are 185 bits.
    static let alphabet = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz")

    /// A key from its text; nil when it is empty or longer than 32 bytes of UTF-8.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 32 else { return nil }
        self.text = text
    }

    /// A new random key from `generator` (a CSPRNG outside tests).
    public static func make<G: RandomNumberGenerator>(using generator: inout G) -> OwnTracksKey {
        // Int.random(in:using:) draws without modulo bias.
        OwnTracksKey(String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }))!
    }

    /// A new random key from the system's CSPRNG.
    public static func make() -> OwnTracksKey {
        var generator = SystemRandomNumberGenerator()
        return make(using: &generator)
    }

    /// The 32 bytes secretbox is keyed with: the text's UTF-8, then zeroes.
    public var bytes: [UInt8] {
        Array(text.utf8) + [UInt8](repeating: 0, count: 32 - text.utf8.count)
    }

    /// Never the key itself: descriptions end up in logs.
    public var description: String { "OwnTracksKey(\(text.utf8.count) bytes)" }
}
