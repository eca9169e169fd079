import Foundation
import Testing
import WaymarkTestSupport

/// `--sync`, `--offset` and `--timezone` set the camera clock as given: the photos are not searched
/// for QR codes unless `--check-qr` asks, or a route must be found by a QR nonce.
@Suite("waymark tag: a clock set by hand skips the QR search", .serialized)
struct TagClockSettingTests {
    typealias Day = TagEndToEndTests

    @Test("with --offset and no QR code, no photo is searched, and every photo is tagged where it was taken")
    func offsetSkipsSearch() async throws {
        let trip = try await TagTrip(photoCount: 6, qrPhoto: false)
        let output = try await WaymarkBinary.run(["tag", trip.photos.path, "--track", try trip.gpx().path, "--offset=\(TagTrip.rightOffset)", "--json"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stderr.contains("QR search: skipped (0 of 6 photos searched): --offset sets the clock"), "\(output.stderr)")
        #expect(output.stderr.contains("Clock: camera clock is 2 h 03 min 17.3 s ahead (--offset)"), "\(output.stderr)")
        await try trip.expectTaggedWhereTaken()
    }

    @Test("a QR photo that disagrees does not change a clock set by --offset, and --check-qr reports it by how much")
    func offsetWinsOverQRAndCheckReports() async throws {
        let trip = try await TagTrip(photoCount: 3, qrPhoto: true)
        let gpx = try trip.gpx().path
        // The photographer forgot the camera's own 3 min 17.3 s: the QR code (right) disagrees with --offset.
        let wrongOffset = "--offset=-2:00:00"

        let plain = try await WaymarkBinary.run(["tag", trip.photos.path, "--track", gpx, wrongOffset, "--qr-period", "1", "--json", "--dry-run"])
        #expect(plain.status == 0, "stderr: \(plain.stderr)")
        #expect(plain.stderr.contains("QR search: skipped (0 of 4 photos searched)"), "\(plain.stderr)")
        let reports = try WaymarkBinary.reports(plain)
        for (name, offset) in trip.shots {
            // --offset as given: every photo 197.3 s later than it was truly taken.
            let utc = try #require(TagTrip.utcOffset(reports[name]), "\(name): \(String(describing: reports[name]))")
            #expect(abs(utc - (offset + 197.3)) < 0.02, "\(name) placed at \(utc) s, taken at \(offset) s")
            #expect(reports[name]?["qrClockDifference"] is NSNull, "\(name): only --check-qr compares")
        }

        let checked = try await WaymarkBinary.run(["tag", trip.photos.path, "--track", gpx, wrongOffset, "--qr-period", "1", "--check-qr", "--json", "--dry-run"])
        #expect(checked.status == 0, "stderr: \(checked.stderr)")
        #expect(checked.stderr.contains("QR check: 1 of 1 QR photo disagrees with --offset (4 of 4 photos searched)"), "\(checked.stderr)")
        #expect(checked.stderr.contains("IMG_0001.JPG: --offset puts it 3 min 17.5 s later than its QR code shows"), "\(checked.stderr)")
        let checkedReports = try WaymarkBinary.reports(checked)
        let difference = try #require(checkedReports["IMG_0001.JPG"]?["qrClockDifference"] as? Double)
        #expect(abs(difference - 197.3) <= 0.5, "the QR code of a 1-second period pins the difference within 0.5 s: \(difference)")
        await #expect(abs((TagTrip.utcOffset(checkedReports["IMG_0002.JPG"]) ?? 0) - (45.2 + 197.3)) < 0.02, "--check-qr does not change the clock")
        #expect(checkedReports["IMG_0002.JPG"]?["qrClockDifference"] is NSNull, "a photo without a code has no difference")

        // The right offset agrees with the QR code, and --qr-search all asks for the same check.
        let agreeing = try await WaymarkBinary.run(["tag", trip.photos.path, "--track", gpx, "--offset=\(TagTrip.rightOffset)", "--qr-period", "1",
                                              "--qr-search", "all", "--dry-run"])
        #expect(agreeing.status == 0, "stderr: \(agreeing.stderr)")
        #expect(agreeing.stdout.contains("QR check: the QR photo agrees with --offset (4 of 4 photos searched)"), "\(agreeing.stdout)")
    }

    @Test("an encrypted route without --nonce: the search stops at the first QR code, and --offset still sets the clock")
    func nonceSearchStopsAtFirstCode() async throws {
        let trip = try await TagTrip(photoCount: 8, qrPhoto: true)
        let route = try trip.envelope(passphrase: "correct horse")
        let output = try await WaymarkBinary.run(["tag", trip.photos.path, "--route", route.path, "--offset=\(TagTrip.rightOffset)", "--json"],
                                           environment: ["WAYMARK_PASSPHRASE": "correct horse"])
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stderr.contains("QR search: stopped at the first Waymark QR code, in \(trip.photos.path)/IMG_0001.JPG"), "\(output.stderr)")
        #expect(output.stderr.contains("(--offset)"), "\(output.stderr)")
        #expect(output.stderr.contains("nonce \(trip.nonce)"), "\(output.stderr)")
        await try trip.expectTaggedWhereTaken()
    }
}

/// Odd values of the clock and correlation options are usage errors (exit 64) that say what was
/// expected, never a crash.
@Suite("waymark tag: odd arguments are usage errors, never a crash")
struct TagArgumentTests {
    static let cases: [(arguments: [String], message: String)] = [
        (["--sync", "IMG.JPG="], "no time after"),
        (["--sync", "=2024-06-01T10:00:00Z"], "no photo before"),
        (["--sync", "IMG.JPG"], "PHOTO=TIME"),
        (["--sync", "IMG.JPG=garbage"], "YYYY-MM-DDTHH:MM:SS"),
        (["--sync", "IMG.JPG=2024-06-01T10:00:00"], "no time zone"),
        (["--sync", "IMG.JPG=2024-02-30T10:00:00Z"], "no such date"),
        (["--offset", "25:00:00x"], "±[D.]HH:MM:SS"),
        (["--offset="], "±[D.]HH:MM:SS"),
        (["--offset", "999999999999999999.00:00:00"], "±[D.]HH:MM:SS"),
        (["--offset", "+:00:00"], "±[D.]HH:MM:SS"),
        (["--timezone", "Mars/Olympus_Mons"], "Unknown time zone"),
        (["--timezone", ""], "Unknown time zone"),
        (["--qr-period", "0"], "--qr-period"),
        (["--qr-period", "-5"], "--qr-period"),
        (["--qr-period", "nan"], "--qr-period"),
        (["--qr-period", "45"], "--qr-period"),
        (["--max-gap", "-1"], "--max-gap"),
        (["--max-gap", "nan"], "--max-gap"),
        (["--max-extrapolation", "-1"], "--max-extrapolation"),
        (["--max-extrapolation", "inf"], "--max-extrapolation"),
        (["--check-qr", "--qr-search", "off", "--offset", "0:00:00"], "--check-qr"),
    ]

    @Test("each odd value exits 64 with a message naming what was expected", arguments: cases.indices)
    func oddArgument(_ index: Int) async throws {
        let (arguments, message) = Self.cases[index]
        let folder = try TemporaryFolder()
        let output = try await WaymarkBinary.run(["tag", folder.url.path, "--track", "walk.gpx"] + arguments)
        #expect(output.status == 64, "\(arguments): exit \(output.status), stderr: \(output.stderr)")
        #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
    }
}
