import Foundation
import Testing
import WaymarkTestSupport
import WaymarkCore

/// OwnTracks as Waymark's background recorder (issue #29, DESIGN §3.13): the configuration the app
/// imports, its encryption key, and a decrypted message read as a fix. The expectations come from
/// OwnTracks' own booklet (owntracks.org/booklet: tech/json, features/remoteconfig, features/encrypt)
/// and from the Android app's source, not from Waymark's code.
@Suite("OwnTracks: the configuration link, the encryption key, a message read as a fix")
struct OwnTracksTests {
    // MARK: The configuration (booklet: features/remoteconfig, tech/json `_type=configuration`)

    /// A username and a password that JSON must escape: a quote, a backslash, a tab, a control
    /// character, a slash (which JSON may leave alone) and letters outside ASCII.
    static let configuration = OwnTracksConfiguration(
        url: "https://waymark.example:8443/api/v1/owntracks", username: #"jo"e\"#,
        password: "tab\there/\u{FC}n\u{EF}\u{1}", encryptionKey: "K3yABCDEFGHJKLMNPQRSTUVWXYZabcde")

    /// The same message as JavaScript's `JSON.stringify` writes it (the web app writes the same bytes):
    /// `\"`, `\\`, `\t` and `\u0001` escaped, `/` and `ü` left as they are.
    static let pinnedJSON = #"{"_type":"configuration","mode":3,"url":"https://waymark.example:8443/api/v1/owntracks","auth":true,"#
        + #""username":"jo\"e\\","password":"tab\there/ünï\u0001","deviceId":"waymark","tid":"WM","#
        + #""encryptionKey":"K3yABCDEFGHJKLMNPQRSTUVWXYZabcde","monitoring":2,"locatorInterval":10,"#
        + #""locatorDisplacement":0,"cmd":false,"remoteConfiguration":false}"#

    @Test("The configuration message is the same bytes for the same inputs, escaped as JSON requires")
    func configurationPinned() {
        #expect(Self.configuration.json == Self.pinnedJSON)
    }

    @Test("OwnTracks reads HTTP mode, Basic auth, move monitoring and the given URL, user, secret and key from the message")
    func configurationParses() throws {
        let object = try JSONSerialization.jsonObject(with: Data(Self.configuration.json.utf8))
        let message = try #require(object as? [String: Any])
        #expect(message["_type"] as? String == "configuration")
        #expect((message["mode"] as? NSNumber)?.intValue == 3, "3 is HTTP mode; 0 would be MQTT")
        #expect(message["auth"] as? Bool == true)
        #expect((message["monitoring"] as? NSNumber)?.intValue == 2, "2 is move mode (a fix every locatorInterval)")
        #expect(message["url"] as? String == "https://waymark.example:8443/api/v1/owntracks")
        #expect(message["username"] as? String == #"jo"e\"#)
        #expect(message["password"] as? String == "tab\there/\u{FC}n\u{EF}\u{1}")
        #expect(message["encryptionKey"] as? String == "K3yABCDEFGHJKLMNPQRSTUVWXYZabcde")
        // Nothing the server answers may change the app.
        #expect(message["cmd"] as? Bool == false)
        #expect(message["remoteConfiguration"] as? Bool == false)
    }

    @Test("The link is owntracks:///config?inline= and the standard Base64 of the message, and reads back")
    func link() throws {
        let link = Self.configuration.link
        let prefix = "owntracks:///config?inline="
        #expect(link.hasPrefix(prefix))
        let inline = String(link.dropFirst(prefix.count))
        let decoded = try #require(Data(base64Encoded: inline.removingPercentEncoding ?? inline), "standard Base64: \(inline)")
        #expect(String(decoding: decoded, as: UTF8.self) == Self.pinnedJSON)
        #expect(OwnTracksConfiguration.json(fromLink: link) == Data(Self.pinnedJSON.utf8))
        #expect(OwnTracksConfiguration.json(fromLink: "https://example.org/?inline=" + inline) == nil)
        #expect(OwnTracksConfiguration.json(fromLink: prefix + "***") == nil)
    }

