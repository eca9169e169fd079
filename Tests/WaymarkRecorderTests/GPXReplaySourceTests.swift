import Foundation
import Testing
import WaymarkTestSupport
import WaymarkCore
@testable import WaymarkRecorder

@Suite("Track replay")
struct GPXReplaySourceTests {
    /// Five fixes, 10 s apart, written as GPX.
    static let original: [Fix] = (0..<5).map { i in
        Fix(latitude: 46 + Double(i) * 0.001, longitude: 14, altitude: 300 + Double(i), accuracy: 5,
            time: Date(timeIntervalSince1970: 1_700_000_000 + Double(i) * 10))
    }

    static func gpxFile(in folder: TemporaryFolder) throws -> URL {
        let url = folder.url.appendingPathComponent("walk.gpx")
        try TrackFile.write([Track(fixes: original)], as: .gpx).write(to: url)
        return url
    }

    @Test("Fixes are stamped from the moment the replay starts, spaced as recorded, and the stream ends after the last")
    func retimed() async throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let source = GPXReplaySource(url: try Self.gpxFile(in: folder), clock: clock)
        #expect(!source.isLive)
        #expect(source.description == "replay of walk.gpx at 1×")
        let started = Date()
        var iterator = source.events().makeAsyncIterator()
        var replayed: [Fix] = []
        var firstArrived = Date.distantFuture
        for index in 0..<5 {
            if index > 0 {
                try await clock.waitForSleepers()
                clock.advance(by: .seconds(10))
            }
            guard case .fix(let fix) = try await iterator.next() else { Issue.record("no fix \(index)"); return }
            replayed.append(fix)
            if index == 0 { firstArrived = Date() }
        }
        #expect(try await iterator.next() == nil)
        let first = try #require(replayed.first)
        // Stamped with the present: between asking for the replay and receiving its first fix.
        #expect(first.time >= started && first.time <= firstArrived)
        for (copy, fix) in zip(replayed, Self.original) {
            #expect(copy.latitude == fix.latitude && copy.longitude == fix.longitude && copy.altitude == fix.altitude)
            #expect(abs(copy.time.timeIntervalSince(first.time) - fix.time.timeIntervalSince(Self.original[0].time)) < 1e-6)
        }
    }

    @Test("A speed factor shortens the gaps and the stamps alike")
    func speed() async throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let source = GPXReplaySource(url: try Self.gpxFile(in: folder), speed: 4, clock: clock)
        #expect(source.description == "replay of walk.gpx at 4×")
        var iterator = source.events().makeAsyncIterator()
        guard case .fix(let first) = try await iterator.next() else { Issue.record("no first fix"); return }
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(2_499))
        // Not yet due: the replay still sleeps.
        try await Task.sleep(for: .milliseconds(50))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        guard case .fix(let second) = try await iterator.next() else { Issue.record("no second fix"); return }
        #expect(abs(second.time.timeIntervalSince(first.time) - 2.5) < 1e-6)
        #expect(second.latitude == Self.original[1].latitude)
    }

    @Test("Resuming after a pause skips the fixes whose moment has passed, and repeats none")
    func pauseSkips() async throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let source = GPXReplaySource(url: try Self.gpxFile(in: folder), clock: clock)
        let beforePause = try await collect(source.events()) { $0.count == 1 }.fixes
        let first = try #require(beforePause.first)
        // Paused for 25 s: the fixes at 10 s and 20 s happened meanwhile.
        clock.advance(by: .seconds(25))
        var iterator = source.events().makeAsyncIterator()
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        guard case .fix(let resumed) = try await iterator.next() else { Issue.record("no fix after resuming"); return }
        #expect(resumed.latitude == Self.original[3].latitude)
        #expect(abs(resumed.time.timeIntervalSince(first.time) - 30) < 1e-6)
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(10))
        guard case .fix(let last) = try await iterator.next() else { Issue.record("no last fix"); return }
        #expect(last.latitude == Self.original[4].latitude)
        #expect(try await iterator.next() == nil)
        // Once the walk is over, resuming finds nothing left.
        #expect(try await collect(source.events()).isEmpty)
    }

    @Test("A replay with every fix already passed ends at once")
    func resumedAfterTheEnd() async throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let source = GPXReplaySource(url: try Self.gpxFile(in: folder), clock: clock)
        _ = try await collect(source.events()) { $0.count == 1 }
        clock.advance(by: .seconds(60))
        #expect(try await collect(source.events()).isEmpty)
    }

    @Test("A real recording replays at high speed on the real clock, from any track format")
    func realTrack() async throws {
        let url = Fixtures.url("tracks/around-visnjan-with-car.gpx")
        let original = try fixes(of: url)
        let span = try #require(original.last).time.timeIntervalSince(original[0].time)
        let speed = span / 0.5   // the whole track in half a second
        let events = try await withTimeout(30, waitingFor: "the replay") { try await collect(GPXReplaySource(url: url, speed: speed).events()) }
        #expect(events.fixes.count == original.count)
        #expect(zip(events.fixes, events.fixes.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("A track without times is refused, saying to export it with timestamps")
    func noTimes() async throws {
        let source = GPXReplaySource(url: Fixtures.url("tracks/cerknicko-without-times.gpx"), clock: ManualClock())
        let error = try await #require(throws: TrackFormatError.self) { _ = try await collect(source.events()) }
        #expect(error.message.contains("timestamps"))
    }

    @Test("A speed of zero is refused")
    func zeroSpeed() async throws {
        let folder = try TemporaryFolder()
        let source = GPXReplaySource(url: try Self.gpxFile(in: folder), speed: 0)
        let error = try await #require(throws: ReplayError.self) { _ = try await collect(source.events()) }
        #expect(error == .invalidSpeed(0))
    }
}
