import Crypto
import Foundation
import Testing
@testable import WaymarkCore

/// The envelope the browser recorder seals (Web/recorder/envelope.js, PBKDF2-SHA256) against the
/// Swift implementation, both ways, through the shared vectors in `Tests/Conformance/envelope/`
/// (README.md there says how they are made). `recorder-envelope.test.mjs` is the other half.
@Suite("Browser envelope conformance")
struct BrowserEnvelopeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance").appendingPathComponent("envelope")

    /// One vector file as a JSON object.
    static func vector(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The `envelope` member, as the JSON text a reader is given.
    static func envelopeJSON(_ vector: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: try #require(vector["envelope"]))
    }

    static func string(_ vector: [String: Any], _ key: String) throws -> String {
        try #require(vector[key] as? String, "\(key) is missing")
    }

    @Test("Opens the route the browser sealed: plaintext byte for byte, lookup key, delete token and its hash")
    func opensBrowserSealed() throws {
        let vector = try Self.vector("browser-sealed.json")
        let passphrase = try Self.string(vector, "passphrase")
        let nonce = try Self.string(vector, "nonce")
        let envelope = try RouteEnvelope.decode(json: Self.envelopeJSON(vector))

        guard case let .pbkdf2(iterations, salt) = envelope.kdf else {
            Issue.record("the browser's envelope must say pbkdf2-sha256, says \(envelope.kdf)")
            return
        }
        #expect(iterations == 600_000)
        #expect(salt.hexString == (try Self.string(vector, "saltHex")))
        #expect(envelope.iv.hexString == (try Self.string(vector, "ivHex")))

        let master = try envelope.masterKey(passphrase: passphrase)
        #expect(try envelope.openPlaintext(master: master, nonce: nonce) == Data(try Self.string(vector, "plaintext").utf8))
        let token = RouteKeys.deleteToken(master: master)
        #expect(token == (try Self.string(vector, "deleteToken")))
        #expect(try RouteKeys.deleteTokenHash(token: token) == (try Self.string(vector, "deleteTokenHash")))
        #expect(RouteKeys.lookupKey(nonce: nonce) == (try Self.string(vector, "lookupKey")))

        let route = try envelope.open(master: master, nonce: nonce)
        #expect(route.nonce == nonce)
        #expect(route.qrPeriod == 5)
        #expect(route.tracks.map(\.fixes.count) == [3, 1])
        let second = route.tracks[0].fixes[1]
        #expect(second.latitude == 52.51641 && second.longitude == 13.37792)
        #expect(second.altitude == nil && second.accuracy == 12.75)
        #expect(second.time.timeIntervalSince1970 == 1_764_000_001.125)
        #expect(route.tracks[0].fixes[2].accuracy == nil)
        #expect(route.tracks[1].fixes[0].altitude == -2)

        // Written back by Swift, the envelope is the same one (what the server stores and serves).
        #expect(try RouteEnvelope.decode(json: envelope.jsonData()) == envelope)
    }

    @Test("The browser's envelope does not open with a changed byte, another nonce or another passphrase")
    func browserSealedIsBound() throws {
        let vector = try Self.vector("browser-sealed.json")
        let passphrase = try Self.string(vector, "passphrase")
        let nonce = try Self.string(vector, "nonce")
        let envelope = try RouteEnvelope.decode(json: Self.envelopeJSON(vector))
        let master = try envelope.masterKey(passphrase: passphrase)

        for index in [0, envelope.ct.count / 2, envelope.ct.count - 1] {
            var changed = envelope
            changed.ct[changed.ct.startIndex + index] ^= 0x01
            #expect(throws: RouteEnvelopeError.cannotOpen) { try changed.open(master: master, nonce: nonce) }
        }
        var otherIV = envelope
        otherIV.iv[otherIV.iv.startIndex] ^= 0x80
        #expect(throws: RouteEnvelopeError.cannotOpen) { try otherIV.open(master: master, nonce: nonce) }
        #expect(throws: RouteEnvelopeError.cannotOpen) { try envelope.open(master: master, nonce: "B7ROWSER0QR6") }
        let otherMaster = try RouteEnvelope.masterKey(passphrase: "Cafe am Meer 7 \u{FC}\u{DF}", kdf: envelope.kdf)
        #expect(throws: RouteEnvelopeError.cannotOpen) { try envelope.open(master: otherMaster, nonce: nonce) }
    }

    // MARK: The other way: Swift seals, the browser opens

    static let swiftNonce = "SW1FTSEALED9"
    static let swiftPassphrase = "Ga\u{308}nsefu\u{308}\u{DF}chen – 12"
    static let swiftSalt = Data((0..<16).map { UInt8(0x50 + $0) })
    static let swiftIV = Data((0..<12).map { UInt8(0xe0 + $0) })
    static let swiftIterations = 20_000
    static let swiftRoute = Route(nonce: swiftNonce, qrPeriod: 12, tracks: [
        Track(fixes: [
            Fix(latitude: 47.3769, longitude: 8.5417, altitude: 408.25, accuracy: 3.5, time: Date(timeIntervalSince1970: 1_764_003_600.5)),
            Fix(latitude: 47.37702, longitude: 8.54188, altitude: nil, accuracy: nil, time: Date(timeIntervalSince1970: 1_764_003_601.75)),
        ]),
        Track(fixes: [
            Fix(latitude: 47.38, longitude: 8.55, altitude: 410, accuracy: 25, time: Date(timeIntervalSince1970: 1_764_004_000)),
        ]),
    ])

    /// The Swift-sealed vector as it is made today (fixed salt and IV).
    static func swiftSealedVector() throws -> [String: Any] {
        let plaintext = RoutePlaintext.encode(swiftRoute)
        let kdf = RouteEnvelope.KDF.pbkdf2(iterations: swiftIterations, salt: swiftSalt)
        let envelope = try RouteEnvelope.seal(plaintext: plaintext, passphrase: swiftPassphrase, nonce: swiftNonce, kdf: kdf, iv: swiftIV)
        let master = try envelope.masterKey(passphrase: swiftPassphrase)
        let token = RouteKeys.deleteToken(master: master)
        return [
            "about": "A route sealed by Swift (WaymarkCore RouteEnvelope, pbkdf2-sha256) with a fixed salt and IV. Made by BrowserEnvelopeTests.swift with WAYMARK_WRITE_ENVELOPE_VECTORS=1; see README.md.",
            "passphrase": swiftPassphrase,
            "nonce": swiftNonce,
            "plaintext": String(decoding: plaintext, as: UTF8.self),
            "envelope": try JSONSerialization.jsonObject(with: envelope.jsonData()),
            "lookupKey": RouteKeys.lookupKey(nonce: swiftNonce),
            "deleteToken": token,
            "deleteTokenHash": try RouteKeys.deleteTokenHash(token: token),
        ]
    }

    @Test("The Swift-sealed vector the browser opens is what Swift seals today")
    func swiftSealedIsCurrent() throws {
        let made = try Self.swiftSealedVector()
        let file = Self.folder.appendingPathComponent("swift-sealed.json")
        if ProcessInfo.processInfo.environment["WAYMARK_WRITE_ENVELOPE_VECTORS"] == "1" {
            var data = try JSONSerialization.data(withJSONObject: made, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            data.append(0x0A)
            try data.write(to: file)
        }
        let kept = try Self.vector("swift-sealed.json")
        for key in ["passphrase", "nonce", "plaintext", "lookupKey", "deleteToken", "deleteTokenHash"] {
            #expect(kept[key] as? String == made[key] as? String, "\(key) differs from what Swift makes")
        }
        let keptEnvelope = try RouteEnvelope.decode(json: Self.envelopeJSON(kept))
        #expect(keptEnvelope == (try RouteEnvelope.decode(json: Self.envelopeJSON(made))))
        let route = try keptEnvelope.open(passphrase: Self.swiftPassphrase, nonce: Self.swiftNonce)
        #expect(route == Self.swiftRoute)
    }
}
