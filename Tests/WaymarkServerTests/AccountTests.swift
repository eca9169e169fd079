import Fluent
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
@testable import WaymarkServer

/// A clock the test moves by hand.
final class MovableClock: Sendable {
    private let instant: NIOLockedValueBox<Date>

    init(_ start: Date = Date()) {
        instant = NIOLockedValueBox(start)
    }

    func advance(by seconds: TimeInterval) {
        instant.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }

    var clock: WallClock { WallClock { self.instant.withLockedValue { $0 } } }
}

extension TestServer {
    /// Sends a JSON body with optional extra headers.
    func json(_ method: HTTPMethod, _ path: String, _ body: some Encodable, headers: HTTPHeaders = [:]) async throws -> TestingHTTPResponse {
        var all = headers
        all.contentType = .json
        return try await send(method, path, headers: all, body: Array(try JSONEncoder().encode(body)))
    }

    /// Registers an account and returns its session.
    func register(_ username: String, password: String = "correct horse battery", displayName: String? = nil) async throws -> SessionDTO {
        let response = try await json(.POST, "/api/v1/accounts", NewAccountRequest(username: username, password: password, displayName: displayName))
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(SessionDTO.self)
    }

    static func bearer(_ token: String) -> HTTPHeaders { [HTTPHeaders.Name.authorization.description: "Bearer \(token)"] }
    static func cookie(_ token: String) -> HTTPHeaders { [HTTPHeaders.Name.cookie.description: "\(sessionCookieName)=\(token)"] }
}

@Suite("Accounts: registration, sessions by cookie and bearer token, sign-out")
struct AccountTests {
    @Test("Registration answers the user and a token, sets the session cookie, and refuses bad or taken names", arguments: TestDatabase.all)
    func registration(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let name = "alice-\(UUID().uuidString.prefix(8).lowercased())"
            let response = try await server.json(.POST, "/api/v1/accounts",
                                                 NewAccountRequest(username: name.uppercased(), password: "correct horse battery", displayName: "Alice A.", email: "alice@example.org"))
            #expect(response.status == .created)
            let session = try response.decode(SessionDTO.self)
            #expect(session.user.username == name, "usernames are stored lowercased")
            #expect(session.user.displayName == "Alice A.")
            #expect(session.user.email == "alice@example.org")
            #expect(session.user.role == .user)
            #expect(session.token.hasPrefix("wmt_") && session.token.count == 4 + 43)
            let cookie = try #require(response.headers.first(name: .setCookie))
            #expect(cookie.hasPrefix("\(sessionCookieName)=\(session.token)"))
            for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
                #expect(cookie.contains(attribute), "\(cookie)")
            }
            #expect(!cookie.contains("Secure"), "not over plain HTTP")
            #expect(try await server.send(.GET, "/api/v1/me", headers: TestServer.cookie(session.token)).decode(UserDTO.self) == session.user)

            // Unique ignoring case.
            let taken = try await server.json(.POST, "/api/v1/accounts", NewAccountRequest(username: name.capitalized, password: "another password 1"))
            #expect(taken.status == .conflict)
            #expect(try taken.apiError().error == "username_taken")

            let refusals: [(NewAccountRequest, String)] = [
                (NewAccountRequest(username: "ab", password: "long enough pass"), "invalid_username"),
                (NewAccountRequest(username: "has space", password: "long enough pass"), "invalid_username"),
                (NewAccountRequest(username: String(repeating: "x", count: 33), password: "long enough pass"), "invalid_username"),
                (NewAccountRequest(username: "bob-\(UUID().uuidString.prefix(6).lowercased())", password: "too short"), "invalid_password"),
                (NewAccountRequest(username: "bob-\(UUID().uuidString.prefix(6).lowercased())", password: String(repeating: "é", count: 513)), "invalid_password"),
                (NewAccountRequest(username: "bob-\(UUID().uuidString.prefix(6).lowercased())", password: "long enough pass", email: "not an address"), "invalid_email"),
                (NewAccountRequest(username: "bob-\(UUID().uuidString.prefix(6).lowercased())", password: "long enough pass", displayName: "Bob\u{0}by"), "invalid_display_name"),
                (NewAccountRequest(username: "bob-\(UUID().uuidString.prefix(6).lowercased())", password: "long enough pass", email: "b\u{0}@example.org"), "invalid_email"),
            ]
            for (request, code) in refusals {
                let refused = try await server.json(.POST, "/api/v1/accounts", request)
                #expect(refused.status == .badRequest)
                #expect(try refused.apiError().error == code, "\(request.username)")
            }
            let missing = try await server.send(.POST, "/api/v1/accounts", headers: ["Content-Type": "application/json"], body: Array(#"{"username":"carol"}"#.utf8))
            #expect(missing.status == .badRequest)
            #expect(try missing.apiError().reason.contains("password"))
        }
    }

