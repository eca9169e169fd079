import Foundation
import Testing
import WaymarkCore

@Suite("Passphrase and its verifier")
struct PassphraseVerifierTests {
    /// A low scrypt cost keeps the tests fast; the derivation is the same.
    static let n = 1024

    @Test("SCO-07: a passphrase with text is accepted as typed")
    func validAccepted() throws {
        #expect(try Passphrase.validate("correct horse") == "correct horse")
        #expect(try Passphrase.validate("  x ") == "  x ")
    }

    @Test("SCO-08: empty or whitespace-only passphrases are refused", arguments: ["", " ", "\t\n", "\u{00A0}\u{2003}"])
    func emptyRefused(_ text: String) {
        #expect(throws: PassphraseError.empty) { try Passphrase.validate(text) }
        #expect(PassphraseError.empty.description.contains("empty"))
    }

    @Test("SCO-09: a new verifier matches its passphrase, with a 16-byte salt and a 32-byte hash")
    func newVerifier() throws {
        let verifier = try PassphraseVerifier.make(passphrase: "correct horse", n: Self.n)
        #expect(verifier.salt.count == 16)
        #expect(verifier.hash.count == 32)
        #expect((verifier.n, verifier.r, verifier.p) == (Self.n, 8, 1))
        #expect(try verifier.matches("correct horse"))
        #expect(throws: PassphraseError.empty) { try PassphraseVerifier.make(passphrase: "   ", n: Self.n) }
    }

    @Test("SCO-09: the hash is scrypt over the passphrase (RFC 7914 test vector)")
    func knownAnswer() throws {
        // RFC 7914 §12: scrypt("pleaseletmein", "SodiumChloride", N = 16384, r = 8, p = 1), first 32 bytes.
        let expected = "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2"
        let verifier = PassphraseVerifier(n: 16_384, r: 8, p: 1, salt: Data("SodiumChloride".utf8), hash: bytes(expected))
        #expect(try verifier.matches("pleaseletmein"))
        #expect(try !verifier.matches("pleaseletmeim"))
        // Only the last byte differs: still no match.
        let almost = PassphraseVerifier(n: 16_384, r: 8, p: 1, salt: Data("SodiumChloride".utf8),
                                        hash: bytes(String(expected.dropLast(2)) + "63"))
        #expect(try !almost.matches("pleaseletmein"))
    }

    @Test("SCO-10: a different passphrase does not match; NFC forms of the same one do")
    func matching() throws {
        let verifier = try PassphraseVerifier.make(passphrase: "caf\u{E9} cr\u{E8}me", n: Self.n)
        #expect(try verifier.matches("cafe\u{301} cre\u{300}me"))
        #expect(try !verifier.matches("cafe creme"))
        #expect(try !verifier.matches("caf\u{E9} cr\u{E8}me "))
        #expect(throws: PassphraseError.empty) { try verifier.matches("") }
    }

    @Test("SCO-12: after a reset, a new passphrase gets a fresh salt and the old one no longer matches")
    func reset() throws {
        let old = try PassphraseVerifier.make(passphrase: "first", n: Self.n)
        let again = try PassphraseVerifier.make(passphrase: "first", n: Self.n)
        #expect(old.salt != again.salt)
        #expect(old.hash != again.hash)
        let new = try PassphraseVerifier.make(passphrase: "second", n: Self.n)
        #expect(try !new.matches("first"))
        #expect(try new.matches("second"))
    }

    @Test("A verifier survives a round trip through JSON, as the store keeps it")
    func codable() throws {
        let verifier = try PassphraseVerifier.make(passphrase: "correct horse", n: Self.n)
        let decoded = try JSONDecoder().decode(PassphraseVerifier.self, from: JSONEncoder().encode(verifier))
        #expect(try decoded.matches("correct horse"))
    }

    @Test("Damaged cost parameters are an error, not a crash or a match")
    func damaged() throws {
        var verifier = try PassphraseVerifier.make(passphrase: "correct horse", n: Self.n)
        verifier.n = 1000
        #expect(throws: RouteEnvelopeError.self) { try verifier.matches("correct horse") }
    }
}

/// Bytes from lowercase hexadecimal digits (test data only).
private func bytes(_ hex: String) -> Data {
    var data = Data()
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        data.append(UInt8(hex[index..<next], radix: 16) ?? 0)
        index = next
    }
    return data
}
