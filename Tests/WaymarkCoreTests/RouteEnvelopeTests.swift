import Crypto
import Foundation
import Testing
@testable import WaymarkCore

@Suite("RouteEnvelope")
struct RouteEnvelopeTests {
    static let nonce = "2OANEZK7Q1XD"
    static let fast = RouteEnvelope.KDFChoice.scrypt(n: 1_024)

    static let route = Route(nonce: nonce, qrPeriod: 5, tracks: [
        Track(fixes: [
            Fix(latitude: 52.5163, longitude: 13.3777, altitude: 34.5, accuracy: 4, time: Date(timeIntervalSince1970: 1_564_650_590.25)),
            Fix(latitude: 52.5164, longitude: 13.3779, time: Date(timeIntervalSince1970: 1_564_650_591.75)),
        ]),
        Track(fixes: [
            Fix(latitude: -33.8568, longitude: 151.2153, altitude: -2, accuracy: 12.5, time: Date(timeIntervalSince1970: 1_564_651_000)),
        ]),
    ])

    // MARK: Known answers from an independent implementation

    /// Made with Python's `hashlib.scrypt`/`pbkdf2_hmac` and `cryptography`'s HKDF and AESGCM
    /// (passphrase "Café am Meer 7" NFC, salt 00…0f or 64…73, iv a0…ab) — pins the format of DESIGN §3.2.
    static let scryptVector = #"{"v":1,"kdf":{"alg":"scrypt","n":1024,"r":8,"p":1,"salt":"AAECAwQFBgcICQoLDA0ODw=="},"aead":"aes-256-gcm","iv":"oKGio6Slpqeoqaqr","ct":"7d+MEUteyqwu1gXlSfKL+dGk5/9FteqgEhEcAkBdiwQ/vT/a3DP+IzAyxb1hX4EdDlLdvvK96iiF3z9kq0ngS+bOnb6ueLtMPXtLAvkGH2vaf+tPqVOXCvdMyccqoA/dYbR7wO4ZWWXwArVld5Ktd5LLcDkeYAldvvMuFVd1ZakitDIxs1jz2iSJtkjj9EYXb6z72ji6PnheWr7m+lOTSiwlxeacoSIB04tAmXJS+SJ6bcNutrQyq53H"}"#
    static let pbkdf2Vector = #"{"v":1,"kdf":{"alg":"pbkdf2-sha256","iterations":1000,"salt":"ZGVmZ2hpamtsbW5vcHFycw=="},"aead":"aes-256-gcm","iv":"oKGio6Slpqeoqaqr","ct":"P4beiDWkODfshFwyJrJolz5DFY+To4HnXY/j0OSzDhynt88/5L/RlBk5sCmQ0vMztIrjxBYNhxGJtGOnsFPSgQsRL8dDdsVa7J2P0KGQbeuCqQs2ELu/MiQ6YUSYiYCATfva9pPQqFGSAP0YleiHitWDm7aS6Mvb5gsYKfH+SyA18kOcOGMv4BY8Zra3eEWMWavyXQbWuvvnx/qsUPc8Qoc2Zi5KKvtOfYQ0YOxRkF3ePu51Pw8gra1w"}"#
    static let vectorPlaintext = #"{"v":1,"nonce":"2OANEZK7Q1XD","qrPeriod":5,"tracks":[[[52.5163,13.3777,34.5,4.0,1564650590.25],[52.5164,13.3779,null,null,1564650591.75]],[[52.52,13.4,40,5,1564651000]]]}"#
    static let vectorPassphrase = "Caf\u{E9} am Meer 7"

