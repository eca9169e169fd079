import Foundation
import Testing
import WaymarkCore

@Suite("Recorder engine: tracks, pause, stop")
struct RecorderEngineTests {
    typealias F = RecorderFixture

    @Test("SRR-05: pause and resume split the route into tracks; empty tracks never appear")
    func tracksSplitOnPause() {
        var engine = F.engine()
        #expect(engine.handle(.fix(F.fix(1)), at: F.at(1)) == .accepted(track: 0, startsTrack: true))
        #expect(engine.handle(.fix(F.fix(2, north: 10)), at: F.at(2)) == .accepted(track: 0, startsTrack: false))
        engine.pause(at: F.at(3))
        engine.resume(at: F.at(100))
        // A pause and resume without any fix in between leaves no empty track.
        engine.pause(at: F.at(110))
        engine.resume(at: F.at(120))
        #expect(engine.handle(.fix(F.fix(121, north: 500)), at: F.at(121)) == .accepted(track: 1, startsTrack: true))
        #expect(engine.handle(.fix(F.fix(122, north: 520)), at: F.at(122)) == .accepted(track: 1, startsTrack: false))
        let route = engine.stop(at: F.at(130))
        #expect(route.tracks.map(\.fixes.count) == [2, 2])
        #expect(route.tracks.allSatisfy { !$0.fixes.isEmpty })
        #expect(engine.tracks.count == 2)
    }

    @Test("SRR-05: distance is summed within tracks, never across a pause")
    func distanceWithinTracks() {
        var engine = F.engine()
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        _ = engine.handle(.fix(F.fix(2, north: 100)), at: F.at(2))
        engine.pause(at: F.at(3))
        engine.resume(at: F.at(50))
        _ = engine.handle(.fix(F.fix(51, north: 5_100)), at: F.at(51))
        _ = engine.handle(.fix(F.fix(52, north: 5_150)), at: F.at(52))
        // 100 m + 50 m; the 5 km gap during the pause does not count.
        #expect(abs(engine.distance - 150) < 1)
    }

    @Test("SRR-06: fixes worse than the threshold are ignored")
    func inaccurateIgnored() {
        var engine = F.engine(RecorderSettings(accuracyThreshold: 20))
        #expect(engine.handle(.fix(F.fix(1, accuracy: 20.5)), at: F.at(1)) == .ignored(.inaccurate(20.5)))
        #expect(engine.tracks.isEmpty)
        #expect(engine.handle(.fix(F.fix(2, accuracy: 20)), at: F.at(2)) == .accepted(track: 0, startsTrack: true))
        #expect(engine.handle(.fix(F.fix(3, accuracy: 100)), at: F.at(3)) == .ignored(.inaccurate(100)))
        #expect(engine.fixCount == 1)
        #expect(engine.snapshot(at: F.at(3)).lastIgnored == .inaccurate(100))
    }

    @Test("SRR-06: a fix without accuracy is accepted, with an orange status")
    func noAccuracyAccepted() {
        var engine = F.engine()
        #expect(engine.handle(.fix(F.fix(1, accuracy: nil)), at: F.at(1)) == .accepted(track: 0, startsTrack: true))
        #expect(engine.status(at: F.at(1)) == .orange)
        #expect(engine.lastAccuracy == nil)
    }

    @Test("SRR-07: no track starts before the first acceptable fix, also after a resume")
    func waitsForFirstFix() {
        var engine = F.engine()
        #expect(engine.phase == .waitingForFix)
        #expect(engine.handle(.noFix, at: F.at(1)) == .ignored(.noFix))
        _ = engine.handle(.fix(F.fix(2, accuracy: 500)), at: F.at(2))
        #expect(engine.phase == .waitingForFix)
        #expect(engine.tracks.isEmpty)
        _ = engine.handle(.fix(F.fix(3)), at: F.at(3))
        #expect(engine.phase == .recording)

        engine.pause(at: F.at(4))
        engine.resume(at: F.at(10))
        #expect(engine.phase == .waitingForFix)
        _ = engine.handle(.fix(F.fix(11, accuracy: 500)), at: F.at(11))
        #expect(engine.phase == .waitingForFix)
        #expect(engine.tracks.count == 1)
        _ = engine.handle(.fix(F.fix(12)), at: F.at(12))
        #expect(engine.phase == .recording)
        #expect(engine.tracks.count == 2)
    }

