import Fluent
import Vapor

/// Accounts and sessions (DESIGN §3.5): sign-up, sign-in, sign-out and who is signed in.
struct AccountArea: ServerArea {
    var contract: String { "accounts" }
    var migrations: [any Migration] { [CreateAccounts()] }

    func register(_ context: AreaContext) async throws {
        AccountController(service: context.accounts, throttle: SignInThrottle(), registrationOpen: context.configuration.registrationOpen)
            .register(on: context.routes)
    }
}
