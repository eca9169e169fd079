import Testing
import WaymarkCore

@Suite("Recorder formatting")
struct RecorderFormatTests {
    @Test("SRR-01: metric distances in metres under 1 km, else km, one decimal from 10 km", arguments: [
        (0.0, "0 m"), (523, "523 m"), (999.4, "999 m"), (999.6, "1.00 km"), (1000, "1.00 km"),
        (1234, "1.23 km"), (9_994, "9.99 km"), (9_996, "10.0 km"), (12_345, "12.3 km"), (250_000, "250.0 km"),
        (-5, "0 m"), (.nan, "0 m"),
    ])
    func metric(metres: Double, text: String) {
        #expect(RecorderFormat.distance(metres, units: .metric) == text)
    }

    static let imperialCases: [(Double, String)] = [
        (523, "572 yd"), (1759 * yard, "1759 yd"), (1759.6 * yard, "1.00 mi"), (1760 * yard, "1.00 mi"),
        (1.234 * mile, "1.23 mi"), (12.34 * mile, "12.3 mi"),
    ]
    static let yard = 0.9144
    static let mile = 1609.344

    @Test("SRR-10: imperial distances in yards under 1 mile, else miles", arguments: imperialCases)
    func imperial(metres: Double, text: String) {
        #expect(RecorderFormat.distance(metres, units: .imperial) == text)
    }

    @Test("SRR-04: durations in s under a minute, min and s under an hour, else h and min", arguments: [
        (0.0, "0 s"), (42, "42 s"), (59.9, "59 s"), (60, "1 min 00 s"), (725, "12 min 05 s"),
        (3_599.99, "59 min 59 s"), (3_600, "1 h 00 min"), (7_620, "2 h 07 min"), (90_000, "25 h 00 min"), (-3, "0 s"),
    ])
    func duration(seconds: Double, text: String) {
        #expect(RecorderFormat.duration(seconds) == text)
    }
}
