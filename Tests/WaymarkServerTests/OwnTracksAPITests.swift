import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
import WaymarkMedia
@testable import WaymarkServer

/// OwnTracks as a background recorder over the API (issue #29, DESIGN §3.13), on both databases:
/// pairing, listing and revoking devices (signed in), the app's posts in HTTP mode (HTTP Basic,
/// owntracks.org/booklet/tech/http), and a device's messages found by its nonce's lookup key (signed).
@Suite("OwnTracks API: pairing, the app's encrypted posts, revoking, and a device's messages by its nonce")
struct OwnTracksAPITests {
    static let passphrase = "Triglav sunrise, quietly"
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    /// A paired device as the test holds it: what the server answered, and the key only the client knows.
    struct Paired {
        var device: NewOwnTracksDeviceDTO
        var key: OwnTracksKey
        var lookup: String { RouteKeys.lookupKey(nonce: device.nonce) }
    }

    struct Harness {
        let server: TestServer
        let time: MovableClock

        /// A new account's session token and username.
        func user(_ prefix: String = "walker") async throws -> (token: String, username: String) {
            let session = try await server.register("\(prefix)-\(UUID().uuidString.prefix(8).lowercased())")
            return (session.token, session.user.username)
        }

        /// The body of createOwnTracksDevice with `key` sealed under the passphrase as an OwnTracks key.
        static func creation(name: String, nonce: String, key: OwnTracksKey) throws -> [UInt8] {
            let sealed = try RouteEnvelope.seal(.owntracksKey, Data(key.text.utf8), passphrase: OwnTracksAPITests.passphrase,
                                                nonce: nonce, kdf: .pbkdf2(iterations: 1_000))
            return Array(try JSONEncoder().encode(CreateOwnTracksDeviceRequest(name: name, nonce: nonce, sealedKey: sealed)))
        }

        func create(_ body: [UInt8], token: String?) async throws -> TestingHTTPResponse {
            var headers: HTTPHeaders = token.map(TestServer.bearer) ?? [:]
            headers.contentType = .json
            return try await server.send(.POST, "/api/v1/owntracks/devices", headers: headers, body: body)
        }

        /// Pairs a device and expects it to work.
        func pair(token: String, name: String = "Alice's phone", nonce: String = Sample.nonce(), key: OwnTracksKey = .make(),
                  sourceLocation: SourceLocation = #_sourceLocation) async throws -> Paired {
            let response = try await create(try Self.creation(name: name, nonce: nonce, key: key), token: token)
            #expect(response.status == .created, "\(response.text)", sourceLocation: sourceLocation)
            return Paired(device: try response.decode(NewOwnTracksDeviceDTO.self), key: key)
        }

        static func basic(_ username: String, _ secret: String) -> HTTPHeaders {
            ["Authorization": "Basic " + Data("\(username):\(secret)".utf8).base64EncodedString()]
        }

        /// A POST as OwnTracks makes it: JSON, Basic, and X-Limit-U/-D when given.
        func publish(_ body: [UInt8], username: String, secret: String, headers extra: HTTPHeaders = [:]) async throws -> TestingHTTPResponse {
            var headers = Self.basic(username, secret)
            headers.contentType = .json
            headers.add(contentsOf: extra)
            return try await server.send(.POST, "/api/v1/owntracks", headers: headers, body: body)
        }