    /// OwnTracks for Android reads the link's query with
    /// `java.net.URLDecoder` (LoadViewModel.kt, v2.5.7 and later; Apache's URIBuilder before), which
    /// turns `+` into a space, and then decodes the Base64 strictly: a link whose Base64 holds a `+`
    /// does not import. A `+` must travel as `%2B` (iOS reads the query with NSURLComponents, which
    /// decodes `%2B` too). Base64 of ASCII JSON holds a `+` only where a `~` or `>` falls on every third
    /// byte, so it takes a server URL with a `~` (as the booklet's `/~jane/` example) in the wrong place,
    /// or non-ASCII text: https://home.example/~jane/api/v1/owntracks is such a URL.
    @Test("Every link survives the form decoding OwnTracks for Android applies to its query (+ becomes a space), also for a URL with ~ or ü")
    func linkSurvivesFormDecoding() throws {
        var generator = SplitMix(seed: 29)
        var withPlus = 0
        let urls = ["https://waymark.example/api/v1/owntracks", "https://home.example/~jane/api/v1/owntracks",
                    "https://example.org/~alice/waymark/api/v1/owntracks", "https://m\u{FC}nchen.example/api/v1/owntracks"]
        for index in 0..<20 {
            let key = OwnTracksKey.make(using: &generator)
            let configuration = OwnTracksConfiguration(url: urls[index % urls.count], username: "alice",
                                                       password: "wmo_\(key.text.prefix(20))", encryptionKey: key.text)
            let query = try #require(configuration.link.split(separator: "?", maxSplits: 1).last)
            let value = try #require(query.split(separator: "=", maxSplits: 1).last.map(String.init))
            if Data(configuration.json.utf8).base64EncodedString().contains("+") { withPlus += 1 }
            // application/x-www-form-urlencoded, as URLDecoder.decode(value, "UTF-8"): + is a space, then %XX.
            let formDecoded = value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? value
            let bytes = Data(base64Encoded: formDecoded)
            #expect(bytes == Data(configuration.json.utf8), "link \(index) does not import on Android: \(value)")
        }
        #expect(withPlus > 0, "some of these messages' Base64 holds a +, so the check can fail")
    }

    /// `locatorPriority` is read differently by Android versions:
    /// 2.5.4 to 2.5.6 map the number 0 to `NoPower` (`LocatorPriority.getByValue` matched the enum's
    /// value: HighAccuracy(3) … NoPower(0)), 2.5.7 and later to `HighAccuracy` (the enum's index).
    /// On the former the phone records only positions other apps ask for. Move mode defaults to
    /// HighAccuracy when the key is absent, and the name "HighAccuracy" is read the same by both.
    @Test("The configuration asks every Android version for its most accurate source (locatorPriority absent or HighAccuracy)")
    func locatorPriorityIsUnambiguous() throws {
        let message = try #require(try JSONSerialization.jsonObject(with: Data(Self.configuration.json.utf8)) as? [String: Any])
        if let priority = message["locatorPriority"] {
            #expect(priority as? String == "HighAccuracy", "locatorPriority \(priority) means NoPower on OwnTracks for Android 2.5.4–2.5.6")
        }
    }

    // MARK: The key (booklet: features/encrypt)

    @Test("A key is 1 to 32 bytes of UTF-8: an empty one and one of 33 bytes are refused, also when the 33rd byte is in a multi-byte letter")
    func keyLength() throws {
        #expect(OwnTracksKey("") == nil)
        #expect(OwnTracksKey(String(repeating: "a", count: 33)) == nil)
        #expect(OwnTracksKey(String(repeating: "a", count: 32))?.text == String(repeating: "a", count: 32))
        // 16 × "é" are 32 bytes in 16 characters; one more ASCII letter makes 33 bytes in 17 characters.
        #expect(OwnTracksKey(String(repeating: "\u{E9}", count: 16)) != nil)
        #expect(OwnTracksKey(String(repeating: "\u{E9}", count: 16) + "a") == nil)
        // 31 ASCII letters and a 2-byte letter: 32 characters, 33 bytes.
        #expect(OwnTracksKey(String(repeating: "a", count: 31) + "\u{E9}") == nil)
        // Eight 4-byte emoji are 32 bytes; a ninth character breaks the limit.
        #expect(OwnTracksKey(String(repeating: "\u{1F600}", count: 8)) != nil)
        #expect(OwnTracksKey(String(repeating: "\u{1F600}", count: 8) + "x") == nil)
    }

