import Foundation
import Testing
import WaymarkAPI
import WaymarkCore

@Suite("Request signing (DESIGN §3.3)")
struct RequestSigningTests {
    // Expected values computed independently with Python's hmac and hashlib.
    @Test("a POST is signed over method, target, timestamp and the body's SHA-256")
    func knownAnswerPost() {
        let body = Data(#"{"lookup":"x"}"#.utf8)
        #expect(RequestSigning.bodyHash(body) == "0832aec4cf3af89448d2c968b2ce67863c57e9c39957fadeb938091279f661a4")
        let sig = RequestSigning.signature(secret: "s3cret-é", method: "POST", target: "/api/v1/routes", timestamp: 1_700_000_000,
                                           bodyHash: RequestSigning.bodyHash(body))
        #expect(sig == "e0d395fc47c9444ec324c5fb0c1b7ae5a5872d68b9be6c9a67ccc0a841305d1d")
    }

    @Test("a GET signs the query string exactly as sent, and the hash of the empty body")
    func knownAnswerGet() {
        let sig = RequestSigning.signature(secret: "s3cret-é", method: "get", target: "/api/v1/routes?lookup=ab%20cd", timestamp: 1_700_000_000,
                                           bodyHash: RequestSigning.bodyHash(Data()))
        #expect(sig == "285e941f54bb12de952cd1be7fcb605d59b30135b7728a2c037f190ceb5e35c4")
    }

    @Test("verification accepts the right signature and refuses any change")
    func verify() {
        let hash = RequestSigning.bodyHash(Data("{}".utf8))
        let sig = RequestSigning.signature(secret: "k", method: "POST", target: "/route", timestamp: 5, bodyHash: hash)
        #expect(RequestSigning.verify(presented: sig, secret: "k", method: "POST", target: "/route", timestamp: 5, bodyHash: hash))
        #expect(!RequestSigning.verify(presented: sig, secret: "K", method: "POST", target: "/route", timestamp: 5, bodyHash: hash))
        #expect(!RequestSigning.verify(presented: sig, secret: "k", method: "POST", target: "/route?x", timestamp: 5, bodyHash: hash))
        #expect(!RequestSigning.verify(presented: sig, secret: "k", method: "POST", target: "/route", timestamp: 6, bodyHash: hash))
        #expect(!RequestSigning.verify(presented: String(sig.dropLast()), secret: "k", method: "POST", target: "/route", timestamp: 5, bodyHash: hash))
        #expect(!RequestSigning.verify(presented: sig.uppercased(), secret: "k", method: "POST", target: "/route", timestamp: 5, bodyHash: hash))
    }

    @Test("the constant-time comparison is a real comparison")
    func constantTime() {
        #expect(RequestSigning.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!RequestSigning.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!RequestSigning.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!RequestSigning.constantTimeEqual([], [0]))
    }

    @Test("the DTOs use the wire names of the API")
    func wireNames() throws {
        let created = try JSONEncoder().encode(RouteCreated(routeID: "r1", creationTime: 42))
        let object = try JSONSerialization.jsonObject(with: created) as? [String: Any]
        #expect(object?["route_id"] as? String == "r1")
        #expect(object?["creation_time"] as? Int == 42)
        #expect("0832aec4cf3af89448d2c968b2ce67863c57e9c39957fadeb938091279f661a4".isLowercaseHex64)
        #expect(!"0832AEC4cf3af89448d2c968b2ce67863c57e9c39957fadeb938091279f661a4".isLowercaseHex64)
        #expect(!"abc".isLowercaseHex64)
    }
}