    @Test("With registration closed, sign-up is 403 and accounts come from waymark users", arguments: TestDatabase.all)
    func closedRegistration(database: TestDatabase) async throws {
        try await withServer(database, configuration: { $0.registrationOpen = false }) { server in
            let refused = try await server.json(.POST, "/api/v1/accounts", NewAccountRequest(username: "mallory", password: "correct horse battery"))
            #expect(refused.status == .forbidden)
            #expect(try refused.apiError().error == "registration_closed")
        }
    }

    @Test("Sign in, use the session by cookie, Bearer and Token forms, sign out: the token stops working at once", arguments: TestDatabase.all)
    func sessions(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let name = "dana-\(UUID().uuidString.prefix(8).lowercased())"
            _ = try await server.register(name)
            let wrong = try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: name, password: "not the password"))
            #expect(wrong.status == .unauthorized)
            #expect(try wrong.apiError().error == "wrong_credentials")
            #expect(wrong.headers.first(name: .setCookie) == nil)
            let unknown = try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: "nobody-\(name)", password: "correct horse battery"))
            #expect(try unknown.apiError().error == "wrong_credentials", "an unknown name is answered as a wrong password")

            let signedIn = try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: name.uppercased(), password: "correct horse battery"))
            #expect(signedIn.status == .ok)
            let session = try signedIn.decode(SessionDTO.self)
            #expect(session.user.username == name)
            let forms: [HTTPHeaders] = [
                TestServer.cookie(session.token), TestServer.bearer(session.token),
                ["Authorization": #"Token token="\#(session.token)""#],
            ]
            for headers in forms {
                let me = try await server.send(.GET, "/api/v1/me", headers: headers)
                #expect(me.status == .ok)
                #expect(try me.decode(UserDTO.self).username == name)
            }
            let anonymous = try await server.send(.GET, "/api/v1/me")
            #expect(anonymous.status == .unauthorized)
            #expect(try anonymous.apiError().error == "not_signed_in")
            #expect(try await server.send(.GET, "/api/v1/me", headers: TestServer.bearer("wmt_forged")).status == .unauthorized)
            // The web app's question on every page, answered without an error status for anyone.
            for headers in forms {
                let current = try await server.send(.GET, "/api/v1/session", headers: headers)
                #expect(current.status == .ok && current.headers.first(name: .cacheControl) == "no-store")
                #expect(try current.decode(CurrentSessionDTO.self).user?.username == name)
            }
            let nobody = try await server.send(.GET, "/api/v1/session")
            #expect(nobody.status == .ok && nobody.text == #"{"user":null}"#, "\(nobody.text)")

            let out = try await server.send(.DELETE, "/api/v1/sessions/current", headers: TestServer.cookie(session.token))
            #expect(out.status == .noContent)
            #expect(out.headers.first(name: .setCookie)?.contains("Max-Age=0") == true, "the cookie is cleared")
            for headers in forms {
                #expect(try await server.send(.GET, "/api/v1/me", headers: headers).status == .unauthorized)
                let ended = try await server.send(.GET, "/api/v1/session", headers: headers)
                #expect(ended.status == .ok && ended.text == #"{"user":null}"#, "a session that ended is nobody: \(ended.text)")
            }
        }
    }

    @Test("Ten failed sign-ins for a name slow it down by a growing delay, not a 15-minute lock; another name is not held back", arguments: TestDatabase.all)
    func rateLimit(database: TestDatabase) async throws {
        let time = MovableClock()
        var dependencies = ServerDependencies.testing
        dependencies.clock = time.clock
        try await withServer(database, dependencies: dependencies) { server in
            let name = "erin-\(UUID().uuidString.prefix(8).lowercased())"
            _ = try await server.register(name)
            for attempt in 1...10 {
                let wrong = try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: name, password: "guess number \(attempt)"))
                #expect(wrong.status == .unauthorized, "attempt \(attempt)")
                time.advance(by: 10)
            }
            // The tenth failure was 10 s ago: its 1-s delay has passed, and the next guess is checked.
            let eleventh = try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: name, password: "guess number 11"))
            #expect(eleventh.status == .unauthorized)
            let limited = try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: name, password: "correct horse battery"))
            #expect(limited.status == .tooManyRequests, "right after the eleventh failure, 2 s must pass")
            #expect(try limited.apiError().error == "too_many_attempts")
            let retryAfter = try #require(limited.headers.first(name: .retryAfter).flatMap(Int.init))
            #expect(retryAfter == 2, "1 s after the tenth failure, 2 s after the eleventh")
            // Another name is not affected (these requests have no client address in-process).
            let other = "fred-\(UUID().uuidString.prefix(8).lowercased())"
            _ = try await server.register(other)
            #expect(try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: other, password: "correct horse battery")).status == .ok)

            time.advance(by: TimeInterval(retryAfter))
            #expect(try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: name, password: "correct horse battery")).status == .ok)
            // The right password took the failures back: the next wrong one is checked at once.
            #expect(try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: name, password: "guess again")).status == .unauthorized)
        }
    }

    @Test("The throttle admits one attempt per name at a time and counts it before the hash; blocking a name never blocks another name from the same address")
    func throttleRules() async throws {
        let time = MovableClock()
        let throttle = SignInThrottle()
        var now = time.clock.now()
        // 200 at once for one name: one is checked, the others are refused before any hash.
        var admitted: [SignInThrottle.Ticket] = []
        for _ in 0..<200 {
            if case .admitted(let ticket) = await throttle.admit(username: "alice", address: "192.0.2.7", now: now) { admitted.append(ticket) }
        }
        #expect(admitted.count == 1)
        for ticket in admitted { await throttle.finish(ticket, succeeded: false) }
        // Nine more failures, one at a time: then the name waits 1 s after the tenth.
        for _ in 0..<9 {
            guard case .admitted(let ticket) = await throttle.admit(username: "alice", address: "192.0.2.7", now: now) else {
                Issue.record("a lone attempt was refused"); return
            }
            await throttle.finish(ticket, succeeded: false)
        }
        #expect(await throttle.admit(username: "alice", address: "192.0.2.7", now: now) == .retryAfter(1))
        // Another account from the same address signs in.
        guard case .admitted(let bob) = await throttle.admit(username: "bob", address: "192.0.2.7", now: now) else {
            Issue.record("another name from the same address was held back"); return
        }
        await throttle.finish(bob, succeeded: true)
        now = now.addingTimeInterval(1)
        #expect(await throttle.admit(username: "alice", address: "192.0.2.8", now: now) != .retryAfter(1), "the owner waits a second, not 15 minutes")
    }

    @Test("Thirty failures from one address across names pace that address; another address is not")
    func rateLimitPerAddress() async throws {
        let throttle = SignInThrottle()
        let now = MovableClock().clock.now()
        for index in 0..<30 {
            guard case .admitted(let ticket) = await throttle.admit(username: "name\(index)", address: "192.0.2.7", now: now) else {
                Issue.record("attempt \(index) was refused"); return
            }
            await throttle.finish(ticket, succeeded: false)
        }
        #expect(await throttle.admit(username: "fresh-name", address: "192.0.2.7", now: now) == .retryAfter(1))
        #expect(await throttle.admit(username: "fresh-name", address: "192.0.2.8", now: now) != .retryAfter(1))
    }

    @Test("Account creation: ten an hour from one address, then 429 with Retry-After")
    func registrationLimit() async throws {
        let throttle = SignInThrottle()
        let now = MovableClock().clock.now()
        for _ in 0..<10 { #expect(await throttle.admitRegistration(address: "192.0.2.7", now: now) == nil) }
        #expect(await throttle.admitRegistration(address: "192.0.2.7", now: now) == 3600)
        #expect(await throttle.admitRegistration(address: "192.0.2.8", now: now) == nil)
        #expect(await throttle.admitRegistration(address: "192.0.2.7", now: now.addingTimeInterval(3600)) == nil)
    }

    @Test("A write from another site's page is 403 whatever it carries; a bearer-token write from anywhere is not", arguments: TestDatabase.all)
    func crossSite(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let session = try await server.register("gina-\(UUID().uuidString.prefix(8).lowercased())")
            let cookie = TestServer.cookie(session.token)
            let foreign: [HTTPHeaders] = [
                cookie.merging(["Origin": "https://evil.example"]),
                cookie.merging(["Origin": "null"]),
                cookie.merging(["Origin": "http://localhost:9"]),
                cookie.merging(["Sec-Fetch-Site": "cross-site"]),
            ]
            for headers in foreign {
                let refused = try await server.json(.POST, "/api/v1/keys", NewDeviceKeyRequest(name: "planted"), headers: headers)
                #expect(refused.status == .forbidden)
                #expect(try refused.apiError().error == "cross_site_request")
            }
            let signOut = try await server.send(.DELETE, "/api/v1/sessions/current", headers: cookie.merging(["Origin": "https://evil.example"]))
            #expect(signOut.status == .forbidden)
            let login = try await server.json(.POST, "/api/v1/sessions", SignInRequest(username: "x", password: "y"), headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(login.status == .forbidden, "no sign-in from another site's form either")
            let listed = try await server.send(.GET, "/api/v1/keys", headers: cookie).decode(WaymarkAPI.Page<DeviceKeyDTO>.self)
            #expect(listed.items.isEmpty, "nothing was created")

            let host = "localhost"
            let sameOrigin = try await server.json(.POST, "/api/v1/keys", NewDeviceKeyRequest(name: "mine"),
                                                   headers: cookie.merging(["Origin": "http://\(host)", "Host": host, "Sec-Fetch-Site": "same-origin"]))
            #expect(sameOrigin.status == .created)
            let app = try await server.json(.POST, "/api/v1/keys", NewDeviceKeyRequest(name: "app"),
                                            headers: TestServer.bearer(session.token).merging(["Origin": "https://elsewhere.example"]))
            #expect(app.status == .created, "an app's bearer token cannot be sent by another site's page")
        }
    }

    @Test("Same-origin checks: scheme-default ports and case do not matter; another port or host does")
    func sameOrigin() {
        #expect(CrossSiteRequestGuard.isSameOrigin("http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(CrossSiteRequestGuard.isSameOrigin("https://Photos.Example", host: "photos.example:443"))
        #expect(CrossSiteRequestGuard.isSameOrigin("http://photos.example:80", host: "photos.example"))
        #expect(!CrossSiteRequestGuard.isSameOrigin("http://127.0.0.1:8081", host: "127.0.0.1:8080"))
        #expect(!CrossSiteRequestGuard.isSameOrigin("http://localhost:8080", host: "127.0.0.1:8080"))
        #expect(!CrossSiteRequestGuard.isSameOrigin("null", host: "127.0.0.1:8080"))
        #expect(!CrossSiteRequestGuard.isSameOrigin("http://127.0.0.1:8080", host: nil))
    }
}

