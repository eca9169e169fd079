import Foundation
import Testing
import WaymarkCore

/// The API's instants: written as JavaScript's `toISOString()` writes them, read with any zone.
/// Expected instants are Python's `datetime.fromisoformat(text).timestamp()`.
@Suite("Internet time")
struct InternetTimeTests {
    @Test("Written in UTC with Z and exactly three fraction digits, before 1970 too")
    func written() {
        #expect(InternetTime.text(Date(timeIntervalSince1970: 1_780_300_800)) == "2026-06-01T08:00:00.000Z")
        #expect(InternetTime.text(Date(timeIntervalSince1970: 1_780_300_800.25)) == "2026-06-01T08:00:00.250Z")
        #expect(InternetTime.text(Date(timeIntervalSince1970: 1_780_300_800.9996)) == "2026-06-01T08:00:01.000Z", "rounded, carried")
        #expect(InternetTime.text(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(InternetTime.text(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00.000Z")
    }

    @Test("Read with Z or any offset under a day, with or without a fraction", arguments: [
        ("2026-06-01T10:00:00+02:00", 1_780_300_800.0),
        ("2026-06-01T08:00:00Z", 1_780_300_800.0),
        ("2026-06-01t08:00:00z", 1_780_300_800.0),
        ("2026-06-01T23:30:00.8-16:55", 1_780_417_500.8),
        ("2026-06-01T00:05:00+23:59", 1_780_185_960.0),
        ("2026-06-01T08:00:00+0545", 1_780_280_100.0),
        ("2026-06-01T08:00:00.123456789Z", 1_780_300_800.123456789),
        ("1969-12-31T23:59:59.5Z", -0.5),
        ("0001-01-01T00:00:00Z", -62_135_596_800.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799.0),
    ])
    func read(text: String, seconds: Double) throws {
        let date = try #require(InternetTime.date(text), "\(text)")
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6, "\(text): \(date.timeIntervalSince1970)")
    }

    @Test("Refused: no zone, a date or time that does not exist, an offset of a day, other forms", arguments: [
        "2026-06-01T08:00:00", "2026-06-01", "2026-02-30T10:00:00Z", "2026-06-01T24:00:00Z", "2026-06-30T23:59:60Z",
        "2026-13-01T00:00:00Z", "2026-06-01T08:00:00+24:00", "2026-06-01T08:00:00+02:60", "2026-06-01 08:00:00Z",
        "1780300800", "", "T", "2026-06-01T08:00:00.Z", "2026-06-01T08:00:00.1234567890Z", "+12026-06-01T08:00:00Z",
        "2026-06-01T08:00:00+02", "٢٠٢٦-06-01T08:00:00Z", "2026-06-01T08:00:00Z\n",
    ])
    func refused(text: String) {
        #expect(InternetTime.date(text) == nil, "\(text.debugDescription)")
    }

    @Test("The zone is read as written: Z is 0, an offset its seconds east of UTC")
    func zone() {
        #expect(InternetTime.read("2026-06-01T08:00:00Z")?.zoneOffset == 0)
        #expect(InternetTime.read("2026-06-01T08:00:00+05:45")?.zoneOffset == 20_700)
        #expect(InternetTime.read("2026-06-01T08:00:00+0545")?.zoneOffset == 20_700)
        #expect(InternetTime.read("2026-06-01T23:30:00.8-16:55")?.zoneOffset == -60_900)
        #expect(InternetTime.read("2026-06-01T08:00:00") == nil)
    }

    @Test("What is written reads back as the same millisecond")
    func roundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
            let text = InternetTime.text(date)
            let read = try #require(InternetTime.date(text), "\(text)")
            #expect(Int64((read.timeIntervalSince1970 * 1_000).rounded()) == milliseconds, "\(text)")
        }
    }
}
