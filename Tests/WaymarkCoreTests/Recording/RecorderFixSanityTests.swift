import Foundation
import Testing
import WaymarkCore

@Suite("Recorder engine: absurd fixes are dropped, the wall clock is never trusted for fix times")
struct RecorderFixSanityTests {
    typealias F = RecorderFixture

    @Test("A fix with the time of the last accepted fix is a duplicate")
    func duplicate() {
        var engine = F.engine()
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        #expect(engine.handle(.fix(F.fix(1, north: 3)), at: F.at(1.2)) == .ignored(.duplicate))
        #expect(engine.fixCount == 1)
    }

    @Test("A fix earlier than the last accepted one is out of order")
    func outOfOrder() {
        var engine = F.engine()
        _ = engine.handle(.fix(F.fix(10)), at: F.at(10))
        #expect(engine.handle(.fix(F.fix(9)), at: F.at(11)) == .ignored(.outOfOrder))
        #expect(engine.handle(.fix(F.fix(11)), at: F.at(11)) == .accepted(track: 0, startsTrack: false))
    }

    @Test("Impossible positions and accuracies are invalid", arguments: [
        Fix(latitude: .nan, longitude: 2, accuracy: 5, time: RecorderFixture.base),
        Fix(latitude: 48, longitude: .infinity, accuracy: 5, time: RecorderFixture.base),
        Fix(latitude: 90.5, longitude: 2, accuracy: 5, time: RecorderFixture.base),
        Fix(latitude: -91, longitude: 2, accuracy: 5, time: RecorderFixture.base),
        Fix(latitude: 48, longitude: 180.01, accuracy: 5, time: RecorderFixture.base),
        Fix(latitude: 48, longitude: -181, accuracy: 5, time: RecorderFixture.base),
        Fix(latitude: 48, longitude: 2, accuracy: -1, time: RecorderFixture.base),
        Fix(latitude: 48, longitude: 2, accuracy: .nan, time: RecorderFixture.base),
        Fix(latitude: 48, longitude: 2, altitude: .nan, accuracy: 5, time: RecorderFixture.base),
    ])
    func invalidPosition(_ fix: Fix) {
        var engine = F.engine()
        #expect(engine.handle(.fix(fix), at: F.at(1)) == .ignored(.invalidPosition))
        #expect(engine.tracks.isEmpty)
        #expect(engine.status(at: F.at(1)) == .red)
    }

    @Test("The poles and the antimeridian are valid positions")
    func edgesAreValid() {
        var engine = F.engine()
        let pole = Fix(latitude: 90, longitude: -180, accuracy: 5, time: F.base.addingTimeInterval(1))
        #expect(engine.handle(.fix(pole), at: F.at(1)) == .accepted(track: 0, startsTrack: true))
    }

    @Test("A fix more than a day ahead of a plausible wall clock is in the future")
    func future() {
        var engine = F.engine()
        #expect(engine.handle(.fix(F.fix(86_401 + 1)), at: F.at(1)) == .ignored(.future))
        #expect(engine.handle(.fix(F.fix(86_000)), at: F.at(1)) == .accepted(track: 0, startsTrack: true))
    }

    @Test("With a wall clock in 1970 (a Raspberry Pi without RTC), today's fixes are accepted")
    func implausibleWallClock() {
        let wall1970 = Date(timeIntervalSince1970: 30)
        var engine = F.engine(start: F.at(0, wall: wall1970))
        #expect(engine.handle(.fix(F.fix(1)), at: F.at(1, wall: wall1970)) == .accepted(track: 0, startsTrack: true))
        #expect(engine.handle(.fix(F.fix(2)), at: F.at(2, wall: wall1970)) == .accepted(track: 0, startsTrack: false))
    }

    @Test("A fix 1024 weeks behind a plausible wall clock is a week rollover")
    func weekRollover() {
        var engine = F.engine()
        let rolledBack = F.base.addingTimeInterval(-1024 * 7 * 86_400)
        #expect(engine.handle(.fix(F.fix(1, base: rolledBack)), at: F.at(1)) == .ignored(.weekRollover))
        // An old but possible time (a year behind) is not a rollover.
        let yearBehind = F.base.addingTimeInterval(-365 * 86_400)
        #expect(engine.handle(.fix(F.fix(1, base: yearBehind)), at: F.at(1)) == .accepted(track: 0, startsTrack: true))
    }

