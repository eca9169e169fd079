import Foundation
import Testing
@testable import WaymarkCore

@Suite("Correlation")
struct CorrelationTests {
    static let t0 = 1_711_843_200.0  // 2024-03-31T00:00:00Z

    static func fix(_ dt: Double, lat: Double, lon: Double, alt: Double? = 100, accuracy: Double? = 5) -> Fix {
        Fix(latitude: lat, longitude: lon, altitude: alt, accuracy: accuracy, time: Date(timeIntervalSince1970: t0 + dt))
    }

    static func at(_ dt: Double) -> Date { Date(timeIntervalSince1970: t0 + dt) }

    /// Two tracks: fixes at 0, 10, 70 and 200 s, a pause, then 1000–1060 s.
    static let route = Route(tracks: [
        // Given out of order on purpose: the correlator normalises.
        Track(fixes: [fix(1_060, lat: 53, lon: 10), fix(1_000, lat: 52, lon: 10)]),
        Track(fixes: [
            fix(0, lat: 48.0, lon: 11.0, alt: 500, accuracy: 3),
            fix(10, lat: 48.1, lon: 11.2, alt: 520, accuracy: 8),
            fix(70, lat: 48.2, lon: 11.3, alt: nil, accuracy: 4),  // exactly maxGap after the previous
            fix(200, lat: 48.3, lon: 11.4),  // 130 s gap
        ]),
    ])

    let correlator = Correlator(route: route)

    @Test("Between two fixes: lat, lon, alt linear, the larger accuracy, the photo's time")
    func interpolates() throws {
        let fix = try #require(correlator.place(Self.at(2.5)).fix)
        #expect(abs(fix.latitude - 48.025) < 1e-9)
        #expect(abs(fix.longitude - 11.05) < 1e-9)
        #expect(abs(try #require(fix.altitude) - 505) < 1e-9)
        #expect(fix.accuracy == 8)
        #expect(fix.time == Self.at(2.5))
    }

    @Test("Exactly on a fix: that fix")
    func onAFix() {
        #expect(correlator.place(Self.at(10)) == .interpolated(Self.fix(10, lat: 48.1, lon: 11.2, alt: 520, accuracy: 8)))
        #expect(correlator.place(Self.at(0)) == .interpolated(Self.fix(0, lat: 48.0, lon: 11.0, alt: 500, accuracy: 3)))
        #expect(correlator.place(Self.at(200)) == .interpolated(Self.fix(200, lat: 48.3, lon: 11.4)))
    }

    @Test("Fixes exactly maxGap apart are interpolated; altitude unknown if one side has none")
    func maxGapBoundary() throws {
        let fix = try #require(correlator.place(Self.at(40)).fix)
        #expect(abs(fix.latitude - 48.15) < 1e-9)
        #expect(fix.altitude == nil)
        // Just over the limit is a gap.
        let tight = Correlator(route: Self.route, options: CorrelationOptions(maxGap: 59.999))
        #expect(tight.place(Self.at(40)) == .inGap(before: 30, after: 30))
    }

    @Test("Between fixes farther apart than maxGap: in a gap, with seconds to each")
    func inGap() {
        #expect(correlator.place(Self.at(100)) == .inGap(before: 30, after: 100))
        #expect(correlator.place(Self.at(100)).fix == nil)
    }

    @Test("After a track's end and before the next start, within maxExtrapolation: the nearer end fix")
    func extrapolationBetweenTracks() {
        #expect(correlator.place(Self.at(230)) == .nearestEnd(Self.fix(200, lat: 48.3, lon: 11.4), distance: 30))
        #expect(correlator.place(Self.at(980)) == .nearestEnd(Self.fix(1_000, lat: 52, lon: 10), distance: 20))
    }

    @Test("In a pause farther than maxExtrapolation from both tracks: not placed, seconds to each")
    func inPause() {
        #expect(correlator.place(Self.at(230.5)) == .inPause(afterTrackEnd: 30.5, beforeTrackStart: 769.5))
        #expect(correlator.place(Self.at(600)) == .inPause(afterTrackEnd: 400, beforeTrackStart: 400))
    }

    @Test("Before the route: the first fix within maxExtrapolation, else seconds until the start")
    func beforeRoute() {
        #expect(correlator.place(Self.at(-30)) == .nearestEnd(Self.fix(0, lat: 48.0, lon: 11.0, alt: 500, accuracy: 3), distance: 30))
        #expect(correlator.place(Self.at(-31)) == .beforeRoute(seconds: 31))
        #expect(correlator.place(Self.at(-7_200)) == .beforeRoute(seconds: 7_200))
    }

