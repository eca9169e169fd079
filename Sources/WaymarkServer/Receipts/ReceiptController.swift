import Foundation
import Vapor
import WaymarkAPI
import WaymarkCore

/// Photo receipts (DESIGN §3.10): `GET /api/v1/photos/{id}/receipt` to whoever may see the photo
/// (``PhotoService/mayView(_:viewer:on:)``: anyone signed in a public one, its owner a private
/// one, officers and admins also the private photos of inspection tasks; anyone else gets 404, as
/// for a photo that does not exist; signed out, 401), and the server's public key to anyone.
struct ReceiptController: Sendable {
    let photos: PhotoService
    let key: ReceiptSigningKey

    func register(on routes: ContractRoutes) {
        routes.on("receiptPublicKey", use: publicKey)
        routes.on("photoReceipt", use: receipt)
    }

    @Sendable func publicKey(_ request: Request) async throws -> Response {
        try Response.json(ReceiptPublicKeyDTO(publicKey: key.publicKey.base64EncodedString(), algorithm: PhotoReceipt.algorithm))
    }

    @Sendable func receipt(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        guard let id = request.uuidParameter("photo_id"), let photo = try await photos.photo(id: id),
              try await photos.mayView(photo, viewer: user.account, on: request.application.serverDatabase)
        else { throw PhotoController.notFound }
        guard let receipt = try await photos.receipt(of: id) else {
            throw APIError(.notFound, .noReceipt, "This photo was stored before the server signed receipts, so it has none; photos uploaded since have one.")
        }
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
        return Response(status: .ok, headers: headers, body: .init(string: receipt.json))
    }
}