    @Test("SRR-15: pause stops the elapsed clock and ignores events")
    func pauseFreezes() {
        var engine = F.engine()
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        #expect(engine.elapsed(at: F.at(40)) == 40)
        engine.pause(at: F.at(40))
        #expect(engine.phase == .paused)
        #expect(engine.elapsed(at: F.at(400)) == 40)
        #expect(engine.handle(.fix(F.fix(401)), at: F.at(401)) == .ignored(.paused))
        #expect(engine.handle(.noFix, at: F.at(402)) == .ignored(.paused))
        #expect(engine.fixCount == 1)
        #expect(engine.snapshot(at: F.at(403)).elapsedText == "40 s")
    }

    @Test("SRR-16: resume restarts the clock and the next fix starts a new track")
    func resumeRestarts() {
        var engine = F.engine()
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        engine.pause(at: F.at(30))
        engine.resume(at: F.at(100))
        #expect(engine.elapsed(at: F.at(100)) == 30)
        #expect(engine.elapsed(at: F.at(145)) == 75)
        #expect(engine.handle(.fix(F.fix(101)), at: F.at(101)) == .accepted(track: 1, startsTrack: true))
    }

    @Test("SRR-17: stop returns the route and later events are ignored")
    func stopReturnsRoute() throws {
        var engine = F.engine(RecorderSettings(qrPeriod: 2))
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        _ = engine.handle(.fix(F.fix(2, north: 5)), at: F.at(2))
        let route = engine.stop(at: F.at(10))
        #expect(route.nonce == "2OANEZK7Q1XD")
        #expect(route.qrPeriod == 2)
        let track = try #require(route.tracks.first)
        #expect(track.fixes == [F.fix(1), F.fix(2, north: 5)])
        #expect(engine.phase == .stopped)
        #expect(engine.handle(.fix(F.fix(11)), at: F.at(11)) == .ignored(.stopped))
        #expect(engine.elapsed(at: F.at(500)) == 10)
        #expect(engine.stop(at: F.at(600)) == route)
        // Pausing or resuming a stopped recording changes nothing.
        engine.resume(at: F.at(700))
        #expect(engine.phase == .stopped)
    }

    @Test("SRR-04: elapsed time runs from the start, also while waiting for the first fix")
    func elapsedFromStart() {
        var engine = F.engine()
        #expect(engine.elapsed(at: F.at(12.5)) == 12.5)
        _ = engine.handle(.fix(F.fix(20)), at: F.at(20))
        let snapshot = engine.snapshot(at: F.at(725))
        #expect(snapshot.elapsedText == "12 min 05 s")
        #expect(snapshot.trackCount == 1)
        #expect(snapshot.fixCount == 1)
        #expect(snapshot.phase == .recording)
    }

    @Test("SRR-10: toggling units switches the distance text between metric and imperial")
    func toggleUnits() {
        var engine = F.engine()
        _ = engine.handle(.fix(F.fix(1)), at: F.at(1))
        _ = engine.handle(.fix(F.fix(2, north: 523)), at: F.at(2))
        #expect(engine.snapshot(at: F.at(3)).distanceText == "523 m")
        engine.toggleUnits()
        #expect(engine.settings.units == .imperial)
        #expect(engine.snapshot(at: F.at(3)).distanceText == "572 yd")
        engine.toggleUnits()
        #expect(engine.snapshot(at: F.at(3)).distanceText == "523 m")
    }
}