        /// `{"_type":"encrypted","data":…}` of `message` under the device's key.
        static func encrypted(_ message: String, key: OwnTracksKey) -> (body: [UInt8], data: String) {
            let data = OwnTracksBox.seal(Data(message.utf8), key: key)
            return (Array(#"{"_type":"encrypted","data":"\#(data)"}"#.utf8), data)
        }

        /// Posts a location encrypted as the app does and expects it taken.
        @discardableResult
        func post(_ paired: Paired, tst: Int, lat: Double = 46.0569, lon: Double = 14.5058,
                  sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
            let message = Self.encrypted(#"{"_type":"location","lat":\#(lat),"lon":\#(lon),"tst":\#(tst),"tid":"WM"}"#, key: paired.key)
            let response = try await publish(message.body, username: paired.device.username, secret: paired.device.secret)
            #expect(response.status == .ok, "\(response.text)", sourceLocation: sourceLocation)
            return message.data
        }

        func devices(token: String) async throws -> [OwnTracksDeviceDTO] {
            let response = try await server.send(.GET, "/api/v1/owntracks/devices", headers: TestServer.bearer(token))
            #expect(response.status == .ok, "\(response.text)")
            return try response.decode(Page<OwnTracksDeviceDTO>.self).items
        }

        /// A signed GET, signed at the server's time.
        func signed(_ target: String) async throws -> TestingHTTPResponse {
            try await server.signed(.GET, target, now: time.clock.now())
        }

        /// How many messages the server keeps for a device, as its nonce finds it.
        func messageCount(_ paired: Paired, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
            let response = try await signed("/api/v1/owntracks/lookup/\(paired.lookup)")
            #expect(response.status == .ok, "\(response.text)", sourceLocation: sourceLocation)
            return try response.decode(OwnTracksSealedDeviceDTO.self).messages
        }

        /// Every page of a device's messages for `query`, and the pages' sizes.
        func allMessages(_ paired: Paired, query: String = "") async throws -> (items: [OwnTracksStoredMessageDTO], pages: [Int]) {
            var items: [OwnTracksStoredMessageDTO] = [], pages: [Int] = []
            var cursor: String?
            repeat {
                var target = "/api/v1/owntracks/lookup/\(paired.lookup)/messages?\(query)"
                if let cursor { target += "&cursor=\(cursor)" }
                let response = try await signed(target)
                #expect(response.status == .ok, "\(target): \(response.text)")
                let page = try response.decode(Page<OwnTracksStoredMessageDTO>.self)
                items += page.items
                pages.append(page.items.count)
                cursor = page.next
            } while cursor != nil && pages.count < 20
            return (items, pages)
        }
    }

    /// Runs `body` on a server whose clock stands at ``start`` until the test moves it.
    static func withHarness(_ database: TestDatabase, dataDirectory: URL? = nil, _ body: (Harness) async throws -> Void) async throws {
        let time = MovableClock(start)
        try await withServer(database, dataDirectory: dataDirectory,
                             dependencies: ServerDependencies(clock: time.clock, passwordCost: .minimum)) { server in
            try await body(Harness(server: server, time: time))
        }
    }

    static func expectRefusal(_ response: TestingHTTPResponse, _ status: HTTPStatus, _ code: String, _ comment: String = "",
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, "\(comment): \(response.status) \(response.text)", sourceLocation: sourceLocation)
        #expect((try? response.apiError().error) == code, "\(comment): \(response.text)", sourceLocation: sourceLocation)
    }

    // MARK: Pairing

    @Test("Pairing answers 201 with the account's username and a secret shown once; a bad name, nonce or sealed key is 400, signed out 401", arguments: TestDatabase.all)
    func pairing(database: TestDatabase) async throws {
        try await Self.withHarness(database) { harness in
            let alice = try await harness.user("alice")
            let nonce = Sample.nonce()
            let key = OwnTracksKey.make()
            let response = try await harness.create(try Harness.creation(name: "  Alice's phone ", nonce: nonce, key: key), token: alice.token)
            #expect(response.status == .created, "\(response.text)")
            #expect(response.headers.first(name: .cacheControl) == "no-store", "the secret is shown once")
            let device = try response.decode(NewOwnTracksDeviceDTO.self)
            #expect(device.username == alice.username)
            #expect(device.nonce == nonce)
            #expect(device.name == "Alice's phone")
            #expect(device.secret.count >= 32, "\(device.secret)")
            #expect(device.createdAt == Self.start)
            #expect(!response.text.contains(key.text), "the server never sees the key")
            // The secret works at once.
            try await harness.post(Paired(device: device, key: key), tst: 1_780_000_000)

            let good = try Harness.creation(name: "Phone", nonce: Sample.nonce(), key: .make())
            func replacing(_ field: String, with value: Any?) throws -> [UInt8] {
                var object = try #require(try JSONSerialization.jsonObject(with: Data(good)) as? [String: Any])
                object[field] = value
                return Array(try JSONSerialization.data(withJSONObject: object))
            }
            let sealed = try #require(try JSONSerialization.jsonObject(with: Data(good)) as? [String: Any])["sealedKey"] as? [String: Any]
            var brokenEnvelope = try #require(sealed)
            brokenEnvelope["aead"] = "rot13"
            var shortIV = try #require(sealed)
            shortIV["iv"] = "AAAA"
            let refusals: [([UInt8], String, String)] = [
                (try replacing("name", with: ""), "invalid_name", "an empty name"),
                (try replacing("name", with: "   "), "invalid_name", "a blank name"),
                (try replacing("name", with: "Al\u{0}ice"), "invalid_name", "a control character"),
                (try replacing("name", with: "Line\nbreak"), "invalid_name", "a line break"),
                (try replacing("name", with: String(repeating: "x", count: 101)), "invalid_name", "101 characters"),
                (try replacing("name", with: 42), "invalid_name", "a number"),
                (try replacing("name", with: nil), "invalid_name", "no name"),
                (try replacing("nonce", with: "SHORT"), "invalid_field", "a short nonce"),
                (try replacing("nonce", with: "abcdefghijkl"), "invalid_field", "a lowercase nonce"),
                (try replacing("nonce", with: "ABCDEFGHIJK\u{C4}"), "invalid_field", "a nonce with Ä"),
                (try replacing("nonce", with: "ABCDEFGHIJKLM"), "invalid_field", "13 characters"),
                (try replacing("nonce", with: nil), "invalid_field", "no nonce"),
                (try replacing("sealedKey", with: nil), "invalid_envelope", "no sealed key"),
                (try replacing("sealedKey", with: "K3yABCDEFGH"), "invalid_envelope", "the key in clear"),
                (try replacing("sealedKey", with: ["v": 1]), "invalid_envelope", "a partial envelope"),
                (try replacing("sealedKey", with: brokenEnvelope), "invalid_envelope", "another AEAD"),
                (try replacing("sealedKey", with: shortIV), "invalid_envelope", "a 3-byte IV"),
                (Array("not json".utf8), "invalid_json", "not JSON"),
                (Array("[]".utf8), "invalid_json", "an array"),
            ]
            for (body, code, comment) in refusals {
                Self.expectRefusal(try await harness.create(body, token: alice.token), .badRequest, code, comment)
            }
            let signedOut = try await harness.create(good, token: nil)
            #expect(signedOut.status == .unauthorized)
            #expect(try await harness.create(good, token: "wmt_forged").status == .unauthorized)
            // Only the one good pairing made a device.
            let devices = try await harness.devices(token: alice.token)
            #expect(devices.map(\.id) == [device.id])
            #expect(devices.first?.nonce == nonce)
            let opened = try devices.first?.sealedKey.open(.owntracksKey, passphrase: Self.passphrase, nonce: nonce)
            #expect(opened == Data(key.text.utf8), "the listed sealed key opens to the device's key")
        }
    }

    @Test("Another user's nonce is 409; the same pairing again gives the same device a new secret, and the old secret answers 401", arguments: TestDatabase.all)
    func pairingAgain(database: TestDatabase) async throws {
        try await Self.withHarness(database) { harness in
            let alice = try await harness.user("alice"), bob = try await harness.user("bob")
            let nonce = Sample.nonce()
            let key = OwnTracksKey.make()
            let body = try Harness.creation(name: "Alice's phone", nonce: nonce, key: key)
            let first = try await harness.create(body, token: alice.token)
            #expect(first.status == .created)
            let device = try first.decode(NewOwnTracksDeviceDTO.self)
            try await harness.post(Paired(device: device, key: key), tst: 1_780_000_000)

            let stolen = try await harness.create(try Harness.creation(name: "Bob's phone", nonce: nonce, key: .make()), token: bob.token)
            Self.expectRefusal(stolen, .conflict, "conflict", "Bob takes Alice's nonce")
            let replayedByBob = try await harness.create(body, token: bob.token)
            Self.expectRefusal(replayedByBob, .conflict, "conflict", "Bob sends Alice's very pairing")
            #expect(try await harness.devices(token: bob.token).isEmpty)

            // The answer was lost: Alice's client sends the same pairing again.
            // (The sealed keys are compared decoded: JSONEncoder's key order varies between encodings,
            // so comparing its strings answered 409 here most of the time.)
            let again = try await harness.create(body, token: alice.token)
            #expect(again.status == .created, "\(again.text)")
            let renewed = try again.decode(NewOwnTracksDeviceDTO.self)
            #expect(renewed.id == device.id)
            #expect(renewed.secret != device.secret, "a new secret: the first never reached its owner")
            let old = try await harness.publish(Harness.encrypted(#"{"_type":"location","lat":1,"lon":2,"tst":1780000001}"#, key: key).body,
                                                username: alice.username, secret: device.secret)
            Self.expectRefusal(old, .unauthorized, "wrong_credentials", "the old secret")
            try await harness.post(Paired(device: renewed, key: key), tst: 1_780_000_002)
            let devices = try await harness.devices(token: alice.token)
            #expect(devices.count == 1)
            #expect(devices.first?.messages == 2, "what the device sent before stays with it")

            // The same nonce with another name or key is no retry but a conflict.
            let otherName = try await harness.create(try Harness.creation(name: "Renamed", nonce: nonce, key: key), token: alice.token)
            Self.expectRefusal(otherName, .conflict, "conflict", "same nonce, another name")
        }
    }

    // MARK: Listing and revoking

    @Test("The list shows each device's message count and last message time, to its owner alone", arguments: TestDatabase.all)
    func listing(database: TestDatabase) async throws {
        try await Self.withHarness(database) { harness in
            let alice = try await harness.user("alice"), bob = try await harness.user("bob")
            let phone = try await harness.pair(token: alice.token, name: "Phone")
            harness.time.advance(by: 60)
            let tablet = try await harness.pair(token: alice.token, name: "Tablet")
            var devices = try await harness.devices(token: alice.token)
            #expect(devices.map(\.name) == ["Phone", "Tablet"], "oldest first")
            #expect(devices.map(\.messages) == [0, 0])
            #expect(devices.map(\.lastMessageAt) == [nil, nil])
            let raw = try await harness.server.send(.GET, "/api/v1/owntracks/devices", headers: TestServer.bearer(alice.token))
            #expect(raw.text.contains(#""lastMessageAt":null"#), "the member is there, null before the first message")
            #expect(!raw.text.contains(phone.device.secret) && !raw.text.contains(tablet.device.secret), "never a secret")

            try await harness.post(phone, tst: 1_780_000_000)
            harness.time.advance(by: 30)
            try await harness.post(phone, tst: 1_780_000_030)
            harness.time.advance(by: 45)
            try await harness.post(phone, tst: 1_780_000_075)
            devices = try await harness.devices(token: alice.token)
            #expect(devices.map(\.messages) == [3, 0])
            #expect(devices.first?.lastMessageAt == Self.start.addingTimeInterval(60 + 30 + 45))
            #expect(devices.last?.lastMessageAt == nil)

            #expect(try await harness.devices(token: bob.token).isEmpty, "Bob sees none of Alice's devices")
            #expect(try await harness.server.send(.GET, "/api/v1/owntracks/devices").status == .unauthorized)
        }
    }

    @Test("Revoking: another user's device is 404; after revoking, the device's posts are 401 and it leaves the list, but its nonce still finds what it sent", arguments: TestDatabase.all)
    func revoking(database: TestDatabase) async throws {
        try await Self.withHarness(database) { harness in
            let alice = try await harness.user("alice"), bob = try await harness.user("bob")
            let phone = try await harness.pair(token: alice.token)
            let kept = try await harness.pair(token: alice.token, name: "Other phone")
            try await harness.post(phone, tst: 1_780_000_000)
            let target = "/api/v1/owntracks/devices/\(phone.device.id)"

            Self.expectRefusal(try await harness.server.send(.DELETE, target, headers: TestServer.bearer(bob.token)), .notFound, "not_found", "Bob revokes Alice's")
            #expect(try await harness.server.send(.DELETE, target).status == .unauthorized)
            Self.expectRefusal(try await harness.server.send(.DELETE, "/api/v1/owntracks/devices/\(UUID())", headers: TestServer.bearer(alice.token)),
                               .notFound, "not_found", "an unknown id")
            // Bob's attempt changed nothing.
            try await harness.post(phone, tst: 1_780_000_001)

            let revoked = try await harness.server.send(.DELETE, target, headers: TestServer.bearer(alice.token))
            #expect(revoked.status == .noContent, "\(revoked.text)")
            let refused = try await harness.publish(Harness.encrypted(#"{"_type":"location","lat":1,"lon":2,"tst":1780000002}"#, key: phone.key).body,
                                                    username: phone.device.username, secret: phone.device.secret)
            Self.expectRefusal(refused, .unauthorized, "wrong_credentials", "a revoked device posts")
            #expect(refused.headers.first(name: .wwwAuthenticate)?.hasPrefix("Basic") == true)
            #expect(try await harness.devices(token: alice.token).map(\.id) == [kept.device.id])
            try await harness.post(kept, tst: 1_780_000_003)
            Self.expectRefusal(try await harness.server.send(.DELETE, target, headers: TestServer.bearer(alice.token)), .notFound, "not_found", "revoked twice")

            // What it sent stays readable by its nonce.
            #expect(try await harness.messageCount(phone) == 2)
            #expect(try await harness.allMessages(phone).items.count == 2)
            // Pairing again with the revoked device's nonce is refused: it is taken.
            let reuse = try await harness.create(try Harness.creation(name: "Alice's phone", nonce: phone.device.nonce, key: phone.key), token: alice.token)
            Self.expectRefusal(reuse, .conflict, "conflict", "a revoked device's nonce")
        }
    }

    // MARK: The app's posts

    @Test("An encrypted message is answered [] and kept once; an empty body is answered and ignored; a plaintext one is 400 not_encrypted and nothing is kept", arguments: TestDatabase.all)
    func publishing(database: TestDatabase) async throws {
        try await Self.withHarness(database) { harness in
            let alice = try await harness.user("alice")
            let phone = try await harness.pair(token: alice.token)
            let message = Harness.encrypted(#"{"_type":"location","lat":46.0569,"lon":14.5058,"tst":1780000000,"tid":"WM"}"#, key: phone.key)
            let first = try await harness.publish(message.body, username: alice.username, secret: phone.device.secret,
                                                  headers: ["X-Limit-U": alice.username, "X-Limit-D": "phone"])
            #expect(first.status == .ok)
            #expect(first.text == "[]", "OwnTracks expects a JSON array")
            #expect(first.headers.contentType == .json)
            // A retry after a lost answer: answered the same, kept once.
            let retry = try await harness.publish(message.body, username: alice.username, secret: phone.device.secret)
            #expect(retry.status == .ok && retry.text == "[]")
            #expect(try await harness.messageCount(phone) == 1)
            // Another message with the same data but other spacing is the same message.
            let spaced = Array(#"{ "data" : "\#(message.data)", "_type" : "encrypted" }"#.utf8)
            #expect(try await harness.publish(spaced, username: alice.username, secret: phone.device.secret).status == .ok)
            #expect(try await harness.messageCount(phone) == 1)

            // OwnTracks posts an empty body when a friend is removed.
            for empty in ["", " \n"] {
                let response = try await harness.publish(Array(empty.utf8), username: alice.username, secret: phone.device.secret)
                #expect(response.status == .ok && response.text == "[]", "\(empty.debugDescription): \(response.text)")
            }
            #expect(try await harness.messageCount(phone) == 1)

            // The app without an encryption key posts plaintext: refused, with what to do, and nothing kept.
            let plaintext = Array(#"{"_type":"location","lat":48.7777,"lon":9.1111,"tst":1780000005,"tid":"WM","batt":80}"#.utf8)
            let refused = try await harness.publish(plaintext, username: alice.username, secret: phone.device.secret)
            Self.expectRefusal(refused, .badRequest, "not_encrypted", "plaintext location")
            let reason = try refused.apiError().reason.lowercased()
            #expect(reason.contains("encryption key"), "\(reason)")
            #expect(!refused.text.contains("48.7777"), "the answer does not echo the position")
            for other in [#"{"_type":"transition","event":"enter","lat":48.7,"lon":9.1,"tst":1780000006,"wtst":1,"acc":5}"#,
                          #"{"_type":"encrypted "}"#, #"{"data":"AAAA"}"#, #"{"_type":"ENCRYPTED","data":"\#(message.data)"}"#] {
                let response = try await harness.publish(Array(other.utf8), username: alice.username, secret: phone.device.secret)
                Self.expectRefusal(response, .badRequest, "not_encrypted", other)
            }
            for notJSON in ["not json", "[]", #"[{"_type":"encrypted","data":"\#(message.data)"}]"#, "{", "42"] {
                let response = try await harness.publish(Array(notJSON.utf8), username: alice.username, secret: phone.device.secret)
                Self.expectRefusal(response, .badRequest, "invalid_json", notJSON)
            }
            // Encrypted, but data is no Base64 of a nonce and a box.
            for data in ["%%% not base64 %%%", "", "AAAA", #"\#(message.data)!"#] {
                let response = try await harness.publish(Array(#"{"_type":"encrypted","data":"\#(data)"}"#.utf8), username: alice.username,
                                                         secret: phone.device.secret)
                #expect(response.status == .badRequest, "data \(data.prefix(20)): \(response.status) \(response.text)")
            }
            let numberData = try await harness.publish(Array(#"{"_type":"encrypted","data":12345}"#.utf8), username: alice.username, secret: phone.device.secret)
            #expect(numberData.status == .badRequest)
            #expect(try await harness.messageCount(phone) == 1, "none of the refused messages was kept")
        }
    }

    @Test("Posts without Basic credentials, with a wrong secret, an unknown user, another user's name or X-Limit-U are 401 with a Basic challenge", arguments: TestDatabase.all)
    func publishingCredentials(database: TestDatabase) async throws {
        try await Self.withHarness(database) { harness in
            let alice = try await harness.user("alice"), bob = try await harness.user("bob")
            let phone = try await harness.pair(token: alice.token)
            let bobsPhone = try await harness.pair(token: bob.token)
            let body = Harness.encrypted(#"{"_type":"location","lat":1,"lon":2,"tst":1780000000}"#, key: phone.key).body

            func expectChallenge(_ response: TestingHTTPResponse, _ comment: String) {
                Self.expectRefusal(response, .unauthorized, "wrong_credentials", comment)
                let challenge = response.headers.first(name: .wwwAuthenticate) ?? ""
                #expect(challenge.hasPrefix("Basic "), "\(comment): \(challenge)")
                #expect(challenge.contains("realm="), "\(comment): \(challenge)")
            }
            expectChallenge(try await harness.server.send(.POST, "/api/v1/owntracks", headers: ["Content-Type": "application/json"], body: body),
                            "no Authorization")
            expectChallenge(try await harness.server.send(.POST, "/api/v1/owntracks", headers: TestServer.bearer(alice.token), body: body),
                            "a session token instead of Basic")
            expectChallenge(try await harness.publish(body, username: alice.username, secret: phone.device.secret + "x"), "a wrong secret")
            expectChallenge(try await harness.publish(body, username: alice.username, secret: ""), "an empty secret")
            expectChallenge(try await harness.publish(body, username: "nobody-\(alice.username)", secret: phone.device.secret), "an unknown user")
            expectChallenge(try await harness.publish(body, username: bob.username, secret: phone.device.secret), "Bob's name with Alice's secret")
            expectChallenge(try await harness.publish(body, username: alice.username, secret: bobsPhone.device.secret), "Alice's name with Bob's secret")
            expectChallenge(try await harness.publish(body, username: alice.username, secret: phone.device.secret, headers: ["X-Limit-U": bob.username]),
                            "X-Limit-U names Bob")
            expectChallenge(try await harness.server.send(.POST, "/api/v1/owntracks",
                                                          headers: ["Authorization": "Basic not base64!", "Content-Type": "application/json"], body: body),
                            "a broken Basic header")
            #expect(try await harness.messageCount(phone) == 0)
            #expect(try await harness.messageCount(bobsPhone) == 0)

            // The app may spell the name with capitals, in the Basic user and in X-Limit-U.
            let capitals = try await harness.publish(body, username: alice.username.uppercased(), secret: phone.device.secret,
                                                     headers: ["X-Limit-U": alice.username.uppercased()])
            #expect(capitals.status == .ok, "\(capitals.text)")
            #expect(try await harness.messageCount(phone) == 1)
        }
    }

    @Test("A post over 64 KiB is 413 and kept nowhere", arguments: TestDatabase.all)
    func publishingTooLarge(database: TestDatabase) async throws {
        try await Self.withHarness(database) { harness in
            let alice = try await harness.user("alice")
            let phone = try await harness.pair(token: alice.token)
            // A real encrypted message of 70 KiB: what the server would keep were it not too large.
            let large = Harness.encrypted(#"{"_type":"location","lat":1,"lon":2,"tst":1780000000,"poi":"\#(String(repeating: "x", count: 70 * 1024))"}"#,
                                          key: phone.key)
            #expect(large.body.count > 64 * 1024)
            var headers = Harness.basic(alice.username, phone.device.secret)
            headers.contentType = .json
            var status = HTTPStatus.ok
            let live = try harness.server.app.testing(method: .running(port: 0))
            try await live.test(.POST, "/api/v1/owntracks", headers: headers, body: ByteBuffer(bytes: large.body)) { response in
                status = response.status
            }
            #expect(status == .payloadTooLarge)
            // Just under the limit is taken.
            let fits = Harness.encrypted(#"{"_type":"location","lat":1,"lon":2,"tst":1780000001,"poi":"\#(String(repeating: "y", count: 40 * 1024))"}"#,
                                         key: phone.key)
            try await live.test(.POST, "/api/v1/owntracks", headers: headers, body: ByteBuffer(bytes: fits.body)) { response in
                #expect(response.status == .ok)
            }
            let items = try await harness.allMessages(phone).items
            #expect(items.map(\.data) == [fits.data])
        }
    }

    // MARK: A device's messages by its nonce

    @Test("A device's sealed key and messages need a signed request, are 404 for an unknown nonce, and come back as posted", arguments: TestDatabase.all)
    func findingByNonce(database: TestDatabase) async throws {
        try await Self.withHarness(database) { harness in
            let alice = try await harness.user("alice")
            let phone = try await harness.pair(token: alice.token)
            let posted = try await harness.post(phone, tst: 1_780_000_000, lat: 46.1, lon: 14.1)
            let device = "/api/v1/owntracks/lookup/\(phone.lookup)"

            for target in [device, device + "/messages"] {
                let unsigned = try await harness.server.send(.GET, target)
                #expect(unsigned.status == .unauthorized, "\(target)")
                let withSession = try await harness.server.send(.GET, target, headers: TestServer.bearer(alice.token))
                #expect(withSession.status == .unauthorized, "\(target): a session is no signature")
            }
            let unknown = RouteKeys.lookupKey(nonce: Sample.nonce())
            Self.expectRefusal(try await harness.signed("/api/v1/owntracks/lookup/\(unknown)"), .notFound, "not_found", "unknown lookup")
            Self.expectRefusal(try await harness.signed("/api/v1/owntracks/lookup/\(unknown)/messages"), .notFound, "not_found", "unknown lookup's messages")
            let malformed = try await harness.signed("/api/v1/owntracks/lookup/\(phone.lookup.uppercased())")
            #expect(malformed.status == .badRequest, "\(malformed.text)")
            // The nonce itself is no lookup key.
            #expect(try await harness.signed("/api/v1/owntracks/lookup/\(phone.device.nonce)").status == .badRequest)

            let found = try await harness.signed(device)
            #expect(found.status == .ok, "\(found.text)")
            let sealed = try found.decode(OwnTracksSealedDeviceDTO.self)
            #expect(sealed.messages == 1)
            #expect(sealed.createdAt == Self.start)
            let key = try OwnTracksHistory.key(sealed: sealed.sealedKey, passphrase: Self.passphrase, nonce: phone.device.nonce)
            #expect(key == phone.key, "the found sealed key opens with the passphrase and the nonce")

            let messages = try await harness.allMessages(phone)
            #expect(messages.items.map(\.data) == [posted], "the data as it was posted")
            #expect(messages.items.first?.receivedAt == Self.start)
            let history = OwnTracksHistory(messages: messages.items.map(\.data), key: key)
            #expect(history.fixes.map(\.latitude) == [46.1])
        }
    }

    @Test("Messages come a page at a time (limit 2 over 5 is 3 pages, the last with next null), from/to filter on arrival, a bad cursor is 400", arguments: TestDatabase.all)
    func paging(database: TestDatabase) async throws {
        try await Self.withHarness(database) { harness in
            let alice = try await harness.user("alice")
            let phone = try await harness.pair(token: alice.token)
            let other = try await harness.pair(token: alice.token)
            var posted: [String] = []
            for index in 0..<5 {
                posted.append(try await harness.post(phone, tst: 1_779_000_000 + index))  // fixes from long before: queued offline
                try await harness.post(other, tst: 1_779_000_000 + index)
                harness.time.advance(by: 60)
            }
            let paged = try await harness.allMessages(phone, query: "limit=2")
            #expect(paged.pages == [2, 2, 1])
            #expect(paged.items.map(\.data) == posted, "oldest first, each once, none of the other device's")
            #expect(paged.items.map(\.receivedAt) == (0..<5).map { Self.start.addingTimeInterval(Double($0) * 60) })

            let exact = try await harness.allMessages(phone, query: "limit=5")
            #expect(exact.pages == [5], "a full last page has next null")
            let whole = try await harness.allMessages(phone)
            #expect(whole.pages == [5])

            // Received from 10:01 to 10:03 (the 2nd, 3rd and 4th), both ends included.
            let from = InternetTime.text(Self.start.addingTimeInterval(60)), to = InternetTime.text(Self.start.addingTimeInterval(180))
            let window = try await harness.allMessages(phone, query: "from=\(from)&to=\(to)&limit=2")
            #expect(window.items.map(\.data) == Array(posted[1...3]))
            #expect(window.pages == [2, 1])
            let after = try await harness.allMessages(phone, query: "from=\(InternetTime.text(Self.start.addingTimeInterval(200)))")
            #expect(after.items.map(\.data) == [posted[4]])
            let before = try await harness.allMessages(phone, query: "to=\(InternetTime.text(Self.start.addingTimeInterval(-1)))")
            #expect(before.items.isEmpty)

            let base = "/api/v1/owntracks/lookup/\(phone.lookup)/messages"
            for cursor in ["abc", "-1", "1.5", "99999999999999999999999"] {
                Self.expectRefusal(try await harness.signed("\(base)?cursor=\(cursor)"), .badRequest, "invalid_cursor", "cursor \(cursor)")
            }
            for query in ["limit=0", "limit=1001", "limit=two", "from=yesterday", "to=2026-13-01T00:00:00Z"] {
                let response = try await harness.signed("\(base)?\(query)")
                #expect(response.status == .badRequest, "\(query): \(response.status) \(response.text)")
            }
        }
    }

    // MARK: Privacy

    @Test("After encrypted posts and a refused plaintext one, the database holds no coordinate, no key and no passphrase", arguments: TestDatabase.all)
    func nothingReadableStored(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Coordinates no other test uses, in the text forms they could take.
        let forbidden = ["47.123456", "47,123456", "47123456", "11.654321", "11,654321", "11654321", "48.987654", "9.876543",
                         "1780000123", Self.passphrase, "Triglav"]
        var stored: [String] = []
        var keys: [String] = []
        try await Self.withHarness(database, dataDirectory: directory) { harness in
            let alice = try await harness.user("alice")
            let phone = try await harness.pair(token: alice.token)
            keys.append(phone.key.text)
            for index in 0..<3 {
                stored.append(try await harness.post(phone, tst: 1_780_000_123 + index * 100, lat: 47.123456, lon: 11.654321))
            }
            let plaintext = Array(#"{"_type":"location","lat":48.987654,"lon":9.876543,"tst":1780000123,"tid":"WM"}"#.utf8)
            #expect(try await harness.publish(plaintext, username: alice.username, secret: phone.device.secret).status == .badRequest)
            #expect(try await harness.messageCount(phone) == 3)

            if database == .postgres {
                let rows = try await PrivacyTests.allRowsAsText(harness.server.app.db)
                for data in stored {
                    #expect(rows.contains { $0.contains(data) }, "the scan sees what was stored")
                }
                for needle in forbidden + keys {
                    #expect(!rows.contains { $0.contains(needle) }, "PostgreSQL holds \"\(needle)\"")
                }
            }
        }
        if database == .sqlite {
            let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            #expect(files.contains { $0.lastPathComponent == "waymark.sqlite" })
            var all = Data()
            for file in files {
                let bytes = try Data(contentsOf: file)
                all += bytes
                for needle in forbidden + keys {
                    #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(file.lastPathComponent) holds \"\(needle)\"")
                }
            }
            for data in stored {
                #expect(all.range(of: Data(data.utf8)) != nil, "the scan sees what was stored")
            }
        }
    }
}
