import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkVault

/// The seed's encryption: crypto_box_easy from SHA-256("auth") to the repository's key.
@Suite struct VaultSealTests {
    /// The shared vector (Tests/Conformance/vault/seal-vector.json), also read by the browser's tests.
    struct Vector: Decodable {
        var publicKey: String
        var senderSecretKeySource: String
        var nonce: String
        var plaintext: String
        var value: String
    }

    static func vector() throws -> Vector {
        try JSONDecoder().decode(Vector.self, from: Data(contentsOf: packageRoot.appendingPathComponent("Tests/Conformance/vault/seal-vector.json")))
    }

    @Test func theSeedsVectorIsReproducedByteForByte() throws {
        let vector = try Self.vector()
        #expect(vector.senderSecretKeySource == "auth")
        #expect(vector.plaintext.utf8.count == 116)
        #expect(vector.value.count == 264)
        let sealed = try VaultSeal.seal(Data(vector.plaintext.utf8), to: RepositoryKey(hex: vector.publicKey), nonce: try #require(Hex.decode(vector.nonce)))
        #expect(sealed.value == vector.value)
        #expect(sealed.nonce == vector.nonce)
        #expect(sealed.version == "0.4")
        #expect(String(decoding: sealed.json(), as: UTF8.self) == #"{"value":"\#(vector.value)","nonce":"\#(vector.nonce)","version":"0.4"}"#)
    }

    @Test func theSenderKeysAreSHA256OfAuthAndItsPublicKey() {
        // `printf auth | sha256sum`, and PyNaCl's PrivateKey(that).public_key.
        #expect(Hex.encode(VaultSeal.senderSecretKey) == "bdf49c3c3882102fc017ffb661108c63a836d065888a4093994398cc55c2ea2f")
        #expect(Hex.encode(VaultSeal.senderPublicKey) == "7d42b1b83cb4dac8aec275580524127a98afc7597dfdc299ed875181c2330377")
    }

    @Test func aSealedRecordOpensWithTheRepositorysSecretKey() throws {
        let secret = try VaultSeal.randomBytes(32)
        let key = try VaultSeal.publicKey(secretKey: secret)
        let record = VaultRecord(timestamp: Date(timeIntervalSince1970: 1_514_479_762), latitude: 40.75846, longitude: 73.92248, altitude: 160.34)
        let sealed = try VaultSeal.seal(record.json(), to: key)
        #expect(sealed.nonce.count == 48)
        #expect(sealed.value.count == (record.json().count + 16) * 2)
        #expect(sealed.value == sealed.value.lowercased())
        #expect(try VaultSeal.open(sealed, secretKey: secret) == record.json())
        // A fresh nonce every time: the same record never seals to the same value.
        let again = try VaultSeal.seal(record.json(), to: key)
        #expect(again.nonce != sealed.nonce)
        #expect(again.value != sealed.value)
    }

    @Test func aWrongKeyOrAFlippedByteDoesNotOpen() throws {
        let secret = try VaultSeal.randomBytes(32)
        let sealed = try VaultSeal.seal(Data("{\"a\":1}".utf8), to: VaultSeal.publicKey(secretKey: secret))
        #expect(throws: VaultError.self) { try VaultSeal.open(sealed, secretKey: VaultSeal.randomBytes(32)) }
        var bytes = try #require(Hex.decode(sealed.value))
        for index in [0, 16, bytes.count - 1] {
            var flipped = bytes
            flipped[index] ^= 0x01
            let item = SealedItem(value: Hex.encode(flipped), nonce: sealed.nonce)
            #expect {
                try VaultSeal.open(item, secretKey: secret)
            } throws: { error in
                if case .crypto = error as? VaultError { true } else { false }
            }
        }
        var nonce = try #require(Hex.decode(sealed.nonce))
        nonce[0] ^= 0x80
        #expect(throws: VaultError.self) { try VaultSeal.open(SealedItem(value: sealed.value, nonce: Hex.encode(nonce)), secretKey: secret) }
        bytes.removeLast(bytes.count - 10)
        #expect(throws: VaultError.self) { try VaultSeal.open(SealedItem(value: Hex.encode(bytes), nonce: sealed.nonce), secretKey: secret) }
        #expect(throws: VaultError.self) { try VaultSeal.open(SealedItem(value: "zz", nonce: sealed.nonce), secretKey: secret) }
    }

    @Test(arguments: [String(repeating: "a", count: 63), String(repeating: "a", count: 65), "", String(repeating: "g", count: 64),
                      String(repeating: "a", count: 62) + " a", String(repeating: "é", count: 32)])
    func aRepositoryKeyMustBe64HexCharacters(_ text: String) {
        #expect {
            try RepositoryKey(hex: text)
        } throws: { error in
            if case .invalidKey = error as? VaultError { true } else { false }
        }
    }

    @Test func aRepositoryKeyReadsEitherCase() throws {
        let upper = try RepositoryKey(hex: "3C140482018ABDC7E2A8D70F1F797E83B46C77218A9BC56CE1AE35ACD2B53920")
        #expect(upper == (try RepositoryKey(hex: "3c140482018abdc7e2a8d70f1f797e83b46c77218a9bc56ce1ae35acd2b53920")))
        #expect(upper.bytes.count == 32)
    }

    @Test func aNonceOfAnotherSizeIsRefused() throws {
        let key = try RepositoryKey(hex: Self.vector().publicKey)
        #expect(throws: VaultError.self) { try VaultSeal.seal(Data("{}".utf8), to: key, nonce: [UInt8](repeating: 1, count: 23)) }
    }
}
