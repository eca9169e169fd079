import Foundation
import Testing
import WaymarkCore

/// A source that reports `reports` and then ends, or fails with `error`.
private struct ListedSource: LocationSource {
    let description = "a listed source"
    let isLive = true
    var reports: [LocationEvent]
    var error: (any Error)?

    func events() -> AsyncThrowingStream<LocationEvent, Error> {
        AsyncThrowingStream { continuation in
            for event in reports { continuation.yield(event) }
            continuation.finish(throwing: error)
        }
    }
}

private struct ReceiverGone: Error {}

@Suite("The first fix of a source, within a time limit (vault read-location)")
struct FirstFixTests {
    let t = Date(timeIntervalSince1970: 1_795_554_843)

    @Test func theFirstPositionAfterReportsOfNone() async throws {
        let first = Fix(latitude: 46.36831, longitude: 14.11462, speed: 1.39, course: 87.4, time: t)
        let source = ListedSource(reports: [.noFix, .noFix, .fix(first), .fix(Fix(latitude: 46.4, longitude: 14.2, time: t + 1))])
        #expect(try await source.firstFix(within: .seconds(30)) == first)
    }

    @Test func noneWhenTheSourceEndsWithoutAPosition() async throws {
        #expect(try await ListedSource(reports: [.noFix]).firstFix(within: .seconds(30)) == nil)
    }

    @Test func noneWhenNothingComesInTimeAndTheReceiverIsReleased() async throws {
        let source = HandFedSource()
        source.send(.noFix)
        #expect(try await source.firstFix(within: .milliseconds(200)) == nil)
        #expect(source.opened == 1 && source.released == 1)
    }

    @Test func theSourcesErrorIsThrown() async throws {
        await #expect(throws: ReceiverGone.self) {
            try await ListedSource(reports: [.noFix], error: ReceiverGone()).firstFix(within: .seconds(30))
        }
    }
}
