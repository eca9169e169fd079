import Foundation
import Testing
import WaymarkCore
import WaymarkMedia
import WaymarkTestSupport

/// OwnTracks' payload encryption (owntracks.org/booklet/features/encrypt; the Recorder's `decrypt()`):
/// `data` is standard Base64 of a 24-byte nonce and libsodium's `crypto_secretbox_easy` of the
/// message, under the key padded with zero bytes to 32. Checked against PyNaCl, which nobody here
/// wrote, and then what a device's history makes of a day of messages.
@Suite("OwnTracks: encrypted messages open as PyNaCl seals them, and a device's history reads right")
struct OwnTracksBoxTests {
    /// The venv's Python, which has PyNaCl (scripts/python-tools.txt).
    static func python() throws -> String {
        let path = packageRoot.appendingPathComponent(".build-venv/tools/bin/python3").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Missing(description: "\(path) is missing — run scripts/bootstrap, which installs PyNaCl into the venv")
        }
        return path
    }

    struct Missing: Error, CustomStringConvertible { var description: String }

    /// PyNaCl's SecretBox as OwnTracks keys it: `key.encode().ljust(32, b"\0")`. Arguments are hex, so
    /// that no locale touches them: `seal KEY MESSAGE [NONCE]` prints `data`, `open KEY DATA` prints the message as hex.
    static let source = #"""
    import base64, sys, nacl.secret, nacl.exceptions
    command = sys.argv[1]
    key = bytes.fromhex(sys.argv[2]).ljust(32, b"\0")
    box = nacl.secret.SecretBox(key)
    if command == "seal":
        message = bytes.fromhex(sys.argv[3])
        sealed = box.encrypt(message, bytes.fromhex(sys.argv[4])) if len(sys.argv) > 4 else box.encrypt(message)
        sys.stdout.write(base64.b64encode(bytes(sealed)).decode())
    else:
        try:
            sys.stdout.write(box.decrypt(base64.b64decode(sys.argv[3], validate=True)).hex())
        except nacl.exceptions.CryptoError:
            sys.stdout.write("CryptoError")
    """#

    static func hex(_ data: some Sequence<UInt8>) -> String { data.map { String(format: "%02x", $0) }.joined() }

    /// `data` PyNaCl makes of `message` under `key` (with `nonce` when given).
    static func pynaclSeal(_ message: String, key: OwnTracksKey, nonce: [UInt8]? = nil) async throws -> String {
        var arguments = [try python(), "-c", source, "seal", hex(key.text.utf8), hex(message.utf8)]
        if let nonce { arguments.append(hex(nonce)) }
        return String(decoding: try await ExternalTool.run(arguments), as: UTF8.self)
    }

    /// The message PyNaCl opens from `data` under `key`, or nil when it does not open.
    static func pynaclOpen(_ data: String, key: OwnTracksKey) async throws -> String? {
        let output = String(decoding: try await ExternalTool.run([try python(), "-c", source, "open", hex(key.text.utf8), data]), as: UTF8.self)
        guard output != "CryptoError" else { return nil }
        let bytes = stride(from: 0, to: output.count, by: 2).compactMap { offset -> UInt8? in
            let start = output.index(output.startIndex, offsetBy: offset)
            return UInt8(output[start..<output.index(start, offsetBy: 2)], radix: 16)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let location = #"{"_type":"location","acc":5,"alt":312,"lat":46.0569,"lon":14.5058,"tid":"WM","tst":1750000000,"vel":36,"cog":270}"#

    // MARK: OwnTracksBox against PyNaCl

    @Test("A location PyNaCl encrypted as OwnTracks does opens, also under a key with letters outside ASCII")
    func opensWhatPyNaClSealed() async throws {
        for text in ["K3yABCDEFGHJKLMNPQRSTUVWXYZabcde", "short", "cl\u{E9} \u{1F600} w\u{F6}rd"] {
            let key = try #require(OwnTracksKey(text))
            let data = try await Self.pynaclSeal(Self.location, key: key)
            let opened = try OwnTracksBox.open(data, key: key).get()
            #expect(String(decoding: opened, as: UTF8.self) == Self.location, "key \(key)")
            let fix = try OwnTracksLocation.fix(fromMessage: opened).get()
            #expect(fix.latitude == 46.0569 && fix.longitude == 14.5058 && fix.time == Date(timeIntervalSince1970: 1_750_000_000))
        }
    }

    @Test("PyNaCl opens what OwnTracksBox sealed, and with the same nonce both make the same bytes")
    func pyNaClOpensWhatWeSealed() async throws {
        let key = try #require(OwnTracksKey("cl\u{E9} K3y 2026"))
        let data = OwnTracksBox.seal(Data(Self.location.utf8), key: key)
        #expect(try await Self.pynaclOpen(data, key: key) == Self.location)
        let raw = try #require(Data(base64Encoded: data), "standard Base64: \(data)")
        #expect(raw.count == 24 + 16 + Self.location.utf8.count, "nonce, tag, message")

        let nonce = (0..<24).map { UInt8($0 * 7 + 3) }
        let ours = OwnTracksBox.seal(Data(Self.location.utf8), key: key, nonce: nonce)
        #expect(ours == (try await Self.pynaclSeal(Self.location, key: key, nonce: nonce)))
        #expect(Array(try #require(Data(base64Encoded: ours)).prefix(24)) == nonce, "the nonce comes first")
        #expect(try await Self.pynaclOpen(data, key: try #require(OwnTracksKey("cl\u{E9} K3y 2027"))) == nil, "PyNaCl refuses another key")
    }

    @Test("Two seals of the same message differ (a fresh nonce each time), and both open")
    func freshNonces() throws {
        let key = try #require(OwnTracksKey("K3yABCDEFGHJKLMNPQRSTUVWXYZabcde"))
        let first = OwnTracksBox.seal(Data(Self.location.utf8), key: key)
        let second = OwnTracksBox.seal(Data(Self.location.utf8), key: key)
        #expect(first != second)
        #expect(Data(base64Encoded: first)?.prefix(24) != Data(base64Encoded: second)?.prefix(24))
        #expect(Data(base64Encoded: first)?.prefix(24) != Data(repeating: 0, count: 24))
        #expect(try OwnTracksBox.open(second, key: key).get() == Data(Self.location.utf8))
    }

    @Test("Another key is wrongKey; truncated or garbage Base64 is malformed; one flipped byte is wrongKey")
    func refusals() async throws {
        let key = try #require(OwnTracksKey("K3yABCDEFGHJKLMNPQRSTUVWXYZabcde"))
        let data = try await Self.pynaclSeal(Self.location, key: key)
        #expect(OwnTracksBox.open(data, key: try #require(OwnTracksKey("K3yABCDEFGHJKLMNPQRSTUVWXYZabcdf"))) == .failure(.wrongKey))
        // "abc" and "abc\0" are the same key to the apps (zero padding), but "abc" and "abcd" are not.
        let short = try #require(OwnTracksKey("abc"))
        let shortData = OwnTracksBox.seal(Data(Self.location.utf8), key: short)
        #expect(OwnTracksBox.open(shortData, key: try #require(OwnTracksKey("abcd"))) == .failure(.wrongKey))

        let raw = try #require(Data(base64Encoded: data))
        let truncated = raw.prefix(39).base64EncodedString()
        #expect(OwnTracksBox.open(truncated, key: key) == .failure(.malformed), "39 bytes cannot hold a nonce and a tag")
        #expect(OwnTracksBox.open("", key: key) == .failure(.malformed))
        #expect(OwnTracksBox.open("%%%% not base64 at all %%%%", key: key) == .failure(.malformed))
        #expect(OwnTracksBox.open(String(data.prefix(30)), key: key) == .failure(.malformed))
        // Cut inside the box: long enough, but the tag no longer matches.
        #expect(OwnTracksBox.open(raw.dropLast(3).base64EncodedString(), key: key) == .failure(.wrongKey))
        for position in [0, 23, 24, 39, 40, raw.count - 1] {
            var flipped = raw
            flipped[flipped.startIndex + position] ^= 0x01
            #expect(OwnTracksBox.open(flipped.base64EncodedString(), key: key) == .failure(.wrongKey), "byte \(position) flipped")
        }
    }

    // MARK: A device's history

    static let key = OwnTracksKey("K3yABCDEFGHJKLMNPQRSTUVWXYZabcde")!
    static let t0 = 1_750_000_200.0

    static func location(_ offset: Double, lat: Double = 46.0569, lon: Double = 14.5058) -> String {
        #"{"_type":"location","lat":\#(lat),"lon":\#(lon),"tst":\#(Int(t0 + offset)),"acc":4,"tid":"WM"}"#
    }

    static func sealed(_ message: String, key: OwnTracksKey = Self.key) -> String {
        OwnTracksBox.seal(Data(message.utf8), key: key)
    }

    @Test("A history keeps each location once, by its own tst, in time order, and counts what it could not use")
    func history() throws {
        let first = Self.sealed(Self.location(0, lat: 46.0001))
        let messages = [
            Self.sealed(Self.location(20, lat: 46.0020)),
            first,
            Self.sealed(Self.location(10, lat: 46.0010)),
            first,                                                       // retried: the same data twice
            Self.sealed(Self.location(20, lat: 46.9999)),                // the same tst again, another message
            Self.sealed(#"{"_type":"transition","wtst":1700000000,"lat":46,"lon":14,"tst":1750000210,"acc":10,"event":"enter","desc":"Home"}"#),
            Self.sealed(Self.location(30), key: try #require(OwnTracksKey("another device's key"))),
            Self.sealed(Self.location(10_000)),                          // hours after the span
            Self.sealed(Self.location(-10_000)),                         // hours before it
            "bm90IGEgYm94",                                              // Base64, but no box
            Self.sealed(#"{"_type":"location","lat":"46","lon":14,"tst":1750000215}"#),
        ]
        let span = DateInterval(start: Date(timeIntervalSince1970: Self.t0 - 60), end: Date(timeIntervalSince1970: Self.t0 + 600))
        let history = OwnTracksHistory(messages: messages, key: Self.key, span: span)
        #expect(history.fixes.map(\.time.timeIntervalSince1970) == [Self.t0, Self.t0 + 10, Self.t0 + 20])
        #expect(history.fixes.map(\.latitude) == [46.0001, 46.0010, 46.0020], "the first message for an instant is kept")
        #expect(history.unreadable == 2, "another key's message and the one that is no box")
        #expect(history.notLocations == 2, "the transition and the broken location")
        #expect(history.outsideSpan == 2)
        let route = history.route(nonce: "7QX2M4K9ABCD")
        #expect(route.tracks.count == 1 && route.tracks.first?.fixes == history.fixes)

        let everything = OwnTracksHistory(messages: messages, key: Self.key)
        #expect(everything.fixes.count == 5 && everything.outsideSpan == 0)
        #expect(everything.fixes.first?.time == Date(timeIntervalSince1970: Self.t0 - 10_000))
        #expect(OwnTracksHistory(messages: [], key: Self.key).route(nonce: "7QX2M4K9ABCD").tracks.isEmpty)
    }

    @Test("The device's key opens with the passphrase and its nonce; a wrong passphrase or nonce is keyDoesNotOpen, a route is no key")
    func sealedKey() throws {
        let passphrase = "Triglav sunrise, quietly", nonce = "7QX2M4K9ABCD"
        let fast = RouteEnvelope.KDFChoice.pbkdf2(iterations: 1_000)
        let envelope = try RouteEnvelope.seal(.owntracksKey, Data(Self.key.text.utf8), passphrase: passphrase, nonce: nonce, kdf: fast)
        #expect(try OwnTracksHistory.key(sealed: envelope, passphrase: passphrase, nonce: nonce) == Self.key)
        #expect(throws: OwnTracksHistory.Failure.keyDoesNotOpen) { try OwnTracksHistory.key(sealed: envelope, passphrase: "Triglav sunset", nonce: nonce) }
        #expect(throws: OwnTracksHistory.Failure.keyDoesNotOpen) { try OwnTracksHistory.key(sealed: envelope, passphrase: passphrase, nonce: "7QX2M4K9ABCE") }
        let route = try RouteEnvelope.seal(Route(nonce: nonce, tracks: []), passphrase: passphrase, nonce: nonce, kdf: fast)
        #expect(throws: OwnTracksHistory.Failure.keyDoesNotOpen) { try OwnTracksHistory.key(sealed: route, passphrase: passphrase, nonce: nonce) }
        let tooLong = try RouteEnvelope.seal(.owntracksKey, Data(String(repeating: "k", count: 33).utf8), passphrase: passphrase, nonce: nonce, kdf: fast)
        #expect(throws: OwnTracksHistory.Failure.notAKey) { try OwnTracksHistory.key(sealed: tooLong, passphrase: passphrase, nonce: nonce) }
        #expect(!OwnTracksHistory.Failure.keyDoesNotOpen.description.isEmpty)

        let history = try OwnTracksHistory.open(sealedKey: envelope, messages: [Self.sealed(Self.location(0))], span: nil,
                                                passphrase: passphrase, nonce: nonce)
        #expect(history.fixes.map(\.time) == [Date(timeIntervalSince1970: Self.t0)])
    }

    @Test("onePerInterval(300) keeps the first fix of each 5-minute slot counted from the epoch, the same slots for an overlapping span")
    func onePerInterval() throws {
        // t0 is a multiple of 300: a slot starts there.
        #expect(Self.t0.truncatingRemainder(dividingBy: 300) == 0)
        let offsets: [Double] = [-1, 0, 100, 299, 300, 301, 599.5, 900, 1_250]
        let messages = offsets.reversed().map { Self.sealed(Self.location($0)) }
        let history = OwnTracksHistory(messages: messages, key: Self.key)
        #expect(history.onePerInterval(300).map { $0.time.timeIntervalSince1970 - Self.t0 } == [-1, 0, 300, 900, 1_200 + 50])
        #expect(history.onePerInterval(1).count == 9, "every fix has its own second")

        // Pushed again from 100 s on: the slots from 300 on pick the same fixes.
        let later = OwnTracksHistory(messages: messages, key: Self.key,
                                     span: DateInterval(start: Date(timeIntervalSince1970: Self.t0 + 100), end: Date(timeIntervalSince1970: Self.t0 + 2_000)))
        #expect(later.onePerInterval(300).map { $0.time.timeIntervalSince1970 - Self.t0 } == [100, 300, 900, 1_250])
    }
}