    @Test("Opens an scrypt envelope made by an independent implementation")
    func scryptKnownAnswer() throws {
        let envelope = try RouteEnvelope.decode(json: Data(Self.scryptVector.utf8))
        let master = try envelope.masterKey(passphrase: Self.vectorPassphrase)
        #expect(master.withUnsafeBytes { Data($0) }.hexString == "bc1ae43bca7a38d7e70791b780fe38b562290789358062a208f7b6ab9692d7e5")
        #expect(try envelope.openPlaintext(master: master, nonce: Self.nonce) == Data(Self.vectorPlaintext.utf8))
        let route = try envelope.open(passphrase: Self.vectorPassphrase, nonce: Self.nonce)
        #expect(route.nonce == Self.nonce)
        #expect(route.qrPeriod == 5)
        #expect(route.tracks.map(\.fixes.count) == [2, 1])
        #expect(route.tracks[0].fixes[1].altitude == nil)
        #expect(route.tracks[0].fixes[1].accuracy == nil)
        #expect(route.tracks[0].fixes[1].time.timeIntervalSince1970 == 1_564_650_591.75)
        #expect(route.tracks[1].fixes[0].altitude == 40)

        #expect(RouteKeys.deleteToken(master: master) == "6f579ffd61f522a5cb3647f25cede129b44e9c65a46574ea1e5320a1f9be8c2e")
        #expect(try RouteKeys.deleteTokenHash(token: RouteKeys.deleteToken(master: master)) == "b0e5253324cf7e29093dd5a6b30e2d74f50e1166ff0f57003f4da7cf083b9921")
        #expect(RouteKeys.lookupKey(nonce: Self.nonce) == "f450ac3b5cb196c97090ce4c3291e221bbc108df27e6f91665cc68d4f1e39768")
        // Written back, the envelope is the same JSON, byte for byte.
        #expect(String(decoding: envelope.jsonData(), as: UTF8.self) == Self.scryptVector)
    }

    @Test("Opens a PBKDF2-SHA256 envelope made by an independent implementation (as a browser writes)")
    func pbkdf2KnownAnswer() throws {
        let envelope = try RouteEnvelope.decode(json: Data(Self.pbkdf2Vector.utf8))
        #expect(envelope.kdf == .pbkdf2(iterations: 1_000, salt: Data(100..<116)))
        let master = try envelope.masterKey(passphrase: Self.vectorPassphrase)
        #expect(RouteKeys.deleteToken(master: master) == "ddfe645ad6647e0d17e225758f78818f999697c3f3eb76ae6b22ab789d080425")
        #expect(try envelope.openPlaintext(master: master, nonce: Self.nonce) == Data(Self.vectorPlaintext.utf8))
        #expect(String(decoding: envelope.jsonData(), as: UTF8.self) == Self.pbkdf2Vector)
    }

    @Test("scrypt at the default cost (n = 131072, r = 8) derives the independent implementation's key")
    func defaultCostKnownAnswer() throws {
        let kdf = RouteEnvelope.KDF.scrypt(n: 131_072, r: 8, p: 1, salt: Data(0..<16))
        let master = try RouteEnvelope.masterKey(passphrase: Self.vectorPassphrase, kdf: kdf)
        #expect(master.withUnsafeBytes { Data($0) }.hexString == "3b7b8ca9f1576887e262c8c274e7a4cce5c46f0117aa9f3ef894a66dcf6d5aa0")
    }

    // MARK: Round trips

    @Test("Round trip at the default cost")
    func roundTripDefault() throws {
        let envelope = try RouteEnvelope.seal(Self.route, passphrase: "correct horse", nonce: Self.nonce)
        #expect(envelope.kdf == .scrypt(n: 131_072, r: 8, p: 1, salt: { if case let .scrypt(_, _, _, salt) = envelope.kdf { return salt } else { return Data() } }()))
        let decoded = try RouteEnvelope.decode(json: envelope.jsonData())
        #expect(decoded == envelope)
        #expect(try decoded.open(passphrase: "correct horse", nonce: Self.nonce) == Self.route)
    }

    @Test("Round trip with PBKDF2; fresh salt and IV every time")
    func roundTripPBKDF2() throws {
        let first = try RouteEnvelope.seal(Self.route, passphrase: "pw", nonce: Self.nonce, kdf: .pbkdf2(iterations: 2_000))
        let second = try RouteEnvelope.seal(Self.route, passphrase: "pw", nonce: Self.nonce, kdf: .pbkdf2(iterations: 2_000))
        #expect(first.iv != second.iv)
        #expect(first.kdf != second.kdf)
        #expect(first.iv.count == 12)
        #expect(try first.open(passphrase: "pw", nonce: Self.nonce) == Self.route)
    }

