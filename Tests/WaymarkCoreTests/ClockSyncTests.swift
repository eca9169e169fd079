import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

@Suite("ClockSync")
struct ClockSyncTests {
    // MARK: Camera readings

    @Test("Reads EXIF date, subseconds and offset")
    func readsExif() throws {
        let reading = try #require(CameraTime(exif: "2019:08:01 12:34:56", subSeconds: "123", offset: "+02:00"))
        #expect(abs(reading.seconds - 1_564_662_896.123) < 1e-6)
        #expect(reading.hasSubseconds)
        #expect(reading.utcOffset == 7_200)

        let plain = try #require(CameraTime(exif: "2019:08:01 12:34:56\0", subSeconds: nil, offset: nil))
        #expect(plain.seconds == 1_564_662_896)
        #expect(!plain.hasSubseconds)
        #expect(plain.utcOffset == nil)
        #expect(try #require(CameraTime(exif: "2019:08:01 12:34:56", subSeconds: "5", offset: "-05:30")).seconds == 1_564_662_896.5)
        #expect(CameraTime(exif: "2019:08:01 12:34:56", subSeconds: "5", offset: "-05:30")?.utcOffset == -19_800)
    }

    @Test("Refuses blank or impossible EXIF dates", arguments: [
        "0000:00:00 00:00:00", "2019:02:30 12:00:00", "2019:08:01 24:00:00", "2019:08:01", "    :  :     :  :  ", "",
    ])
    func refusesBadDates(_ text: String) {
        #expect(CameraTime(exif: text, subSeconds: nil, offset: nil) == nil)
    }

    // MARK: Fitting from QR photos

    /// A QR photo of a camera whose clock is `offset` seconds behind (plus `drift`) at camera time `x`.
    static func sample(_ photo: String, x: Double, offset: Double, drift: Double = 0, reference: Double = base,
                       period: Double = 1, subseconds: Bool = true) -> QRSample {
        let utc = x + offset + drift * (x - reference)
        // The QR code on screen at that instant shows the start of its period.
        let shown = Int((utc / period).rounded(.down) * period)
        return QRSample(photo: photo, camera: CameraTime(seconds: x, hasSubseconds: subseconds),
                        payload: QRPayload(time: shown, nonce: "2OANEZK7Q1XD"), qrPeriod: period)
    }

    static let base = 1_700_000_000.0

    @Test("One QR photo: the middle of the QR period, bound half of it")
    func oneSample() throws {
        let camera = CameraTime(seconds: Self.base + 0.3)
        let sample = QRSample(photo: "IMG_0001.JPG", camera: camera, payload: QRPayload(time: 1_700_003_600, nonce: "N"), qrPeriod: 5)
        let (correction, rejected) = try ClockSync.fit([sample])
        #expect(rejected.isEmpty)
        #expect(correction.source == .qrCodes(count: 1))
        #expect(correction.errorBound == 2.5)
        #expect(correction.utc(for: camera).timeIntervalSince1970 == 1_700_003_602.5)
        #expect(correction.drift == 0)
    }

    @Test("A camera time without subseconds stands for the middle of its second and widens the bound")
    func truncatedSeconds() throws {
        let camera = CameraTime(seconds: Self.base, hasSubseconds: false)
        let sample = QRSample(photo: "IMG_0001.JPG", camera: camera, payload: QRPayload(time: 1_700_000_100, nonce: "N"), qrPeriod: 5)
        let correction = try ClockSync.fit([sample]).correction
        #expect(correction.errorBound == 3)
        #expect(correction.offset == 102)  // (100 + 2.5) − 0.5
        #expect(correction.utc(for: camera).timeIntervalSince1970 == 1_700_000_102.5)
    }

    @Test("Two QR photos that one offset explains: the middle of their common interval, no drift")
    func twoAgreeing() throws {
        let first = QRSample(photo: "A.JPG", camera: CameraTime(seconds: Self.base), payload: QRPayload(time: 1_700_000_060, nonce: "N"), qrPeriod: 5)
        let second = QRSample(photo: "B.JPG", camera: CameraTime(seconds: Self.base + 600), payload: QRPayload(time: 1_700_000_661, nonce: "N"), qrPeriod: 5)
        // Offsets alone: 62.5 ± 2.5 and 63.5 ± 2.5 → common interval [61, 65].
        let (correction, rejected) = try ClockSync.fit([first, second])
        #expect(rejected.isEmpty)
        #expect(correction.offset == 63)
        #expect(correction.errorBound == 2)
        #expect(correction.drift == 0)
    }