@Suite("Device keys: an account's consumers for the route API")
struct DeviceKeyTests {
    @Test("A device key is shown once, signs route requests, is listed without its secret, and is another account's 404", arguments: TestDatabase.all)
    func deviceKeys(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let bob = try await server.register("bob-\(UUID().uuidString.prefix(8).lowercased())")
            let made = try await server.json(.POST, "/api/v1/keys", NewDeviceKeyRequest(name: "  Alice's phone "), headers: TestServer.bearer(alice.token))
            #expect(made.status == .created)
            let key = try made.decode(NewDeviceKeyDTO.self)
            #expect(key.name == "Alice's phone")
            #expect(key.key.hasPrefix("wmk_"))

            // The key signs route requests.
            let device = Credentials(key: key.key, secret: key.secret, id: UUID())
            let sample = try Sample.request()
            #expect(try await server.signed(.POST, "/api/v1/routes", body: Sample.json(sample.request), as: device).status == .created)

            let listed = try await server.send(.GET, "/api/v1/keys", headers: TestServer.cookie(alice.token))
            #expect(listed.status == .ok)
            #expect(!listed.text.contains(key.secret))
            #expect(try listed.decode(WaymarkAPI.Page<DeviceKeyDTO>.self) == WaymarkAPI.Page(items: [DeviceKeyDTO(key: key.key, name: key.name, createdAt: key.createdAt)], next: nil))
            #expect(listed.text.contains(#""next":null"#))

            // Bob sees none of it and cannot revoke it: 404, as for a key that does not exist.
            #expect(try await server.send(.GET, "/api/v1/keys", headers: TestServer.bearer(bob.token)).decode(WaymarkAPI.Page<DeviceKeyDTO>.self).items.isEmpty)
            let probe = try await server.send(.DELETE, "/api/v1/keys/\(key.key)", headers: TestServer.bearer(bob.token))
            let none = try await server.send(.DELETE, "/api/v1/keys/wmk_doesnotexist0", headers: TestServer.bearer(bob.token))
            #expect(probe.status == .notFound)
            #expect(none.status == .notFound)
            #expect(try probe.apiError().error == none.apiError().error)
            #expect(try await server.signed(.GET, "/api/v1/routes?lookup=\(sample.request.lookup)", as: device).status == .ok, "still working")

            #expect(try await server.send(.POST, "/api/v1/keys", headers: ["Content-Type": "application/json"], body: Array(#"{"name":"x"}"#.utf8)).status == .unauthorized)
            for name in ["   ", "phone\u{0}", "tab\u{1B}[31m"] {
                let refused = try await server.json(.POST, "/api/v1/keys", NewDeviceKeyRequest(name: name), headers: TestServer.bearer(alice.token))
                #expect(try refused.apiError().error == "invalid_name", "a NUL or an escape is no name (and PostgreSQL cannot store NUL)")
            }

            // Revoked by its owner: refused at once.
            #expect(try await server.send(.DELETE, "/api/v1/keys/\(key.key)", headers: TestServer.bearer(alice.token)).status == .noContent)
            let refused = try await server.signed(.GET, "/api/v1/routes?lookup=\(sample.request.lookup)", as: device)
            #expect(try refused.apiError().error == "unknown_key")
            #expect(try await server.send(.GET, "/api/v1/keys", headers: TestServer.bearer(alice.token)).decode(WaymarkAPI.Page<DeviceKeyDTO>.self).items.isEmpty)
        }
    }
}
