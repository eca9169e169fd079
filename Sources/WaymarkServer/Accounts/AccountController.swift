import Vapor
import WaymarkAPI
import WaymarkCore

/// Registration, sign-in and sign-out, and who is signed in (DESIGN §3.5).
struct AccountController: Sendable {
    let service: AccountService
    let throttle: SignInThrottle
    /// Whether anyone may register (`waymark serve --registration closed` turns it off).
    let registrationOpen: Bool

    func register(on routes: ContractRoutes) {
        routes.on("createAccount", use: createAccount)
        routes.on("signIn", use: signIn)
        routes.on("signOut", use: signOut)
        routes.on("me", use: me)
        routes.on("currentSession", use: currentSession)
    }

    @Sendable func createAccount(_ request: Request) async throws -> Response {
        guard registrationOpen else {
            throw APIError(.forbidden, .registrationClosed, "This server does not take new accounts; ask its administrator for one.")
        }
        let body = try request.decodeJSON(NewAccountRequest.self)
        if let wait = await throttle.admitRegistration(address: request.client.address, now: service.clock.now()) {
            request.logger.notice("account creation refused: too many from this address", metadata: ["retry_after": "\(wait)"])
            throw Self.tooManyAttempts(wait, "Too many accounts were made from this address")
        }
        let account: Account
        do {
            account = try await service.register(body)
        } catch let problem as AccountProblem {
            throw Self.error(for: problem)
        }
        request.logger.info("account created", metadata: ["user": "\(account.id)"])
        return try await sessionResponse(for: account, status: .created, request: request)
    }

    @Sendable func signIn(_ request: Request) async throws -> Response {
        let body = try request.decodeJSON(SignInRequest.self)
        let username = AccountRules.normalizedUsername(body.username)
        let address = request.client.address
        let ticket: SignInThrottle.Ticket
        switch await throttle.admit(username: username, address: address, now: service.clock.now()) {
        case .admitted(let admitted):
            ticket = admitted
        case .retryAfter(let wait):
            request.logger.notice("sign-in refused: too many failures", metadata: ["retry_after": "\(wait)"])
            throw Self.tooManyAttempts(wait, "Too many failed sign-ins")
        }
        let account: Account?
        do {
            account = try await service.checkPassword(username: body.username, password: body.password)
        } catch {
            await throttle.finish(ticket, succeeded: false)
            throw error
        }
        await throttle.finish(ticket, succeeded: account != nil)
        guard let account else {
            throw APIError.unauthorized(.wrongCredentials, "The username or the password is wrong.")
        }
        request.logger.info("signed in", metadata: ["user": "\(account.id)"])
        return try await sessionResponse(for: account, status: .ok, request: request)
    }

    @Sendable func signOut(_ request: Request) async throws -> Response {
        let user = try request.auth.require(SignedInUser.self)
        try await service.signOut(user.session)
        request.auth.logout(SignedInUser.self)
        let response = Response(status: .noContent)
        response.cookies[sessionCookieName] = Self.cookie(value: "", maxAge: 0, request: request)
        return response
    }

    @Sendable func me(_ request: Request) async throws -> Response {
        try Response.json(try request.auth.require(SignedInUser.self).account.dto)
    }

    /// Who is signed in, or `null`: never 401, so that an anonymous page view fails no request.
    @Sendable func currentSession(_ request: Request) async throws -> Response {
        let response = try Response.json(CurrentSessionDTO(user: request.auth.get(SignedInUser.self)?.account.dto))
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    /// A new session's answer: the account and token in the body, the token in the cookie too.
    private func sessionResponse(for account: Account, status: HTTPResponseStatus, request: Request) async throws -> Response {
        let (token, _) = try await service.startSession(for: account)
        let response = try Response.json(SessionDTO(user: account.dto, token: token), status: status)
        response.cookies[sessionCookieName] = Self.cookie(value: token, maxAge: Int(AccountService.sessionLifetime), request: request)
        response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        return response
    }

    /// `HttpOnly; SameSite=Lax; Path=/`, and `Secure` when the request came over HTTPS (directly or
    /// through a trusted proxy that says so: ``ClientAddressMiddleware``).
    static func cookie(value: String, maxAge: Int, request: Request) -> HTTPCookies.Value {
        let secure = request.url.scheme == "https" || request.client.scheme == "https"
        return HTTPCookies.Value(string: value, maxAge: maxAge, path: "/", isSecure: secure, isHTTPOnly: true, sameSite: .lax)
    }

    /// 429 `too_many_attempts` with `Retry-After`: `what`, and when to try again.
    static func tooManyAttempts(_ wait: Int, _ what: String) -> APIError {
        let when = wait < 60 ? "\(wait) s" : "\(Int((Double(wait) / 60).rounded(.up))) min"
        var error = APIError(.tooManyRequests, .tooManyAttempts, "\(what); try again in \(when).")
        error.headers.replaceOrAdd(name: .retryAfter, value: "\(wait)")
        return error
    }

    /// The API's answer to an account problem.
    static func error(for problem: AccountProblem) -> APIError {
        switch problem {
        case .invalidUsername:
            return .badRequest(.invalidUsername, "username must be \(AccountRules.usernameLengths.lowerBound) to \(AccountRules.usernameLengths.upperBound) characters of a-z, 0-9, _, . and -.")
        case .invalidPassword(.tooShort):
            return .badRequest(.invalidPassword, "password must be at least \(AccountRules.minimumPasswordLength) characters.")
        case .invalidPassword(.tooLong):
            return .badRequest(.invalidPassword, "password must be at most \(AccountRules.maximumPasswordBytes) bytes.")
        case .invalidDisplayName:
            return .badRequest(.invalidDisplayName, "displayName must be 1 to \(AccountRules.nameLengths.upperBound) characters.")
        case .invalidEmail:
            return .badRequest(.invalidEmail, "email is not an e-mail address.")
        case .usernameTaken:
            return APIError(.conflict, .usernameTaken, "This username is taken; choose another.")
        case .noSuchAccount:
            return APIError(.notFound, .notFound, "There is no such account.")
        }
    }
}