    @Test("The secretbox key is the text's UTF-8 padded with zero bytes to 32, as the apps pad it")
    func keyBytes() throws {
        let short = try #require(OwnTracksKey("abc"))
        #expect(short.bytes == [0x61, 0x62, 0x63] + [UInt8](repeating: 0, count: 29))
        let accented = try #require(OwnTracksKey("cl\u{E9}"))
        #expect(accented.bytes == [0x63, 0x6C, 0xC3, 0xA9] + [UInt8](repeating: 0, count: 28))
        let full = try #require(OwnTracksKey(String(repeating: "Z", count: 32)))
        #expect(full.bytes == [UInt8](repeating: 0x5A, count: 32))
    }

    @Test("A made key is 32 letters and digits without look-alikes, and no two are the same")
    func madeKeys() throws {
        let allowed = Set("23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
        var seen = Set<String>()
        for _ in 0..<50 {
            let key = OwnTracksKey.make()
            #expect(key.text.count == 32 && key.text.utf8.count == 32)
            #expect(key.text.allSatisfy { allowed.contains($0) }, "\(key.text)")
            #expect(!key.text.contains { "0O1lI".contains($0) })
            #expect(seen.insert(key.text).inserted, "a key came twice")
        }
        // Over 50 keys of 32 symbols every symbol of the alphabet should turn up: a narrower alphabet shows.
        let used = Set(seen.joined())
        #expect(used.count > 50, "only \(used.count) symbols used")
        // A seeded generator gives the same key twice (a failing case can be replayed), another seed another key.
        var first = SplitMix(seed: 7), second = SplitMix(seed: 7), third = SplitMix(seed: 8)
        #expect(OwnTracksKey.make(using: &first) == OwnTracksKey.make(using: &second))
        var fourth = SplitMix(seed: 7)
        #expect(OwnTracksKey.make(using: &third) != OwnTracksKey.make(using: &fourth))
    }

    @Test("A key's description never shows the key, in any of the ways a log prints it")
    func keyNeverPrinted() throws {
        let key = OwnTracksKey.make()
        for text in ["\(key)", String(describing: key), String(reflecting: key), "\([key])", "\(Optional(key) as Any)"] {
            #expect(!text.contains(key.text), "\(text)")
            #expect(!text.contains(String(key.text.prefix(8))), "\(text)")
        }
    }

    // MARK: A decrypted message (booklet: tech/json `_type=location`)

    /// A location with every element json.md lists for it, `vel` in km/h, `created_at` later than `tst`
    /// (the message was queued while the phone was offline).
    static let documentedLocation = #"""
    {"_type":"location","acc":5,"alt":312,"batt":87,"bs":1,"cog":270,"lat":46.0569,"lon":14.5058,"rad":0,"t":"u",
     "tid":"WM","tst":1750000000,"vac":3,"vel":36,"p":98.3,"conn":"w","topic":"owntracks/alice/waymark",
     "inregions":["Home"],"inrids":["6da9cf"],"SSID":"home","BSSID":"b0:c5:54:1a:2b:3c","created_at":1750000600,"m":2,
     "motionactivities":["walking"],"_id":"3f1c2a9b"}
    """#

    @Test("A documented location gives its fix: lat, lon, alt, acc, vel from km/h to m/s, cog, at its own tst (not created_at)")
    func documentedLocation() throws {
        let fix = try OwnTracksLocation.fix(fromMessage: Data(Self.documentedLocation.utf8)).get()
        #expect(fix.latitude == 46.0569)
        #expect(fix.longitude == 14.5058)
        #expect(fix.altitude == 312)
        #expect(fix.accuracy == 5)
        let speed = try #require(fix.speed)
        #expect(abs(speed - 10) < 1e-9, "36 km/h is 10 m/s, got \(speed)")
        #expect(fix.course == 270)
        #expect(fix.time == Date(timeIntervalSince1970: 1_750_000_000))
    }

    @Test("A location with only the required lat, lon and tst has no altitude, accuracy, speed or course (the apps leave out zeroes)")
    func minimalLocation() throws {
        let fix = try OwnTracksLocation.fix(fromMessage: Data(#"{"_type":"location","lat":-33.8568,"lon":151.2153,"tst":1600000000}"#.utf8)).get()
        #expect(fix == Fix(latitude: -33.8568, longitude: 151.2153, time: Date(timeIntervalSince1970: 1_600_000_000)))
        let edges = try OwnTracksLocation.fix(fromMessage: Data(#"{"_type":"location","lat":90,"lon":-180,"tst":1}"#.utf8)).get()
        #expect(edges.latitude == 90 && edges.longitude == -180)
    }

    @Test("A transition, waypoint, status, card, lwt or steps message is no location, and says which it is", arguments: [
        (#"{"_type":"transition","wtst":1700000000,"lat":46.05,"lon":14.5,"tst":1750000000,"acc":10,"tid":"WM","event":"enter","desc":"Home","t":"c"}"#, "transition"),
        (#"{"_type":"waypoint","desc":"Home","lat":46.05,"lon":14.5,"rad":50,"tst":1700000000}"#, "waypoint"),
        (#"{"_type":"status","android":{"hib":1,"bo":1,"loc":0,"ps":0,"wifi":1},"tst":1750000000}"#, "status"),
        (#"{"_type":"card","tid":"WM","name":"Alice"}"#, "card"),
        (#"{"_type":"lwt","tst":1750000000}"#, "lwt"),
        (#"{"_type":"steps","tst":1750000000,"steps":1200,"from":1749990000,"to":1750000000}"#, "steps"),
    ])
    func notALocation(message: String, type: String) {
        #expect(OwnTracksLocation.fix(fromMessage: Data(message.utf8)) == .failure(.notALocation(type)))
    }

    /// Inputs no phone sends; each must be refused as malformed, never crash or give a fix.
    static let hostile: [String] = [
        "", "not json", "[]", #"[{"_type":"location","lat":1,"lon":2,"tst":1750000000}]"#, "null", "42", #""location""#,
        "{}", #"{"lat":46,"lon":14,"tst":1750000000}"#, #"{"_type":1,"lat":46,"lon":14,"tst":1750000000}"#,
        #"{"_type":"location","lat":"46.05","lon":14.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":91,"lon":14.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":-90.0001,"lon":14.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":46,"lon":-181,"tst":1750000000}"#,
        #"{"_type":"location","lat":46,"lon":180.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":NaN,"lon":14.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":1e999,"lon":14.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":46,"lon":-Infinity,"tst":1750000000}"#,
        #"{"_type":"location","lat":46,"lon":14.5}"#,
        #"{"_type":"location","lat":46,"lon":14.5,"tst":0}"#,
        #"{"_type":"location","lat":46,"lon":14.5,"tst":-1750000000}"#,
        #"{"_type":"location","lat":46,"lon":14.5,"tst":1750000000000}"#,
        #"{"_type":"location","lat":46,"lon":14.5,"tst":1e300}"#,
        #"{"_type":"location","lat":46,"lon":14.5,"tst":"1750000000"}"#,
        #"{"_type":"location","lat":true,"lon":14.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":46,"lon":14.5,"tst":true}"#,
        #"{"_type":"location","lat":null,"lon":14.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":[46],"lon":14.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":{"deg":46},"lon":14.5,"tst":1750000000}"#,
        #"{"_type":"location","lat":46,"lon":14.5,"tst":1750000000"#,
        #"{"_type":"location","lat":46,"lon":14.5,"tst":1750000000}{"#,
        #"{"_type":"location","lat":46,"lon":14.5,"tst":1750000000,"inregions":"# + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "}",
        String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000),
        String(decoding: [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D], as: UTF8.self),
    ]

    @Test("Hostile messages (not JSON, an array, a string where a number belongs, lat 91, lon -181, NaN, a bad tst, true, deep nesting) are malformed, never a fix or a crash")
    func hostileMessages() {
        for (index, message) in Self.hostile.enumerated() {
            let result = OwnTracksLocation.fix(fromMessage: Data(message.utf8))
            guard case .failure(.malformed) = result else {
                Issue.record("hostile message \(index) (\(message.prefix(80))) gave \(result)")
                continue
            }
        }
        // Raw bytes that are no UTF-8 at all.
        let bytes = Data([0xFF, 0xFE, 0x00, 0x7B, 0xC0, 0xAF])
        guard case .failure(.malformed) = OwnTracksLocation.fix(fromMessage: bytes) else {
            Issue.record("invalid UTF-8 gave \(OwnTracksLocation.fix(fromMessage: bytes))")
            return
        }
    }

    // MARK: The key sealed under the passphrase (EnvelopeContent)

    static let passphrase = "Triglav sunrise, quietly"
    static let nonce = "7QX2M4K9ABCD"
    static let fast = RouteEnvelope.KDFChoice.pbkdf2(iterations: 1_000)

    @Test("A key sealed as an OwnTracks key opens as one with its passphrase and nonce, and with nothing else")
    func sealedKeyOpensOnlyAsItself() throws {
        let key = Data("K3yABCDEFGHJKLMNPQRSTUVWXYZabcde".utf8)
        let sealed = try RouteEnvelope.seal(.owntracksKey, key, passphrase: Self.passphrase, nonce: Self.nonce, kdf: Self.fast)
        #expect(sealed.ct.range(of: key) == nil, "the key is not in the envelope in clear")
        #expect(try sealed.open(.owntracksKey, passphrase: Self.passphrase, nonce: Self.nonce) == key)
        // Through its JSON too, as the server stores and answers it.
        let stored = try RouteEnvelope.decode(json: sealed.jsonData())
        #expect(try stored.open(.owntracksKey, passphrase: Self.passphrase, nonce: Self.nonce) == key)

        #expect(throws: RouteEnvelopeError.cannotOpen) { try sealed.open(passphrase: Self.passphrase, nonce: Self.nonce) }
        #expect(throws: RouteEnvelopeError.cannotOpen) { try sealed.open(.route, passphrase: Self.passphrase, nonce: Self.nonce) }
        #expect(throws: RouteEnvelopeError.cannotOpen) { try sealed.open(.owntracksKey, passphrase: Self.passphrase, nonce: "7QX2M4K9ABCE") }
        #expect(throws: RouteEnvelopeError.cannotOpen) { try sealed.open(.owntracksKey, passphrase: "Triglav sunrise, loudly", nonce: Self.nonce) }
    }

    @Test("A route does not open as an OwnTracks key with its own passphrase and nonce")
    func routeDoesNotOpenAsKey() throws {
        let route = Route(nonce: Self.nonce, qrPeriod: 5, tracks: [Track(fixes: [
            Fix(latitude: 46.0569, longitude: 14.5058, time: Date(timeIntervalSince1970: 1_750_000_000)),
        ])])
        let sealed = try RouteEnvelope.seal(route, passphrase: Self.passphrase, nonce: Self.nonce, kdf: Self.fast)
        #expect(try sealed.open(passphrase: Self.passphrase, nonce: Self.nonce).tracks.first?.fixes.count == 1)
        #expect(throws: RouteEnvelopeError.cannotOpen) { try sealed.open(.owntracksKey, passphrase: Self.passphrase, nonce: Self.nonce) }
    }
}