    @Test("Three QR photos over ten hours of a clock drifting 100 ppm: offset and drift fitted")
    func driftFitted() throws {
        let samples = [0.0, 18_000, 36_000].enumerated().map { index, dx in
            Self.sample("QR\(index).JPG", x: Self.base + dx, offset: 3_600, drift: 100e-6)
        }
        let (correction, rejected) = try ClockSync.fit(samples)
        #expect(rejected.isEmpty)
        #expect(abs(correction.driftPPM - 100) < 60)
        let bound = try #require(correction.errorBound)
        for sample in samples {
            let truth = sample.camera.seconds + 3_600 + 100e-6 * (sample.camera.seconds - Self.base)
            let error = abs(correction.utc(for: sample.camera).timeIntervalSince1970 - truth)
            #expect(error <= bound + 0.5)
        }
        #expect(correction.summary.contains("from 3 QR photos"))
        #expect(correction.summary.contains("ppm"))
    }

    @Test("A QR photo from another camera is rejected and named; the rest still fit")
    func outlierRejected() throws {
        var samples = [0.0, 9_000, 18_000, 27_000, 36_000].enumerated().map { index, dx in
            Self.sample("QR\(index).JPG", x: Self.base + dx, offset: -7_200, drift: -40e-6)
        }
        samples.insert(Self.sample("OTHER.JPG", x: Self.base + 20_000, offset: -7_140), at: 2)
        let (correction, rejected) = try ClockSync.fit(samples)
        #expect(rejected.map(\.photo) == ["OTHER.JPG"])
        let residual = try #require(rejected.first).residual
        #expect(abs(residual - 60) < 2)
        #expect(correction.source == .qrCodes(count: 5))
        let offset = try #require(correction.offset)
        let reference = try #require(correction.referenceCameraTime)
        #expect(abs(offset - (-7_200 - 40e-6 * (reference - Self.base))) < 1)
    }

    @Test("Many QR photos at random times, 5 s codes, one from another camera: only that one is rejected",
          arguments: [1 as UInt64, 2, 3, 4, 5, 6, 7, 8])
    func noisyConsensus(seed: UInt64) throws {
        var generator = SplitMix(seed: seed)
        let drift = Double.random(in: -300e-6...300e-6, using: &generator)
        let offset = Double.random(in: -40_000...40_000, using: &generator)
        var samples = (0..<8).map { index in
            Self.sample("QR\(index).JPG", x: Self.base + Double.random(in: 0...36_000, using: &generator).rounded(),
                        offset: offset, drift: drift, period: 5, subseconds: false)
        }
        samples.append(Self.sample("OTHER.JPG", x: Self.base + 10_000, offset: offset + 45, period: 5, subseconds: false))
        let (correction, rejected) = try ClockSync.fit(samples)
        #expect(rejected.map(\.photo) == ["OTHER.JPG"])
        let bound = try #require(correction.errorBound)
        for sample in samples.dropLast() {
            let truth = sample.camera.midpoint + offset + drift * (sample.camera.midpoint - Self.base)
            #expect(abs(correction.utc(for: sample.camera).timeIntervalSince1970 - truth) <= bound + 3)
        }
    }

    @Test("The fit does not depend on the order of the QR photos")
    func deterministic() throws {
        var samples = [0.0, 9_000, 18_000, 27_000].enumerated().map { index, dx in
            Self.sample("QR\(index).JPG", x: Self.base + dx, offset: 12.3, drift: 200e-6)
        }
        samples.append(Self.sample("ODD.JPG", x: Self.base + 5_000, offset: 40))
        let forward = try ClockSync.fit(samples)
        let backward = try ClockSync.fit(samples.reversed())
        let forwardOffset = try #require(forward.correction.offset)
        let backwardOffset = try #require(backward.correction.offset)
        #expect(abs(forwardOffset - backwardOffset) < 1e-6)
        #expect(abs(forward.correction.drift - backward.correction.drift) < 1e-12)
        #expect(forward.rejected.map(\.photo) == backward.rejected.map(\.photo))
    }

