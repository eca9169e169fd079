import Foundation

/// The payload of a time-sync QR code: `"<unix-seconds>-<nonce>"` (DESIGN §3.1).
///
/// Waymark writes a 12-character nonce of `0-9A-Z`; readers also accept the original
/// specification's nonces of 6–32 letters and digits in either case (e.g. `1564650590-2OAnezk`).
public struct QRPayload: Sendable, Hashable {
    /// The Unix time (seconds) the code showed.
    public var time: Int
    /// The recording session's nonce.
    public var nonce: String

    /// The alphabet of nonces Waymark writes: upper case keeps the payload in QR alphanumeric mode.
    static let nonceAlphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    /// The length of nonces Waymark writes.
    static let nonceLength = 12

    /// Parses a decoded QR code's text; `nil` for any other QR code (URLs, other apps' codes).
    ///
    /// Leading and trailing whitespace is ignored. The time must be 9–11 digits and the nonce
    /// 6–32 ASCII letters or digits.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let dash = trimmed.firstIndex(of: "-") else { return nil }
        let timePart = trimmed[..<dash]
        let noncePart = trimmed[trimmed.index(after: dash)...]
        guard (9...11).contains(timePart.count), timePart.allSatisfy({ $0.isASCII && $0.isNumber }),
              let time = Int(timePart) else { return nil }
        guard (6...32).contains(noncePart.count),
              noncePart.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        self.time = time
        self.nonce = String(noncePart)
    }

    /// A payload from its parts, as the recorder shows it.
    public init(time: Int, nonce: String) {
        self.time = time
        self.nonce = nonce
    }

    /// The text to put into the QR code.
    public var text: String { "\(time)-\(nonce)" }

    /// A new session nonce: 12 characters of `0-9A-Z` drawn from `generator`.
    ///
    /// Use a cryptographically secure generator outside tests; ``makeNonce()`` does.
    public static func makeNonce<G: RandomNumberGenerator>(using generator: inout G) -> String {
        String((0..<nonceLength).map { _ in
            nonceAlphabet[Int.random(in: 0..<nonceAlphabet.count, using: &generator)]
        })
    }

    /// Whether `text` is a nonce as Waymark writes them: 12 characters of `0-9A-Z`.
    public static func isWaymarkNonce(_ text: String) -> Bool {
        text.count == nonceLength && text.allSatisfy { nonceAlphabet.contains($0) }
    }

    /// A new session nonce from the system's cryptographically secure generator.
    public static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return makeNonce(using: &generator)
    }
}
