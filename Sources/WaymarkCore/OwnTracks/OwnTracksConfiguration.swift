import Foundation

/// What the OwnTracks app imports to record for Waymark (DESIGN §3.13): its own configuration
/// message (owntracks.org/booklet/features/remoteconfig, `_type: configuration`), as the link
/// `owntracks:///config?inline=` + Base64 of the JSON that the phone's camera opens from a QR code.
///
/// HTTP mode (3) to Waymark's endpoint with Basic authentication, the device's encryption key,
/// and move monitoring (2) with a fix every 10 s: a photo tour wants a dense track and lasts
/// hours, not days. `locatorPriority` is left out, so move mode takes its default, the most
/// accurate source: OwnTracks for Android read the number 0 as NoPower in 2.5.4–2.5.6 and as
/// HighAccuracy from 2.5.7. Remote commands and remote configuration stay
/// off: nothing the server answers can change the app. The web app's pairing
/// (`Web/owntracks/configuration.js`) writes the same JSON, key for key.
public struct OwnTracksConfiguration: Sendable, Equatable {
    /// The endpoint OwnTracks posts to, e.g. `https://waymark.local:8443/api/v1/owntracks`.
    public var url: String
    /// The account's username (the Basic user).
    public var username: String
    /// The device's secret (the Basic password).
    public var password: String
    /// The encryption key (``OwnTracksKey``).
    public var encryptionKey: String

    /// Move mode's interval between fixes, in seconds.
    public static let locatorInterval = 10

    public init(url: String, username: String, password: String, encryptionKey: String) {
        self.url = url
        self.username = username
        self.password = password
        self.encryptionKey = encryptionKey
    }

    /// The configuration message, keys in a fixed order (the web app writes the same bytes).
    public var json: String {
        func quoted(_ text: String) -> String {
            // JSONSerialization escapes exactly what JSON requires; a one-element array keeps it happy.
            let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        }
        return "{\"_type\":\"configuration\",\"mode\":3,\"url\":\(quoted(url)),\"auth\":true,"
            + "\"username\":\(quoted(username)),\"password\":\(quoted(password)),\"deviceId\":\"waymark\",\"tid\":\"WM\","
            + "\"encryptionKey\":\(quoted(encryptionKey)),\"monitoring\":2,\"locatorInterval\":\(Self.locatorInterval),"
            + "\"locatorDisplacement\":0,\"cmd\":false,\"remoteConfiguration\":false}"
    }

    /// The link OwnTracks opens: `owntracks:///config?inline=` and the standard Base64 of ``json``,
    /// its `+` written `%2B`: OwnTracks for Android decodes the query as a form (`URLDecoder`),
    /// where a bare `+` is a space and the Base64 would no longer decode.
    public var link: String {
        "owntracks:///config?inline=" + Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "%2B")
    }

    /// The configuration JSON a link carries, or nil when it is not an OwnTracks configuration link.
    public static func json(fromLink link: String) -> Data? {
        let prefix = "owntracks:///config?inline="
        guard link.hasPrefix(prefix) else { return nil }
        var text = String(link.dropFirst(prefix.count))
        text = text.removingPercentEncoding ?? text
        return Data(base64Encoded: text)
    }
}
