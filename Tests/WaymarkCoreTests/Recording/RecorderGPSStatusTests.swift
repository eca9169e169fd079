import Foundation
import Testing
import WaymarkCore

@Suite("Recorder engine: GPS status and alert")
struct RecorderGPSStatusTests {
    typealias F = RecorderFixture

    @Test("SRR-08: the status colour follows the latest event's accuracy against the threshold",
          arguments: [(5.0, GPSStatus.green), (10, .green), (10.01, .blue), (50, .blue), (50.5, .orange),
                      (100, .orange), (100.1, .red), (800, .red)])
    func statusColours(accuracy: Double, expected: GPSStatus) {
        var engine = F.engine()
        _ = engine.handle(.fix(F.fix(1, accuracy: accuracy)), at: F.at(1))
        #expect(engine.status(at: F.at(1)) == expected)
        #expect(engine.snapshot(at: F.at(1)).status == expected)
        #expect(engine.lastAccuracy == accuracy)
    }

    @Test("SRR-08: the threshold comes from the settings")
    func statusUsesThreshold() {
        var engine = F.engine(RecorderSettings(accuracyThreshold: 20))
        _ = engine.handle(.fix(F.fix(1, accuracy: 3)), at: F.at(1))
        #expect(engine.status(at: F.at(1)) == .blue)
    }

    @Test("SRR-08: none before any event and when the receiver is silent; red without a fix")
    func statusNoneAndRed() {
        var engine = F.engine()
        #expect(engine.status(at: F.at(0)) == .none)
        _ = engine.handle(.fix(F.fix(1, accuracy: 3)), at: F.at(1))
        #expect(engine.status(at: F.at(11)) == .green)
        #expect(engine.status(at: F.at(11.5)) == .none)
        _ = engine.handle(.noFix, at: F.at(12))
        #expect(engine.status(at: F.at(12)) == .red)
        #expect(engine.lastAccuracy == nil)
        // The latest event counts, even when ignored: a good fix after a bad one turns it green.
        _ = engine.handle(.fix(F.fix(13, accuracy: 400)), at: F.at(13))
        #expect(engine.status(at: F.at(13)) == .red)
        _ = engine.handle(.fix(F.fix(14, accuracy: 2)), at: F.at(14))
        #expect(engine.status(at: F.at(14)) == .green)
    }

    @Test("SRR-09: the alert sounds once after the delay without an acceptable fix, then every delay")
    func alertRepeats() {
        var engine = F.engine(RecorderSettings(alertDelay: 30))
        _ = engine.handle(.fix(F.fix(10)), at: F.at(10))
        _ = engine.handle(.fix(F.fix(20, accuracy: 300)), at: F.at(20))
        #expect(engine.alertDue(at: F.at(39.9)) == false)
        #expect(engine.alertDue(at: F.at(40)) == true)
        #expect(engine.alertDue(at: F.at(40)) == false)
        #expect(engine.alertDue(at: F.at(69)) == false)
        #expect(engine.alertDue(at: F.at(70)) == true)
        // Polled late: one alert, and the rhythm is kept.
        #expect(engine.alertDue(at: F.at(165)) == true)
        #expect(engine.alertDue(at: F.at(175)) == false)
        #expect(engine.alertDue(at: F.at(190)) == true)
    }

    @Test("SRR-09: an acceptable fix resets the alert; waiting for the first fix counts from the start")
    func alertResets() {
        var engine = F.engine(RecorderSettings(alertDelay: 30))
        #expect(engine.alertDue(at: F.at(30)) == true)
        _ = engine.handle(.fix(F.fix(35)), at: F.at(35))
        #expect(engine.alertDue(at: F.at(64)) == false)
        #expect(engine.alertDue(at: F.at(65)) == true)
    }

    @Test("SRR-09: never while paused or stopped; a resume counts the delay from the resume")
    func alertNotWhilePaused() {
        var engine = F.engine(RecorderSettings(alertDelay: 30))
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        engine.pause(at: F.at(5))
        #expect(engine.alertDue(at: F.at(100)) == false)
        engine.resume(at: F.at(200))
        #expect(engine.alertDue(at: F.at(229)) == false)
        #expect(engine.alertDue(at: F.at(230)) == true)
        _ = engine.stop(at: F.at(240))
        #expect(engine.alertDue(at: F.at(500)) == false)
    }

    @Test("SRR-09: the alert is measured on the monotonic clock, not the wall clock")
    func alertIsMonotonic() {
        var engine = F.engine(RecorderSettings(alertDelay: 30))
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        // NTP steps the wall clock an hour ahead; only 10 s really passed.
        let stepped = RecorderInstant(wall: F.base.addingTimeInterval(3_611), uptime: F.uptimeOrigin + 11)
        #expect(engine.alertDue(at: stepped) == false)
    }
}