    @Test("A fix an hour ahead of the prediction is a time jump, and does not block later fixes")
    func timeJump() {
        var engine = F.engine()
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        #expect(engine.handle(.fix(F.fix(2 + 3_601)), at: F.at(2)) == .ignored(.timeJump))
        // Had the jump been accepted, every right fix after it would be out of order.
        #expect(engine.handle(.fix(F.fix(3)), at: F.at(3)) == .accepted(track: 0, startsTrack: false))
        // Time passed on the monotonic clock is allowed for: a fix 2 h later, 2 h later, is fine.
        #expect(engine.handle(.fix(F.fix(7_203)), at: F.at(7_203)) == .accepted(track: 0, startsTrack: false))
    }

    @Test("A sleep that stops the monotonic clock is not a time jump: the wall clock moved on")
    func sleepIsNotAJump() {
        var engine = F.engine()
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        engine.pause(at: F.at(2))
        // Two hours of sleep: the wall clock moved on, the uptime barely did.
        let afterSleep = RecorderInstant(wall: F.base.addingTimeInterval(7_205), uptime: F.uptimeOrigin + 5)
        engine.resume(at: afterSleep)
        #expect(engine.handle(.fix(F.fix(7_205)), at: afterSleep) == .accepted(track: 1, startsTrack: true))
    }

    @Test("After a first fix with a wrong time, five consistent right fixes are believed, in a new track")
    func wrongFirstFixRecovers() {
        let wall1970 = Date(timeIntervalSince1970: 30)
        var engine = F.engine(start: F.at(0, wall: wall1970))
        let wrong = F.fix(1, base: Date(timeIntervalSince1970: 1_136_073_600))  // a receiver's 2006 default
        #expect(engine.handle(.fix(wrong), at: F.at(1, wall: wall1970)) == .accepted(track: 0, startsTrack: true))
        for second in 2...5 {
            #expect(engine.handle(.fix(F.fix(Double(second))), at: F.at(Double(second), wall: wall1970)) == .ignored(.timeJump))
        }
        #expect(engine.handle(.fix(F.fix(6)), at: F.at(6, wall: wall1970)) == .accepted(track: 1, startsTrack: true))
        #expect(engine.handle(.fix(F.fix(7)), at: F.at(7, wall: wall1970)) == .accepted(track: 1, startsTrack: false))
        // The clock correction follows the right time line, not the wrong fix.
        let correction = engine.clockCorrection ?? 0
        #expect(abs(correction - (F.base.timeIntervalSince1970 - 30)) < 1)
    }

    @Test("A receiver that repeats each fix still gets its right time line believed")
    func repeatsDoNotBreakRecovery() {
        let wall1970 = Date(timeIntervalSince1970: 30)
        var engine = F.engine(start: F.at(0, wall: wall1970))
        let wrong = F.fix(1, base: Date(timeIntervalSince1970: 1_136_073_600))
        _ = engine.handle(.fix(wrong), at: F.at(1, wall: wall1970))
        var verdicts: [FixVerdict] = []
        for second in 2...6 {
            for repeatArrival in [0.1, 0.2] {
                verdicts.append(engine.handle(.fix(F.fix(Double(second))), at: F.at(Double(second) + repeatArrival, wall: wall1970)))
            }
        }
        #expect(verdicts.filter { $0 == .accepted(track: 1, startsTrack: true) }.count == 1)
        #expect(verdicts.last == .ignored(.duplicate))
        #expect(engine.tracks.count == 2)
    }

    @Test("Scattered out-of-order fixes between good ones never replace the time line")
    func scatteredGlitchesDoNotRecover() {
        var engine = F.engine()
        for second in 1...20 {
            _ = engine.handle(.fix(F.fix(Double(second))), at: F.at(Double(second)))
            #expect(engine.handle(.fix(F.fix(Double(second) - 0.5)), at: F.at(Double(second) + 0.5)) == .ignored(.outOfOrder))
        }
        #expect(engine.tracks.count == 1)
        #expect(engine.fixCount == 20)
    }
}
