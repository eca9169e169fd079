import Crypto
import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// Photo receipts (DESIGN §3.10): the canonical JSON against node's `JSON.stringify`, receipts
/// against PyNaCl (libsodium) and hashlib, the key file against openssl.
@Suite("Photo receipts: canonical metadata, Ed25519 signatures, strict reading, tampering caught")
struct ReceiptTests {
    static let script = packageRoot.appendingPathComponent("Tests/Reference/receipt_reference.py")

    static func metadata(id: UUID = UUID(), centroid: ReceiptMetadata.Centroid? = .init(latitude: 46.0500123, longitude: 14.5068, samples: 10)) -> ReceiptMetadata {
        ReceiptMetadata(photoId: id, ownerId: UUID(), title: "Field 7 — north \"edge\"\t✓", capturedAt: 1_780_000_000.8, latitude: 46.05, longitude: 14.5,
                        altitude: 295.25, accuracy: 3.5, azimuth: 271, tilt: -0.000001, centroid: centroid, width: 1200, height: 1600,
                        mime: "image/jpeg", receivedAt: ReceiptMetadata.receivedAtText(Date(timeIntervalSince1970: 1_780_000_123.4567)))
    }

    /// What the reference script says of a receipt.
    static func reference(_ receipt: String, image: Data? = nil, publicKey: String? = nil) async throws -> [String: String] {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("receipt.json")
        try Data(receipt.utf8).write(to: file)
        var arguments = [try StandinVault.python(), script.path, file.path]
        if let image {
            let imageFile = folder.url.appendingPathComponent("photo.jpg")
            try image.write(to: imageFile)
            arguments += ["--image", imageFile.path]
        }
        if let publicKey { arguments += ["--public-key", publicKey] }
        let output = try await ExternalTool.run(arguments)
        return try JSONDecoder().decode([String: String].self, from: output)
    }

