import Testing
@testable import WaymarkCore

@Suite("Geodesy")
struct GeodesyTests {
    /// Degrees from degrees, minutes, seconds; the sign applies to the whole angle.
    static func dms(_ degrees: Double, _ minutes: Double, _ seconds: Double, negative: Bool = false) -> Double {
        (negative ? -1 : 1) * (degrees + minutes / 60 + seconds / 3600)
    }

    static let bessel = Geodesy.Ellipsoid(semiMajorAxis: 6_377_397.155, flattening: 1 / 299.1528128)
    static let international = Geodesy.Ellipsoid(semiMajorAxis: 6_378_388, flattening: 1 / 297)

    /// T. Vincenty, "Direct and inverse solutions of geodesics on the ellipsoid with application
    /// of nested equations", Survey Review 23(176), 1975, Table II, lines (a)–(e): φ1, φ2, L and s.
    static let vincentyLines: [(String, Geodesy.Ellipsoid, Double, Double, Double, Double)] = [
        ("a", bessel, dms(55, 45, 0), dms(33, 26, 0, negative: true), dms(108, 13, 0), 14_110_526.170),
        ("b", international, dms(37, 19, 54.95367), dms(26, 7, 42.83946), dms(41, 28, 35.50729), 4_085_966.703),
        ("c", international, dms(35, 16, 11.24862), dms(67, 22, 14.77638), dms(137, 47, 28.31435), 8_084_823.839),
        ("d", international, dms(1, 0, 0), dms(0, 59, 53.83076, negative: true), dms(179, 17, 48.02997), 19_960_000.000),
        ("e", international, dms(1, 0, 0), dms(1, 1, 15.18952), dms(179, 46, 17.84244), 19_780_006.558),
    ]

    @Test("Vincenty's 1975 test lines (a)–(e) to the millimetre", arguments: 0..<5)
    func vincentyTable(_ index: Int) {
        let (name, ellipsoid, lat1, lat2, lon2, expected) = Self.vincentyLines[index]
        let distance = Geodesy.distance((lat1, 0), (lat2, lon2), on: ellipsoid)
        #expect(abs(distance - expected) < 0.001, "line (\(name)): \(distance) m, expected \(expected) m")
    }

    @Test("GeographicLib's JFK–LHR example on WGS-84: 5551.759400 km")
    func jfkToHeathrow() {
        // GeographicLib examples/example-Geodesic-small.cpp: Inverse(40.6, -73.8, 51.6, -0.5) → 5551.759400 km.
        let distance = Geodesy.distance((40.6, -73.8), (51.6, -0.5))
        #expect(abs(distance - 5_551_759.400) < 0.001)
        #expect(abs(Geodesy.distance((51.6, -0.5), (40.6, -73.8)) - distance) < 1e-6)
    }

    @Test("Degenerate lines: same point, along the equator, across the antimeridian")
    func degenerateLines() {
        #expect(Geodesy.distance((48.1, 11.5), (48.1, 11.5)) == 0)
        // Along the equator a geodesic is the equator itself: a·Δλ.
        let oneDegree = 6_378_137 * Double.pi / 180
        #expect(abs(Geodesy.distance((0, 0), (0, 1)) - oneDegree) < 1e-6)
        // Across the antimeridian the short way, not around the globe.
        #expect(abs(Geodesy.distance((0, 179.5), (0, -179.5)) - oneDegree) < 1e-6)
    }

    @Test("Azimuths of the inverse problem: Flinders Peak–Buninyong as Geoscience Australia publishes it")
    func flindersPeakAzimuths() throws {
        // s = 54,972.271 m, α1 = 306°52′05.37″, reverse azimuth α2 = 127°10′25.07″ (arrival = α2 + 180°).
        let line = Geodesy.inverse((-Self.dms(37, 57, 3.72030), Self.dms(144, 25, 29.52440)), (-Self.dms(37, 39, 10.15610), Self.dms(143, 55, 35.38390)))
        #expect(abs(line.distance - 54_972.271) < 0.001)
        #expect(abs(try #require(line.startAzimuth) - Self.dms(306, 52, 5.37)) < 0.01 / 3600)
        #expect(abs(try #require(line.endAzimuth) - (Self.dms(127, 10, 25.07) + 180)) < 0.01 / 3600)
        #expect(Geodesy.inverse((48.1, 11.5), (48.1, 11.5)).startAzimuth == nil)
        #expect(abs(try #require(Geodesy.inverse((0, 0), (0, -1)).startAzimuth) - 270) < 1e-9)
        #expect(abs(try #require(Geodesy.inverse((0, 0), (-1, 0)).endAzimuth) - 180) < 1e-9)
    }
}