    @Test("Two QR photos that no real clock reconciles: an error naming both and saying what to do")
    func twoDisagreeing() {
        let first = Self.sample("A.JPG", x: Self.base, offset: 100)
        let second = Self.sample("B.JPG", x: Self.base + 600, offset: 130)
        #expect {
            try ClockSync.fit([first, second])
        } throws: { error in
            guard case let .disagreeingPair(a, b, disagreement) = error as? ClockSyncError else { return false }
            let text = String(describing: error)
            return a == "A.JPG" && b == "B.JPG" && abs(disagreement - 30) < 1.5
                && text.contains("A.JPG") && text.contains("B.JPG") && text.contains("--sync")
        }
    }

    @Test("Two QR photos an hour apart, 2 s apart in offset: explained by drift under 1000 ppm")
    func twoWithDrift() throws {
        let first = Self.sample("A.JPG", x: Self.base, offset: 100)
        let second = Self.sample("B.JPG", x: Self.base + 3_600, offset: 102)
        let (correction, rejected) = try ClockSync.fit([first, second])
        #expect(rejected.isEmpty)
        #expect(abs(correction.driftPPM - 2.0 / 3_600 * 1e6) < 300)
    }

    @Test("Three QR photos where every pair needs more than 1000 ppm: drift too large")
    func driftTooLarge() {
        let samples = [
            Self.sample("A.JPG", x: Self.base, offset: 0),
            Self.sample("B.JPG", x: Self.base + 100, offset: 50),
            Self.sample("C.JPG", x: Self.base + 200, offset: -50),
        ]
        #expect {
            try ClockSync.fit(samples)
        } throws: { error in
            guard case let .driftTooLarge(photos, ppm) = error as? ClockSyncError else { return false }
            return photos == ["A.JPG", "B.JPG", "C.JPG"] && ppm > 1_000 && String(describing: error).contains("ppm")
        }
    }

    @Test("Three QR photos where each pair agrees but no majority does: no consensus")
    func noConsensus() {
        let samples = [
            Self.sample("A.JPG", x: Self.base, offset: 0),
            Self.sample("B.JPG", x: Self.base + 3_600, offset: 3),
            Self.sample("C.JPG", x: Self.base + 7_200, offset: 0),
        ]
        #expect(throws: ClockSyncError.self) { try ClockSync.fit(samples) }
        do {
            _ = try ClockSync.fit(samples)
        } catch let error as ClockSyncError {
            guard case let .noConsensus(offsets) = error else {
                Issue.record("expected noConsensus, got \(error)")
                return
            }
            #expect(offsets.map(\.photo) == ["A.JPG", "B.JPG", "C.JPG"])
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("No QR photo, or a QR period out of range: errors that say so")
    func badInput() {
        #expect(throws: ClockSyncError.noSamples) { try ClockSync.fit([]) }
        let sample = QRSample(photo: "A.JPG", camera: CameraTime(seconds: Self.base), payload: QRPayload(time: 1, nonce: "N"), qrPeriod: 0)
        #expect(throws: ClockSyncError.invalidQRPeriod(photo: "A.JPG", period: 0)) { try ClockSync.fit([sample]) }
    }

    // MARK: Other sources

    @Test("Manual sync: the sync photo maps to the given time; bound 1 s without subseconds, 0.5 s with")
    func manualSync() throws {
        let camera = CameraTime(seconds: Self.base, hasSubseconds: false)
        let trueTime = Date(timeIntervalSince1970: Self.base + 3_792.4)
        let correction = ClockSync.manual(photo: "IMG_7.JPG", camera: camera, trueTime: trueTime)
        // Whole seconds on both sides: the photo maps to the middle of the second the clock showed.
        #expect(correction.utc(for: camera) == trueTime.addingTimeInterval(0.5))
        #expect(correction.errorBound == 1)
        let precise = CameraTime(seconds: Self.base + 0.25)
        #expect(ClockSync.manual(photo: "x", camera: precise, trueTime: trueTime).utc(for: precise) == trueTime)
        #expect(correction.source == .manualSync(photo: "IMG_7.JPG"))
        #expect(ClockSync.manual(photo: "x", camera: CameraTime(seconds: Self.base), trueTime: trueTime).errorBound == 0.5)
        #expect(correction.summary == "camera clock is 1 h 03 min 12.4 s behind (set by hand from IMG_7.JPG, ±1.0 s)")
    }

    @Test("Fixed offset: added to camera time; a negative one means the camera is ahead")
    func fixedOffset() {
        let correction = ClockSync.fixedOffset(-150)
        #expect(correction.utc(for: CameraTime(seconds: Self.base)).timeIntervalSince1970 == Self.base - 150)
        #expect(correction.errorBound == nil)
        #expect(correction.summary == "camera clock is 2 min 30.0 s ahead (--offset)")
    }

    @Test("Time zone: daylight saving per photo, either side of Berlin's 2024 spring change")
    func timeZone() throws {
        let berlin = try ClockSync.timeZone("Europe/Berlin")
        #expect(berlin.offset == nil)
        func utc(_ exif: String) throws -> Double {
            berlin.utc(for: try #require(CameraTime(exif: exif, subSeconds: "0", offset: nil))).timeIntervalSince1970
        }
        #expect(try utc("2024:03:31 01:30:00") == 1_711_845_000)  // CET: 00:30 UTC
        #expect(try utc("2024:03:31 03:30:00") == 1_711_848_600)  // CEST: 01:30 UTC
        #expect(try utc("2024:07:01 12:00:00") == 1_719_828_000)  // CEST
        #expect(try utc("2024:10:27 02:30:00") == 1_729_989_000)  // repeated hour: the first, CEST
    }

    @Test("Unknown time zone: an error that says how to find names")
    func unknownZone() {
        #expect(throws: ClockSyncError.unknownTimeZone("Europe/Atlantis")) { try ClockSync.timeZone("Europe/Atlantis") }
        #expect(String(describing: ClockSyncError.unknownTimeZone("X")).contains("Europe/Berlin"))
    }

    @Test("Camera offsets: each photo's OffsetTimeOriginal gives UTC")
    func cameraOffsets() throws {
        let correction = try ClockSync.cameraOffsets()
        let reading = try #require(CameraTime(exif: "2019:08:01 12:34:56", subSeconds: "0", offset: "+02:00"))
        #expect(correction.utc(for: reading).timeIntervalSince1970 == 1_564_655_696)
    }

    // MARK: Parsing

    @Test("Offsets ±[D.]HH:MM:SS(.fff)", arguments: [
        ("+1:00:00", 3_600.0), ("-0:02:30", -150), ("+1.02:00:00", 93_600), ("00:00:12.5", 12.5),
        ("-01:00:00.25", -3_600.25), (" +0:00:01 ", 1),
    ])
    func parsesOffsets(_ text: String, _ expected: Double) throws {
        #expect(try ClockSync.parseOffset(text) == expected)
    }

    @Test("Offsets that are not ±[D.]HH:MM:SS are refused with an example", arguments: [
        "1h", "+1:00", "+1:60:00", "+1:00:60", "abc", "", "+1.25:00:00", "+1:0:00", "++1:00:00", "+1:00:00.",
    ])
    func refusesOffsets(_ text: String) {
        #expect(throws: ClockSyncError.invalidOffset(text)) { try ClockSync.parseOffset(text) }
        #expect(String(describing: ClockSyncError.invalidOffset(text)).contains("+1:00:00"))
    }

    @Test("Sync times: ISO 8601 with a zone", arguments: [
        ("2019-08-01T12:34:56+02:00", 1_564_655_696.0), ("2019-08-01T10:34:56Z", 1_564_655_696),
        ("2019-08-01T10:34:56.25Z", 1_564_655_696.25), ("2019-08-01 05:34:56-0500", 1_564_655_696),
    ])
    func parsesSyncTimes(_ text: String, _ expected: Double) throws {
        #expect(try ClockSync.parseSyncTime(text).timeIntervalSince1970 == expected)
    }

    @Test("A sync time without a zone is refused with advice to add one")
    func syncTimeNeedsZone() {
        #expect {
            try ClockSync.parseSyncTime("2019-08-01T12:34:56")
        } throws: { error in
            String(describing: error).contains("2019-08-01T12:34:56+02:00")
        }
        #expect(throws: ClockSyncError.self) { try ClockSync.parseSyncTime("2019-02-30T00:00:00Z") }
        #expect(throws: ClockSyncError.self) { try ClockSync.parseSyncTime("yesterday") }
        #expect(throws: ClockSyncError.self) { try ClockSync.parseSyncTime("2019-08-01T12:34:56+25:00") }
    }
}
