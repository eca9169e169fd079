import Foundation

/// `POST /api/v1/qr/decode`: the texts of the QR codes the server read in a photo (the `/vault`
/// page's sign-in by a photo of the vault's login code, where the browser cannot read it itself).
/// Empty when the photo shows no readable code. The texts may hold passwords: the server neither
/// keeps nor logs them.
public struct QRDecodeResult: Codable, Sendable, Equatable {
    public var texts: [String]

    public init(texts: [String]) {
        self.texts = texts
    }
}