    @Test("After the route: the last fix within maxExtrapolation, else seconds since the end")
    func afterRoute() {
        #expect(correlator.place(Self.at(1_090)) == .nearestEnd(Self.fix(1_060, lat: 53, lon: 10), distance: 30))
        #expect(correlator.place(Self.at(1_091)) == .afterRoute(seconds: 31))
        #expect(correlator.place(Self.at(4_660)) == .afterRoute(seconds: 3_600))
    }

    @Test("Custom limits are honoured")
    func customLimits() {
        let strict = Correlator(route: Self.route, options: CorrelationOptions(maxGap: 5, maxExtrapolation: 0))
        #expect(strict.place(Self.at(2.5)) == .inGap(before: 2.5, after: 7.5))
        #expect(strict.place(Self.at(-1)) == .beforeRoute(seconds: 1))
        #expect(strict.place(Self.at(200)).fix != nil)
    }

    @Test("A route without fixes places nothing")
    func emptyRoute() {
        let empty = Correlator(route: Route(tracks: [Track(fixes: [])]))
        #expect(empty.place(Self.at(0)) == .emptyRoute)
    }

    @Test("Across the antimeridian: the short way, longitude kept in −180…180")
    func antimeridian() throws {
        let route = Route(tracks: [Track(fixes: [
            Self.fix(0, lat: -17, lon: 179.9), Self.fix(10, lat: -17.1, lon: -179.9),
        ])])
        let correlator = Correlator(route: route)
        let quarter = try #require(correlator.place(Self.at(2.5)).fix)
        #expect(abs(quarter.longitude - 179.95) < 1e-9)
        let threeQuarters = try #require(correlator.place(Self.at(7.5)).fix)
        #expect(abs(threeQuarters.longitude - (-179.95)) < 1e-9)
        let middle = try #require(correlator.place(Self.at(5)).fix)
        #expect(abs(abs(middle.longitude) - 180) < 1e-9)
        #expect(abs(middle.latitude - (-17.05)) < 1e-9)
    }

    @Test("DST change day: a Berlin camera with --timezone maps across 02:00 to the right UTC and position")
    func daylightSavingDay() throws {
        // A walk through the night of 2024-03-31; fixes every 10 s from 00:00 to 02:00 UTC.
        let fixes = stride(from: 0.0, through: 7_200, by: 10).map { dt in
            Self.fix(dt, lat: 52.5 + dt / 100_000, lon: 13.4, alt: nil, accuracy: 5)
        }
        let correlator = Correlator(route: Route(tracks: [Track(fixes: fixes)]))
        let clock = try ClockSync.timeZone("Europe/Berlin")

        // 01:30:05 on the camera is CET: 00:30:05 UTC.
        let beforeChange = try #require(CameraTime(exif: "2024:03:31 01:30:05", subSeconds: "00", offset: nil))
        let utcBefore = clock.utc(for: beforeChange)
        #expect(utcBefore == Self.at(1_805))
        let placedBefore = try #require(correlator.place(utcBefore).fix)
        #expect(abs(placedBefore.latitude - (52.5 + 1_805 / 100_000)) < 1e-9)

        // 03:30:05 on the camera is CEST: 01:30:05 UTC, an hour later in the walk, not two.
        let afterChange = try #require(CameraTime(exif: "2024:03:31 03:30:05", subSeconds: "00", offset: nil))
        let utcAfter = clock.utc(for: afterChange)
        #expect(utcAfter == Self.at(5_405))
        let placedAfter = try #require(correlator.place(utcAfter).fix)
        #expect(abs(placedAfter.latitude - (52.5 + 5_405 / 100_000)) < 1e-9)

        // Read as CET all day (the DST mistake), 03:30:05 would fall after the route's end.
        let wrong = Date(timeIntervalSince1970: afterChange.seconds - 3_600)
        #expect(correlator.place(wrong) == .afterRoute(seconds: 1_805))
    }

    @Test("Many fixes: binary search finds the right pair")
    func manyFixes() throws {
        let fixes = (0..<100_000).map { Self.fix(Double($0), lat: Double($0) / 10_000, lon: 0) }
        let correlator = Correlator(route: Route(tracks: [Track(fixes: fixes)]))
        for t in [0.5, 12_345.25, 99_998.75] {
            let fix = try #require(correlator.place(Self.at(t)).fix)
            #expect(abs(fix.latitude - t / 10_000) < 1e-9)
        }
    }
}
