import Foundation
import Testing
import WaymarkCore
import WaymarkTestSupport

/// An OwnTracks key paired in the browser (`sealOwnTracksKey` of Web/recorder/envelope.js) opens
/// in Swift, where `waymark tag` and `routes export` open it, and the CLI's pairing opens in the
/// browser's `/vault/user`: the two implementations agree on the envelope and its associated data.
@Suite("OwnTracks keys sealed in the browser and in Swift")
struct BrowserOwnTracksKeyTests {
    static let envelopeModule = packageRoot.appendingPathComponent("Web/recorder/envelope.js").path

    /// Runs an ES module snippet with node, the browser's WebCrypto being node's.
    static func node(_ script: String, _ arguments: [String]) async throws -> String {
        let output = try await ExternalTool.run(["node", "--input-type=module", "-e", script, "--"] + arguments)
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the browser's sealed key opens in Swift only as an OwnTracks key, with its nonce and passphrase; Swift's opens in the browser")
    func bothWays() async throws {
        let key = OwnTracksKey.make(), nonce = QRPayload.makeNonce(), passphrase = "Café passphrase, from the phone"
        let sealedInBrowser = try await Self.node("""
            const { sealOwnTracksKey } = await import(process.argv[1]);
            const [key, passphrase, nonce] = process.argv.slice(2);
            console.log(JSON.stringify(await sealOwnTracksKey(key, passphrase, nonce, { iterations: 2000 })));
            """, [Self.envelopeModule, key.text, passphrase, nonce])
        let envelope = try RouteEnvelope.decode(json: Data(sealedInBrowser.utf8))
        #expect(try envelope.open(.owntracksKey, passphrase: passphrase, nonce: nonce) == Data(key.text.utf8))
        #expect(throws: RouteEnvelopeError.cannotOpen) { try envelope.open(passphrase: passphrase, nonce: nonce) }
        #expect(throws: RouteEnvelopeError.cannotOpen) { try envelope.open(.owntracksKey, passphrase: passphrase, nonce: QRPayload.makeNonce()) }
        #expect(throws: RouteEnvelopeError.cannotOpen) { try envelope.open(.owntracksKey, passphrase: passphrase + " ", nonce: nonce) }

        let sealedInSwift = try RouteEnvelope.seal(.owntracksKey, Data(key.text.utf8), passphrase: passphrase, nonce: nonce, kdf: .pbkdf2(iterations: 2000))
        let opened = try await Self.node("""
            const { openOwnTracksKey } = await import(process.argv[1]);
            const [envelope, passphrase, nonce] = process.argv.slice(2);
            console.log(await openOwnTracksKey(JSON.parse(envelope), passphrase, nonce));
            """, [Self.envelopeModule, String(decoding: sealedInSwift.jsonData(), as: UTF8.self), passphrase, nonce])
        #expect(opened == key.text)
    }
}
