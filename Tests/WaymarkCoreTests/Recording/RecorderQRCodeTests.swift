import Foundation
import Testing
import WaymarkCore

@Suite("Recorder engine: time-sync QR code")
struct RecorderQRCodeTests {
    typealias F = RecorderFixture

    @Test("SRR-11: the nonce is fixed for the whole session")
    func nonceFixed() {
        var engine = RecorderEngine(settings: RecorderSettings(), nonce: "K3J9ZQ0XW2AB", sourceIsLive: false, start: F.at(0))
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        engine.pause(at: F.at(2))
        engine.resume(at: F.at(60))
        let nonces = Set([0.0, 7, 61, 3_000].map { engine.qrCode(at: F.at($0)).payload.nonce })
        #expect(nonces == ["K3J9ZQ0XW2AB"])
        #expect(engine.stop(at: F.at(3_001)).nonce == "K3J9ZQ0XW2AB")
    }

    @Test("SRR-12: the payload is <unix-seconds>-<nonce>")
    func payloadFormat() throws {
        let engine = F.engine(live: false)
        let code = engine.qrCode(at: F.at(0))
        #expect(code.payload.text == "1748772000-2OANEZK7Q1XD")
        let parsed = try #require(QRPayload(code.payload.text))
        #expect(parsed == code.payload)
    }

    @Test("SRR-13: a new code every qrPeriod seconds, aligned on multiples of the period in Unix time")
    func regenerated() {
        let engine = F.engine(RecorderSettings(qrPeriod: 5), live: false)
        // base is a multiple of 5; base + 3 is in the same period, base + 5 starts the next.
        #expect(engine.qrCode(at: F.at(0)).payload.time == 1_748_772_000)
        #expect(engine.qrCode(at: F.at(4.99)).payload.time == 1_748_772_000)
        #expect(engine.qrCode(at: F.at(5)).payload.time == 1_748_772_005)
        #expect(engine.qrCode(at: F.at(12)).payload.time == 1_748_772_010)
        let slow = F.engine(RecorderSettings(qrPeriod: 30), live: false)
        #expect(slow.qrCode(at: F.at(31)).payload.time == 1_748_772_030)
        #expect(slow.qrCode(at: F.at(31)).period == 30)
    }

    @Test("SRR-14: the gauge shows the seconds left before the next code")
    func secondsLeft() {
        let engine = F.engine(RecorderSettings(qrPeriod: 5), live: false)
        #expect(engine.qrCode(at: F.at(0)).secondsLeft == 5)
        #expect(abs(engine.qrCode(at: F.at(3.25)).secondsLeft - 1.75) < 1e-6)
        #expect(abs(engine.qrCode(at: F.at(9.5)).secondsLeft - 0.5) < 1e-6)
        #expect(engine.snapshot(at: F.at(3)).qr == engine.qrCode(at: F.at(3)))
    }

    @Test("SRR-12: a computer clock 90 s slow still shows the GPS time in the QR code")
    func gpsCorrectsSlowClock() {
        let slowWall = F.base.addingTimeInterval(-90)
        var engine = F.engine(live: true, start: F.at(0, wall: slowWall))
        #expect(engine.clockCorrection == nil)
        #expect(engine.qrCode(at: F.at(0, wall: slowWall)).payload.time == 1_748_772_000 - 90)
        // Fixes arrive 0.4 s late, except one that arrives on time: the largest sample wins.
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1.4, wall: slowWall))
        _ = engine.handle(.fix(F.fix(2)), at: F.at(2.0, wall: slowWall))
        _ = engine.handle(.fix(F.fix(3)), at: F.at(3.4, wall: slowWall))
        #expect(engine.clockCorrection == 90)
        let code = engine.qrCode(at: F.at(7, wall: slowWall))
        #expect(code.payload.time == 1_748_772_005)
        #expect(abs(code.secondsLeft - 3) < 1e-6)
        #expect(engine.snapshot(at: F.at(7, wall: slowWall)).clockCorrection == 90)
    }

    @Test("The clock correction is the largest over the last 30 accepted fixes only")
    func correctionWindow() {
        var engine = F.engine(live: true)
        // The first fix arrives on time against a clock 20 s slow; then the clock is set right.
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1, wall: F.base.addingTimeInterval(-20)))
        #expect(engine.clockCorrection == 20)
        for second in 2...30 {
            _ = engine.handle(.fix(F.fix(Double(second))), at: F.at(Double(second) + 0.5))
        }
        #expect(engine.clockCorrection == 20)
        _ = engine.handle(.fix(F.fix(31)), at: F.at(31.5))
        #expect(engine.clockCorrection == -0.5)
    }

    @Test("A replay does not correct the clock: its times are not the present")
    func replayDoesNotCorrect() {
        var engine = F.engine(live: false)
        _ = engine.handle(.fix(F.fix(-3_600_000)), at: F.at(1))
        #expect(engine.clockCorrection == nil)
        #expect(engine.qrCode(at: F.at(10)).payload.time == 1_748_772_010)
    }
}
