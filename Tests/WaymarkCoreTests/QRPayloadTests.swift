import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("QRPayload")
struct QRPayloadTests {
    @Test("Reads Waymark's payload and the original specification's example")
    func readsPayloads() throws {
        let payload = try #require(QRPayload("1564650590-2OANEZK7Q1XD"))
        #expect(payload.time == 1_564_650_590)
        #expect(payload.nonce == "2OANEZK7Q1XD")
        #expect(payload.text == "1564650590-2OANEZK7Q1XD")

        let original = try #require(QRPayload("1564650590-2OAnezk"))
        #expect(original.nonce == "2OAnezk")
        #expect(QRPayload("  1564650590-2OANEZK7Q1XD\n") == payload)
    }

    @Test("Refuses other QR codes", arguments: [
        "https://example.com/1564650590-2OANEZK7Q1XD", "1564650590", "1564650590-", "1564650590-abc",
        "15646505-2OANEZK7Q1XD", "156465059012-2OANEZK7Q1XD", "1564650590-2OANEZK7Q1XD-x",
        "1564650590 2OANEZK7Q1XD", "-1564650590-2OANEZK7Q1XD", "1564650590-2OANEZK 7Q1XD",
        "1564650590-ÄÖÜ123", "1564650590-" + String(repeating: "A", count: 33), "",
    ])
    func refusesOthers(_ text: String) {
        #expect(QRPayload(text) == nil)
    }

    @Test("Nonces are 12 characters of 0-9A-Z, and round-trip through the payload")
    func nonces() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let nonce = QRPayload.makeNonce()
            #expect(nonce.count == 12)
            #expect(nonce.allSatisfy { ("0"..."9").contains($0) || ("A"..."Z").contains($0) })
            let payload = try #require(QRPayload(QRPayload(time: 1_700_000_000, nonce: nonce).text))
            #expect(payload.nonce == nonce)
            seen.insert(nonce)
        }
        #expect(seen.count == 200)
    }

    @Test("A seeded generator gives the same nonce every time")
    func seededNonce() {
        var first = SplitMix(seed: 42), second = SplitMix(seed: 42)
        #expect(QRPayload.makeNonce(using: &first) == QRPayload.makeNonce(using: &second))
    }
}
