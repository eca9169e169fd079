import Foundation
import WaymarkAPI
import WaymarkCore

/// Pairing OwnTracks with the signed-in account (DESIGN §3.13).
extension PlatformClient {
    /// Pairs a device; the answer holds its secret, the only time it is shown. A retry with the
    /// same nonce and sealed key (after a lost answer) answers the same device with a new secret.
    public func createOwnTracksDevice(_ request: CreateOwnTracksDeviceRequest) async throws -> NewOwnTracksDeviceDTO {
        try await json("createOwnTracksDevice", body: request, expecting: 201)
    }

    /// The account's devices that are not revoked, oldest first.
    public func owntracksDevices() async throws -> [OwnTracksDeviceDTO] {
        let page: Page<OwnTracksDeviceDTO> = try await json("listOwnTracksDevices", body: Optional<String>.none, expecting: 200)
        return page.items
    }
}

/// A paired OwnTracks device: what the app is configured with (`waymark owntracks pair --json`).
public struct OwnTracksPairing: Sendable, Encodable {
    /// The endpoint OwnTracks posts to.
    public var url: String
    public var username: String
    /// The device's secret, the Basic password.
    public var password: String
    public var deviceId: UUID
    /// The encryption key, which the server holds only sealed under the passphrase.
    public var encryptionKey: String
    /// The device's nonce: its time QR code and `--owntracks` name it.
    public var nonce: String

    /// The configuration OwnTracks imports.
    public var configuration: OwnTracksConfiguration {
        OwnTracksConfiguration(url: url, username: username, password: password, encryptionKey: encryptionKey)
    }
}

extension PlatformClient {
    /// Pairs a new OwnTracks device with the signed-in account (DESIGN §3.13): makes its nonce and
    /// a random encryption key here, seals the key under the passphrase (bound to the nonce) and
    /// sends only the sealed key; the key itself never leaves this computer but in the answer.
    public func pairOwnTracks(name: String, passphrase: String, kdf: RouteEnvelope.KDFChoice = .scrypt()) async throws -> OwnTracksPairing {
        let nonce = QRPayload.makeNonce()
        let key = OwnTracksKey.make()
        let sealed = try RouteEnvelope.seal(.owntracksKey, Data(key.text.utf8), passphrase: passphrase, nonce: nonce, kdf: kdf)
        let device = try await createOwnTracksDevice(CreateOwnTracksDeviceRequest(name: name, nonce: nonce, sealedKey: sealed))
        let base = serverURL.absoluteString.hasSuffix("/") ? String(serverURL.absoluteString.dropLast()) : serverURL.absoluteString
        let url = base + (try APIContract.operation("publishOwnTracks").target([:], query: []))
        return OwnTracksPairing(url: url, username: device.username, password: device.secret, deviceId: device.id,
                                encryptionKey: key.text, nonce: device.nonce)
    }
}