    @Test("Composed and decomposed \"é\" open the same route")
    func unicodeNormalisation() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        let envelope = try RouteEnvelope.seal(Self.route, passphrase: decomposed, nonce: Self.nonce, kdf: Self.fast)
        #expect(try envelope.open(passphrase: composed, nonce: Self.nonce) == Self.route)
        // And the independent vector, made from the composed form, opens with the decomposed one.
        let vector = try RouteEnvelope.decode(json: Data(Self.scryptVector.utf8))
        #expect(throws: Never.self) { try vector.open(passphrase: "Cafe\u{301} am Meer 7", nonce: Self.nonce) }
    }

    // MARK: Refusals

    @Test("Wrong passphrase or wrong nonce: cannot open, saying passphrase or QR nonce do not match")
    func wrongSecrets() throws {
        let envelope = try RouteEnvelope.seal(Self.route, passphrase: "right", nonce: Self.nonce, kdf: Self.fast)
        #expect(throws: RouteEnvelopeError.cannotOpen) { try envelope.open(passphrase: "wrong", nonce: Self.nonce) }
        #expect(throws: RouteEnvelopeError.cannotOpen) { try envelope.open(passphrase: "right", nonce: "2OANEZK7Q1XE") }
        let message = String(describing: RouteEnvelopeError.cannotOpen)
        #expect(message.contains("passphrase") && message.contains("nonce"))
        #expect(throws: RouteEnvelopeError.emptyPassphrase) { try envelope.open(passphrase: "", nonce: Self.nonce) }
    }

    @Test("Sealing refuses KDF parameters that readers would refuse")
    func sealRefusesBadParameters() {
        #expect(throws: RouteEnvelopeError.self) { try RouteEnvelope.seal(Self.route, passphrase: "pw", nonce: Self.nonce, kdf: .scrypt(n: 1_000)) }
        #expect(throws: RouteEnvelopeError.self) { try RouteEnvelope.seal(Self.route, passphrase: "pw", nonce: Self.nonce, kdf: .scrypt(n: 1_024, r: 64)) }
        #expect(throws: RouteEnvelopeError.emptyPassphrase) { try RouteEnvelope.seal(Self.route, passphrase: "", nonce: Self.nonce, kdf: Self.fast) }
    }

    @Test("Any altered byte of the ciphertext, tag or IV makes the route unopenable")
    func tampering() throws {
        let envelope = try RouteEnvelope.seal(Self.route, passphrase: "pw", nonce: Self.nonce, kdf: Self.fast)
        let master = try envelope.masterKey(passphrase: "pw")
        for index in [0, envelope.ct.count / 2, envelope.ct.count - 1] {
            var altered = envelope
            altered.ct[altered.ct.startIndex + index] ^= 0x01
            #expect(throws: RouteEnvelopeError.cannotOpen) { try altered.open(master: master, nonce: Self.nonce) }
        }
        var alteredIV = envelope
        alteredIV.iv[alteredIV.iv.startIndex] ^= 0x80
        #expect(throws: RouteEnvelopeError.cannotOpen) { try alteredIV.open(master: master, nonce: Self.nonce) }
        var truncated = envelope
        truncated.ct = truncated.ct.prefix(10)
        #expect(throws: RouteEnvelopeError.self) { try truncated.open(master: master, nonce: Self.nonce) }
    }

    /// Replaces one part of the known-answer envelope JSON.
    static func variant(_ from: String, _ to: String) -> Data {
        Data(scryptVector.replacingOccurrences(of: from, with: to).utf8)
    }

    @Test("Malformed envelopes are refused with the field named", arguments: [
        (#""v":1,"#, #""v":2,"#, "v"),
        (#""v":1,"#, "", "v"),
        (#""aead":"aes-256-gcm""#, #""aead":"chacha20""#, "aead"),
        (#""iv":"oKGio6Slpqeoqaqr""#, #""iv":"oKGio6Sl""#, "iv"),
        (#""iv":"oKGio6Slpqeoqaqr""#, #""iv":"not base64!""#, "iv"),
        (#""ct":"7d+M"#, #""ct":7,"x":"7d+M"#, "ct"),
        (#""alg":"scrypt""#, #""alg":"argon2""#, "kdf.alg"),
        (#""n":1024"#, #""n":1000"#, "kdf.n"),
        (#""r":8"#, #""r":0"#, "kdf.r"),
        (#""p":1,"#, "", "kdf.p"),
        (#""salt":"AAECAwQFBgcICQoLDA0ODw==""#, #""salt":"AA==""#, "kdf.salt"),
    ])
    func malformed(_ from: String, _ to: String, _ field: String) {
        #expect {
            try RouteEnvelope.decode(json: Self.variant(from, to))
        } throws: { error in
            guard case let .malformed(named, _) = error as? RouteEnvelopeError else { return false }
            return named == field && String(describing: error).contains("\"\(field)\"")
        }
    }

    @Test("Text that is not JSON is refused as such")
    func notJSON() {
        #expect {
            try RouteEnvelope.decode(json: Data("SGVsbG8=".utf8))
        } throws: { error in
            guard case let .malformed(_, reason) = error as? RouteEnvelopeError else { return false }
            return reason.contains("JSON")
        }
    }

    // MARK: Plaintext and keys

    @Test("Plaintext: the object form round-trips; the bare array form of the original specification reads")
    func plaintextForms() throws {
        let encoded = RoutePlaintext.encode(Self.route)
        #expect(try RoutePlaintext.decode(encoded) == Self.route)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(object["v"] as? Int == 1)
        #expect(object["nonce"] as? String == Self.nonce)

        let bare = #" [[[48.1,11.5,null,3.5,1564650590.5],[48.2,11.6,510,null,1564650600]]]"#
        let route = try RoutePlaintext.decode(Data(bare.utf8))
        #expect(route.nonce == nil)
        #expect(route.tracks.count == 1)
        #expect(route.tracks[0].fixes[0].accuracy == 3.5)
        #expect(route.tracks[0].fixes[1].altitude == 510)
    }

    @Test("Plaintext that is not a route names where it goes wrong", arguments: [
        (#"{"v":1,"tracks":[[[48.1,11.5,null,null]]]}"#, "tracks"),
        (#"{"v":1,"tracks":[[[48.1,11.5,null,null,1,2]]]}"#, "tracks"),
        (#"{"v":1,"tracks":[[[148.1,11.5,null,null,1]]]}"#, "tracks"),
        (#"{"v":2,"tracks":[]}"#, "v"),
        (#"{"v":1}"#, "tracks"),
        (#"[[["a",11.5,null,null,1]]]"#, "[0]"),
    ])
    func malformedPlaintext(_ text: String, _ pathStart: String) {
        #expect {
            try RoutePlaintext.decode(Data(text.utf8))
        } throws: { error in
            guard case let .malformedPlaintext(path, _) = error as? RouteEnvelopeError else { return false }
            return path.hasPrefix(pathStart)
        }
    }

    @Test("A bare-array route takes its nonce from the QR code it was opened with")
    func bareArrayNonce() throws {
        let plaintext = Data(#"[[[48.1,11.5,null,null,1564650590]]]"#.utf8)
        let envelope = try RouteEnvelope.seal(plaintext: plaintext, passphrase: "pw", nonce: "2OAnezk",
                                              kdf: .scrypt(n: 1_024, r: 8, p: 1, salt: Data(0..<16)), iv: Data(0..<12))
        #expect(try envelope.open(passphrase: "pw", nonce: "2OAnezk").nonce == "2OAnezk")
    }

    @Test("Delete tokens: 64 hex digits; the server's hash refuses anything else")
    func deleteTokens() throws {
        let master = SymmetricKey(data: Data(repeating: 7, count: 32))
        let token = RouteKeys.deleteToken(master: master)
        #expect(token.count == 64)
        #expect(token == token.lowercased())
        #expect(try RouteKeys.deleteTokenHash(token: token) == (try RouteKeys.deleteTokenHash(token: token.uppercased())))
        #expect(throws: RouteEnvelopeError.malformedDeleteToken) { try RouteKeys.deleteTokenHash(token: "abc") }
        #expect(throws: RouteEnvelopeError.malformedDeleteToken) { try RouteKeys.deleteTokenHash(token: String(repeating: "g", count: 64)) }
        #expect(RouteKeys.lookupKey(nonce: "A") != RouteKeys.lookupKey(nonce: "B"))
    }
}
