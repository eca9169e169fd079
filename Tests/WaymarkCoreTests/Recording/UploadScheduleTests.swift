import Foundation
import Testing
import WaymarkCore

@Suite("Upload schedule, network policy and announcements")
struct UploadScheduleTests {
    let now = Date(timeIntervalSince1970: 1_717_236_000)

    @Test("the first retry comes within 5 s, each later ceiling doubles, and none exceeds 15 min")
    func backoff() {
        #expect(UploadSchedule.nextAttempt(afterFailures: 1, now: now, unit: 0.999_999).timeIntervalSince(now) <= 5)
        #expect(UploadSchedule.nextAttempt(afterFailures: 1, now: now, unit: 0.999_999).timeIntervalSince(now) > 4.99)
        let ceilings = (1...9).map { UploadSchedule.nextAttempt(afterFailures: $0, now: now, unit: 1).timeIntervalSince(now) }
        #expect(ceilings == [5, 10, 20, 40, 80, 160, 320, 640, 900])
        // Never giving up: a thousand failures still get a next attempt, at most 15 min away.
        for failures in [10, 100, 1000, Int.max] {
            let wait = UploadSchedule.nextAttempt(afterFailures: failures, now: now, unit: 1).timeIntervalSince(now)
            #expect(wait == 900)
        }
    }

    @Test("full jitter: the wait is the random fraction of the ceiling")
    func jitter() {
        #expect(UploadSchedule.nextAttempt(afterFailures: 3, now: now, unit: 0) == now)
        #expect(UploadSchedule.nextAttempt(afterFailures: 3, now: now, unit: 0.25).timeIntervalSince(now) == 5)
        #expect(UploadSchedule.nextAttempt(afterFailures: 3, now: now, unit: -3) == now)
        #expect(UploadSchedule.nextAttempt(afterFailures: 3, now: now, unit: .nan).timeIntervalSince(now) == 20)
        #expect(UploadSchedule.nextAttempt(afterFailures: 0, now: now, unit: 0.5) == now)
    }

    @Test("uploads need a connection, and a wireless one with Wi-Fi only", arguments: [
        (false, ConnectionKind.none, false), (true, .none, false),
        (false, .wireless, true), (true, .wireless, true),
        (false, .wired, true), (true, .wired, false),
        (false, .unknown, true), (true, .unknown, false),
    ])
    func policy(wifiOnly: Bool, connection: ConnectionKind, allowed: Bool) {
        #expect(NetworkPolicy.allowsUpload(wifiOnly: wifiOnly, connection: connection) == allowed)
        #expect((NetworkPolicy.reasonToWait(wifiOnly: wifiOnly, connection: connection) == nil) == allowed)
    }

    @Test("successes are announced once, grouped: 1 route stored, 3 routes stored, nothing for none")
    func announcement() {
        #expect(UploadAnnouncement.text(stored: 0) == nil)
        #expect(UploadAnnouncement.text(stored: 1) == "1 route stored")
        #expect(UploadAnnouncement.text(stored: 3) == "3 routes stored")

        var shown = UploadAnnouncement()
        #expect(shown.text == nil && shown.target == nil)
        shown.record(stored: [4])
        #expect(shown.text == "1 route stored" && shown.target == 4)
        shown.record(stored: [5, 6, 4])
        #expect(shown.text == "3 routes stored" && shown.target == 6)
        shown.dismiss()
        #expect(shown.text == nil)
        shown.record(stored: [7])
        #expect(shown.text == "1 route stored" && shown.target == 7)
    }

    @Test("a sealed upload opens with the passphrase, its lookup key is the nonce's, its delete token is the envelope's")
    func sealing() throws {
        let nonce = QRPayload.makeNonce()
        let fixes = (0..<10).map { Fix(latitude: 46 + Double($0) / 1000, longitude: 14, altitude: 300, accuracy: 4,
                                       time: Date(timeIntervalSince1970: 1_717_236_000 + Double($0))) }
        let route = Route(nonce: nonce, qrPeriod: 5, tracks: [Track(fixes: fixes)])
        let upload = try RouteUpload.seal(route: route, passphrase: "correct horse", kdf: .scrypt(n: 1024))
        let envelope = try RouteEnvelope.decode(json: upload.envelope)
        let opened = try envelope.open(passphrase: "correct horse", nonce: nonce)
        #expect(opened.tracks.first?.fixes == fixes)
        #expect(upload.lookupKey == RouteKeys.lookupKey(nonce: nonce))
        #expect(upload.deleteToken == RouteKeys.deleteToken(master: try envelope.masterKey(passphrase: "correct horse")))
        #expect(upload.deleteTokenHash == (try RouteKeys.deleteTokenHash(token: upload.deleteToken)))
        #expect(UUID(uuidString: upload.idempotencyKey) != nil)
        let again = try RouteUpload.seal(route: route, passphrase: "correct horse", kdf: .scrypt(n: 1024))
        #expect(again.idempotencyKey != upload.idempotencyKey)
        #expect(throws: RouteUploadError.missingNonce) {
            try RouteUpload.seal(route: Route(tracks: route.tracks), passphrase: "x", kdf: .scrypt(n: 1024))
        }
    }
}
