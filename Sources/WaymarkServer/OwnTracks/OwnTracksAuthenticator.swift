import Vapor
import WaymarkAPI

/// The OwnTracks app that posts (DESIGN §3.13): a device of an account, authenticated with HTTP
/// Basic, the account's username and the device's secret.
struct OwnTracksSender: Authenticatable {
    var device: StoredOwnTracksDevice
    var username: String
}

/// Checks HTTP Basic against the named account's devices that are not revoked: the SHA-256 of the
/// secret sent is compared with each stored one in constant time, and an unknown username costs
/// the same hash, so the answer's timing tells nothing. Anything else is 401 with a Basic challenge.
struct OwnTracksAuthenticator: AsyncMiddleware {
    let accounts: any AccountStore
    let devices: any OwnTracksStore

    static let challenge = #"Basic realm="Waymark OwnTracks", charset="UTF-8""#

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let basic = request.headers.basicAuthorization else {
            throw Self.refusal("Send the account's username and the OwnTracks device's secret with HTTP Basic (set them in OwnTracks' connection settings).")
        }
        let presented = Array(AccountService.tokenHash(basic.password).utf8)
        let account = try await accounts.account(username: basic.username.lowercased())
        var candidates: [StoredOwnTracksDevice] = []
        if let account { candidates = try await devices.activeDevices(owner: account.id) }
        var match: StoredOwnTracksDevice?
        for device in candidates where RequestSigning.constantTimeEqual(presented, Array(device.secretHash.utf8)) {
            match = device
        }
        guard let account, let match else {
            throw Self.refusal("This username and device secret match no OwnTracks device: pair the app again on /account (a revoked device stays refused).")
        }
        // OwnTracks names the user again in X-Limit-U when it is set in the app: it must be the same.
        if let user = request.headers.first(name: "X-Limit-U"), !user.isEmpty, user.lowercased() != account.username {
            throw Self.refusal("X-Limit-U names another user than the Basic username; set the same in OwnTracks' identification settings.")
        }
        request.auth.login(OwnTracksSender(device: match, username: account.username))
        return try await next.respond(to: request)
    }

    static func refusal(_ reason: String) -> APIError {
        var error = APIError.unauthorized(.wrongCredentials, reason)
        error.headers.replaceOrAdd(name: .wwwAuthenticate, value: challenge)
        return error
    }
}