    @Test("Numbers and strings are written exactly as node's JSON.stringify writes them (RFC 8785)")
    func canonicalAgainstNode() async throws {
        var random = SplitMix(seed: 2026)
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 1e21, 1e20, 123456789012345680000, 1e-6, 1e-7, 0.000001234, 5e-324, 1.7976931348623157e308,
                                2.2250738585072014e-308, 46.05, 1_780_000_000.8, 1_780_000_000, 9007199254740993, 0.30000000000000004, 1e16, 1.5e-9, 360, -90]
        for _ in 0..<3_000 {
            let bits = random.next()
            let value = Double(bitPattern: bits)
            if value.isFinite { values.append(value) }
            values.append(Double(Int64(bitPattern: random.next()) % 100_000_000) / 1_000_000)
        }
        let strings = ["plain", "quote \" backslash \\ slash /", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\u{7F}", "äöü — ✓ 𝄞", "\u{2028}\u{2029}"]
        let folder = try TemporaryFolder()
        let input = folder.url.appendingPathComponent("values.json")
        // Swift's shortest round-trip digits, which node reads back as the same doubles.
        try Data(("[" + values.map { "\($0)" }.joined(separator: ",") + "]").utf8).write(to: input)
        let numbers = try await ExternalTool.run(["node", "-e", "const v = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')); process.stdout.write(v.map(x => JSON.stringify(x)).join('\\n'))", input.path])
        let expected = String(decoding: numbers, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(expected.count == values.count)
        var mismatches: [String] = []
        for (value, node) in zip(values, expected) where CanonicalJSON.number(value) != node {
            mismatches.append("\(value): ours \(CanonicalJSON.number(value) ?? "nil"), node \(node)")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")

        let stringsFile = folder.url.appendingPathComponent("strings.json")
        try JSONEncoder().encode(strings).write(to: stringsFile)
        let written = try await ExternalTool.run(["node", "-e", "const v = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')); process.stdout.write(JSON.stringify(v))", stringsFile.path])
        #expect(CanonicalJSON.text(.array(strings.map { .string($0) })) == String(decoding: written, as: UTF8.self))
        #expect(CanonicalJSON.number(.infinity) == nil && CanonicalJSON.number(.nan) == nil)
    }

    @Test("A receipt verifies here and with PyNaCl and hashlib; its JSON reads back as it was")
    func verifies() async throws {
        let key = ReceiptSigningKey()
        let image = Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let metadata = Self.metadata()
        let receipt = try PhotoReceipt.issue(metadata: metadata, sha256Image: SHA256.hash(data: image).map { String(format: "%02x", $0) }.joined(), key: key.privateKey)
        #expect(receipt.signature.count == 64 && receipt.publicKey == key.publicKey)
        #expect(receipt.receivedAt == "2026-05-28T20:28:43.457Z")
        let read = try PhotoReceipt(json: Data(receipt.json.utf8))
        #expect(read == receipt)
        let verdict = read.verify(image: image, trustedKey: key.publicKey)
        #expect(verdict.isValid && verdict.signature == .passed && verdict.metadataHash == .passed && verdict.imageHash == .passed && verdict.publicKey == .passed)
        #expect(read.verify(image: nil, trustedKey: nil).imageHash == .notChecked)

        let python = try await Self.reference(receipt.json, image: image, publicKey: key.publicKey.base64EncodedString())
        #expect(python["signature"] == "ok" && python["metadata"] == "ok" && python["image"] == "ok" && python["key"] == "ok", "\(python)")
        #expect(python["canonical"] == metadata.canonicalJSON, "node writes the metadata as we do")

        // Without a centroid, and with nulls: still the same bytes for node.
        var bare = Self.metadata(centroid: nil)
        bare.latitude = nil
        bare.longitude = nil
        bare.tilt = nil
        let second = try PhotoReceipt.issue(metadata: bare, sha256Image: receipt.sha256Image, key: key.privateKey)
        let secondPython = try await Self.reference(second.json)
        #expect(secondPython["signature"] == "ok" && secondPython["metadata"] == "ok", "\(secondPython)")
        #expect(bare.canonicalJSON?.contains(#""centroid":null"#) == true)
    }

    @Test("A changed image byte, metadata value, public key or a truncated signature fails the right check, here and in PyNaCl")
    func tampering() async throws {
        let key = ReceiptSigningKey(), other = ReceiptSigningKey()
        let image = Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let receipt = try PhotoReceipt.issue(metadata: Self.metadata(), sha256Image: SHA256.hash(data: image).map { String(format: "%02x", $0) }.joined(), key: key.privateKey)

        // One byte of the photo.
        var changed = image
        changed[1_000] ^= 0x01
        let imageVerdict = receipt.verify(image: changed, trustedKey: key.publicKey)
        #expect(!imageVerdict.isValid && imageVerdict.imageHash.failed && imageVerdict.signature == .passed && imageVerdict.metadataHash == .passed)
        #expect(try await Self.reference(receipt.json, image: changed)["image"] == "bad")

        // A metadata value (the latitude), in the receipt's JSON.
        let moved = receipt.json.replacingOccurrences(of: #""latitude":46.05,"#, with: #""latitude":46.06,"#)
        #expect(moved != receipt.json)
        let movedVerdict = try PhotoReceipt(json: Data(moved.utf8)).verify(image: image, trustedKey: nil)
        #expect(!movedVerdict.isValid && movedVerdict.metadataHash.failed && movedVerdict.signature == .passed)
        #expect(try await Self.reference(moved)["metadata"] == "bad")

        // A metadata hash changed to match the changed metadata: then the signature fails.
        var rehashed = try PhotoReceipt(json: Data(moved.utf8))
        rehashed.sha256Metadata = try #require(rehashed.metadata.sha256)
        let rehashedVerdict = rehashed.verify(image: image, trustedKey: nil)
        #expect(rehashedVerdict.metadataHash == .passed && rehashedVerdict.signature == .failed(.signatureMismatch))
        let rehashedPython = try await Self.reference(rehashed.json)
        #expect(rehashedPython["metadata"] == "ok" && rehashedPython["signature"] == "bad")

        // Another key put in the receipt: the signature fails; against the pinned key it is a mismatch too.
        var swapped = receipt
        swapped.publicKey = other.publicKey
        let swappedVerdict = swapped.verify(image: image, trustedKey: key.publicKey)
        #expect(swappedVerdict.signature == .failed(.signatureMismatch) && swappedVerdict.publicKey.failed)
        #expect(try await Self.reference(swapped.json)["signature"] == "bad")
        // Signed by another key altogether, the receipt is sound but not the pinned key's.
        let foreign = try PhotoReceipt.issue(metadata: Self.metadata(), sha256Image: receipt.sha256Image, key: other.privateKey)
        let foreignVerdict = foreign.verify(image: image, trustedKey: key.publicKey)
        #expect(foreignVerdict.signature == .passed && foreignVerdict.publicKey == .failed(.keyMismatch(trusted: key.publicKey, receipt: other.publicKey)))
        #expect(try await Self.reference(foreign.json, publicKey: key.publicKey.base64EncodedString())["key"] == "bad")

        // A truncated signature.
        var truncated = receipt
        truncated.signature = receipt.signature.prefix(63)
        #expect(truncated.verify(image: image, trustedKey: nil).signature == .failed(.signatureMalformed(bytes: 63)))
        #expect(try await Self.reference(truncated.json)["signature"] == "bad")
        // One bit of the signature.
        var flipped = receipt
        flipped.signature[10] ^= 0x80
        #expect(flipped.verify(image: image, trustedKey: nil).signature == .failed(.signatureMismatch))
        #expect(try await Self.reference(flipped.json)["signature"] == "bad")
    }

    @Test("Receipts are read strictly: every member, nothing else, of its type")
    func strictReading() throws {
        let receipt = try PhotoReceipt.issue(metadata: Self.metadata(), sha256Image: String(repeating: "ab", count: 32), key: ReceiptSigningKey().privateKey)
        let json = receipt.json
        func error(_ text: String) -> ReceiptError? {
            do {
                _ = try PhotoReceipt(json: Data(text.utf8))
                return nil
            } catch {
                return error
            }
        }
        #expect(error(json) == nil)
        #expect(error("not json") == .notJSON)
        #expect(error("[1]") == .notAnObject)
        #expect(error(json.replacingOccurrences(of: #"{"algorithm""#, with: #"{"extra":1,"algorithm""#)) == .members(missing: [], unknown: ["extra"]))
        #expect(error(json.replacingOccurrences(of: #""algorithm":"Ed25519","#, with: "")) == .members(missing: ["algorithm"], unknown: []))
        #expect(error(json.replacingOccurrences(of: #""Ed25519""#, with: #""RSA""#)) == .unknownAlgorithm("RSA"))
        #expect(error(json.replacingOccurrences(of: receipt.sha256Image, with: receipt.sha256Image.uppercased())) == .invalidMember("sha256Image"))
        #expect(error(json.replacingOccurrences(of: #""width":1200"#, with: #""width":"1200""#)) == .invalidMember("metadata"))
        #expect(error(json.replacingOccurrences(of: #""width":1200"#, with: #""width":1200,"bytes":5"#)) == .invalidMember("metadata"))
        #expect(error(json.replacingOccurrences(of: #""tilt":-0.000001,"#, with: "")) == .invalidMember("metadata"))
        #expect(error(json.replacingOccurrences(of: receipt.signature.base64EncodedString(), with: "not base64!")) == .invalidMember("signature"))
        // Whitespace is no change: the metadata is hashed in its canonical form.
        // (No comma or brace is inside a string of this receipt.)
        let spaced = json.replacingOccurrences(of: ",", with: ",\n  ").replacingOccurrences(of: "{", with: "{ ").replacingOccurrences(of: "}", with: " }")
        #expect(spaced != json)
        #expect(try PhotoReceipt(json: Data(spaced.utf8)).verify(image: nil, trustedKey: nil).isValid)
    }

    @Test("The key file is PEM PKCS#8 that openssl reads as the same Ed25519 key; anything else is refused")
    func keyFile() async throws {
        let key = ReceiptSigningKey()
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("receipt-ed25519.key")
        try Data(key.pem.utf8).write(to: file)
        let der = try await ExternalTool.run(["openssl", "pkey", "-in", file.path, "-pubout", "-outform", "DER"])
        #expect(der.suffix(32) == key.publicKey, "openssl derives the same public key")
        // A key openssl made reads too.
        let made = folder.url.appendingPathComponent("openssl.key")
        try await ExternalTool.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", made.path])
        let theirs = try ReceiptSigningKey(pem: String(decoding: try Data(contentsOf: made), as: UTF8.self))
        let theirDER = try await ExternalTool.run(["openssl", "pkey", "-in", made.path, "-pubout", "-outform", "DER"])
        #expect(theirs.publicKey == theirDER.suffix(32))
        #expect(try ReceiptSigningKey(pem: key.pem).publicKey == key.publicKey)
        #expect(throws: ReceiptKeyError.notPEM) { try ReceiptSigningKey(pem: "garbage") }
        #expect(throws: ReceiptKeyError.notPEM) { try ReceiptSigningKey(pem: String(key.pem.dropLast(10))) }
        let rsa = folder.url.appendingPathComponent("rsa.key")
        try await ExternalTool.run(["openssl", "genpkey", "-algorithm", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", rsa.path])
        #expect(throws: ReceiptKeyError.notEd25519) { try ReceiptSigningKey(pem: String(decoding: try Data(contentsOf: rsa), as: UTF8.self)) }
    }
}
