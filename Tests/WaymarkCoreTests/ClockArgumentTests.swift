import Foundation
import Testing
@testable import WaymarkCore

/// `--sync PHOTO=TIME` and `--offset` as the library reads them, and the check of a clock set by
/// hand against QR photos (`--check-qr`).
@Suite("Clock arguments and the QR check")
struct ClockArgumentTests {
    @Test("--sync splits at the last '=', so a photo's name may hold one")
    func syncSplitsAtLastEquals() throws {
        let parsed = try ClockSync.parseSyncArgument("a=b.JPG=2019-08-01T12:34:56+02:00")
        #expect(parsed.photo == "a=b.JPG")
        #expect(parsed.time == Date(timeIntervalSince1970: 1_564_655_696))
    }

    @Test("--sync without a photo, a time or the '=' names what is missing", arguments: [
        ("IMG.JPG=", "no time after"), ("=2019-08-01T12:34:56Z", "no photo before"), ("IMG.JPG", "no \"=\""), ("", "no \"=\""), (" = ", "no photo"),
    ])
    func syncMissingParts(_ text: String, _ reason: String) {
        let error = #expect(throws: ClockSyncError.self) { _ = try ClockSync.parseSyncArgument(text) }
        #expect(error.map { "\($0)" }?.contains(reason) == true, "\(String(describing: error))")
        #expect(error.map { "\($0)" }?.contains("IMG_0001.JPG=2024-05-01T10:15:00+02:00") == true)
    }

    @Test("an offset of more days than fit in the sum is refused, not an overflow trap")
    func hugeOffset() throws {
        #expect(throws: ClockSyncError.invalidOffset("999999999999999999.00:00:00")) { try ClockOffset(parsing: "999999999999999999.00:00:00") }
        #expect(try ClockOffset(parsing: "-99999.00:00:00").seconds == -99_999 * 86_400)
        #expect(try ClockOffset(parsing: "+1.02:00:00").seconds == 93_600)
    }

    @Test("a setting that agrees with the QR photo within its period agrees; 3 min off is reported by how much")
    func checkAgainstQR() {
        // The camera read 12:03:20.50 when the code showed 12:00:00 (period 5 s): it is 3 min 18 s fast, ±2.5 s.
        let camera = CameraTime(seconds: 1_564_661_000.5)
        let payload = QRPayload(time: 1_564_661_000 - 200, nonce: "2OANEZK7Q1XD")
        let sample = QRSample(photo: "QR.JPG", camera: camera, payload: payload, qrPeriod: 5)
        let right = ClockSync.check(ClockSync.fixedOffset(-198), against: [sample])
        #expect(right.count == 1 && right[0].agrees && abs(right[0].difference) < 1e-9)
        let wrong = ClockSync.check(ClockSync.fixedOffset(0), against: [sample])
        #expect(!wrong[0].agrees)
        #expect(abs(wrong[0].difference - 198) < 1e-9, "0 puts the photo 198 s later than the code says")
        #expect(abs(wrong[0].tolerance - 2.5) < 1e-9)
        let edge = ClockSync.check(ClockSync.fixedOffset(-195.6), against: [sample])
        #expect(edge[0].agrees, "2.4 s off is inside the code's 5-second period")
    }
}
