import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

/// The browser's NMEA parser (Web/inspection/nmea.js, for an external receiver over Web Serial)
/// against WaymarkCore's ``NMEAStreamParser`` on the same bytes: every fixture log from a real
/// receiver, and seeded mutations of them (flipped bytes, re-computed, lower-case, dropped and
/// cut checksums, NULs, stray '$', joined and split lines). node runs
/// Tests/Web/unit/nmea-dump.mjs, which feeds each file whole, in byte chunks of random sizes and
/// in decoded text chunks; every run must give the Swift parser's events: the same fixes (times to
/// the millisecond, positions to 1e-9°, altitudes and accuracies to 1e-9 m) and no-fix events,
/// in the same order, and the same number of sentences skipped for a wrong checksum or as malformed.
/// Needs node (scripts/bootstrap).
@Suite("NMEA: the browser's parser reads as WaymarkCore's")
struct NMEABrowserParityTests {
    static let logs = ["GPSmap-76S.log", "bu353s4.log", "bundg_zeus_9.log", "garmin15x.log", "holux-gm-210.log",
                       "nmea-fuzzy-cases.log", "quectel-L70.log", "quectel-l76k-nmea.log", "telit-he910.log",
                       "ublox-neo-m9n-nmea.log"]

    @Test("Every fixture log gives the same fixes in Swift and in the browser, however the port chunks it")
    func fixtureLogs() async throws {
        let files = Self.logs.map { Fixtures.url("nmea/\($0)") }
        let fixCount = try await Self.compare(files, runs: ["whole", "bytes", "text"], seed: 20_261_125)
        // The logs hold 609 fixes (NMEAReaderTests counts them per log); a dump that read nothing cannot pass.
        #expect(fixCount == 609)
    }

    @Test("The browser's fixes of a fixture log are those of WaymarkCore's log reader (TrackFile.read), in time order")
    func logReader() async throws {
        let files = Self.logs.map { Fixtures.url("nmea/\($0)") }
        guard let dump = try await Self.nodeDump(files, seed: 1) else { return }
        let results = try #require(dump["files"] as? [[String: Any]])
        for (url, result) in zip(files, results) {
            let name = url.lastPathComponent
            let reader = (try? TrackFile.read(try Data(contentsOf: url), fileName: name))?.flatMap(\.fixes) ?? []
            let runs = try #require(result["runs"] as? [String: Any])
            let whole = try #require(runs["whole"] as? [String: Any])
            let events = try #require(whole["events"] as? [[String: Any]])
            let browser = events.filter { $0["type"] as? String == "fix" }
                .sorted { ($0["time"] as? Double ?? 0) < ($1["time"] as? Double ?? 0) }
            #expect(browser.count == reader.count, "\(name)")
            for (index, (fix, js)) in zip(reader, browser).enumerated() {
                let same = js["time"] as? Double == (fix.time.timeIntervalSince1970 * 1000).rounded()
                    && abs((js["latitude"] as? Double ?? .nan) - fix.latitude) <= 1e-9
                    && abs((js["longitude"] as? Double ?? .nan) - fix.longitude) <= 1e-9
                    && Self.same(fix.altitude, js["altitude"])
                #expect(same, "\(name), fix \(index): the log reader has \(fix), the browser \(js)")
                if !same { break }
            }
        }
    }

    @Test("Mutated logs (broken checksums, junk bytes, NULs, '$' storms, cut and joined lines) give the same events")
    func mutatedLogs() async throws {
        let folder = try TemporaryFolder()
        var generator = SplitMix(seed: 0x5EED_0015)
        var files: [URL] = []
        var sources: [(String, [UInt8])] = []
        for name in ["ublox-neo-m9n-nmea.log", "quectel-L70.log", "nmea-fuzzy-cases.log", "bu353s4.log", "garmin15x.log", "telit-he910.log"] {
            sources.append((name, [UInt8](try Fixtures.data("nmea/\(name)"))))
        }
        sources.append(("magellan.log", Self.magellan(from: [UInt8](try Fixtures.data("nmea/bu353s4.log")))))
        for (name, source) in sources {
            for copy in 0..<4 {
                let url = folder.url.appendingPathComponent("\(copy)-\(name)")
                // The last copy loses the RMC of its first third: those fixes wait for a date.
                let bytes = copy == 3 ? Self.withoutEarlyRMC(source) : source
                try Data(Self.mutate(bytes, rate: 0.05 * Double(copy + 1), using: &generator)).write(to: url)
                files.append(url)
            }
        }
        // Invalid UTF-8 cannot go through text chunks unchanged: the byte runs only.
        let fixCount = try await Self.compare(files, runs: ["whole", "bytes"], seed: 15)
        #expect(fixCount > 500)
    }

    // MARK: - Comparison

    /// Runs node on `files` and checks each named run against Swift; returns the fixes of the whole runs.
    static func compare(_ files: [URL], runs: [String], seed: Int) async throws -> Int {
        guard let dump = try await nodeDump(files, seed: seed) else { return 0 }
        let results = try #require(dump["files"] as? [[String: Any]])
        #expect(results.count == files.count)
        var fixCount = 0
        for (url, result) in zip(files, results) {
            let bytes = [UInt8](try Data(contentsOf: url))
            var parser = NMEAStreamParser()
            let expected = parser.consume(bytes) + parser.finish()
            var log = NMEALogParser()
            log.parse(bytes)
            let name = url.lastPathComponent
            let jsRuns = try #require(result["runs"] as? [String: Any], "\(name)")
            for run in runs {
                let js = try #require(jsRuns[run] as? [String: Any], "\(name): no \(run) run")
                let events = try #require(js["events"] as? [[String: Any]])
                let ignored = try #require(js["ignored"] as? [String: Int])
                let mismatch = firstMismatch(expected, events)
                #expect(mismatch == nil, "\(name), \(run) run: \(mismatch ?? "")")
                #expect(ignored["badChecksum", default: 0] == log.badChecksumCount, "\(name), \(run) run: sentences with a wrong checksum")
                #expect(ignored["malformed", default: 0] == log.malformedCount, "\(name), \(run) run: malformed position sentences")
                let lines = lineKinds(bytes)
                #expect(ignored["unused", default: 0] == lines.other, "\(name), \(run) run: sentences Waymark does not use")
                #expect(ignored["notSentence", default: 0] + ignored["comment", default: 0] == lines.none,
                        "\(name), \(run) run: lines that hold no sentence")
                if run == "whole" { fixCount += events.filter { $0["type"] as? String == "fix" }.count }
            }
        }
        return fixCount
    }

    /// Where the browser's events first differ from Swift's, in words; nil when they agree.
    static func firstMismatch(_ expected: [LocationEvent], _ actual: [[String: Any]]) -> String? {
        for (index, (swift, js)) in zip(expected, actual).enumerated() {
            switch swift {
            case .noFix:
                if js["type"] as? String != "noFix" { return "event \(index): Swift has no fix, the browser \(js)" }
            case .fix(let fix):
                guard js["type"] as? String == "fix", let time = js["time"] as? Double,
                      let latitude = js["latitude"] as? Double, let longitude = js["longitude"] as? Double else {
                    return "event \(index): Swift has the fix \(fix), the browser \(js)"
                }
                let millis = (fix.time.timeIntervalSince1970 * 1000).rounded()
                if time != millis || abs(latitude - fix.latitude) > 1e-9 || abs(longitude - fix.longitude) > 1e-9
                    || !same(fix.altitude, js["altitude"]) || !same(fix.accuracy, js["accuracy"]) {
                    return "event \(index): Swift has the fix \(fix) (time \(millis) ms), the browser \(js)"
                }
            }
        }
        if expected.count != actual.count {
            return "Swift has \(expected.count) events, the browser \(actual.count)"
        }
        return nil
    }

    static func same(_ swift: Double?, _ js: Any?) -> Bool {
        switch (swift, js as? Double) {
        case (nil, nil): js == nil || js is NSNull
        case (let a?, let b?): abs(a - b) <= 1e-9
        default: false
        }
    }

    /// The dump of Tests/Web/unit/nmea-dump.mjs, or nil (with the failure recorded) without node.
    static func nodeDump(_ files: [URL], seed: Int) async throws -> [String: Any]? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/node") }) else {
            Issue.record("node was not found on PATH: run scripts/bootstrap, which installs it for the web app's tests")
            return nil
        }
        let script = packageRoot.appendingPathComponent("Tests/Web/unit/nmea-dump.mjs")
        let printed = try await ExternalTool.run(["node", script.path, String(seed)] + files.map(\.path))
        return try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any])
    }

    /// How WaymarkCore's sentence scanner classes the lines of `bytes` (split at CR and LF as the
    /// stream parser splits them): well-formed but unused sentences, and non-blank lines with no sentence.
    static func lineKinds(_ bytes: [UInt8]) -> (other: Int, none: Int) {
        var scanner = NMEASentenceScanner()
        var other = 0, none = 0
        for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            let line = Array(line)
            switch scanner.scan(line, 0..<line.count) {
            case .other?: other += 1
            case nil where line.contains(where: { $0 != 0x20 && $0 != 0x09 }): none += 1
            default: break
            }
        }
        return (other, none)
    }

    // MARK: - Mutations

    /// A Magellan track log made from a log's GGA sentences: `$PMGNTRK` with the altitude in
    /// metres or (every other line) feet, validity from GGA's quality, the date field on every third
    /// line; one RMC in two kept to date the others.
    static func magellan(from bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let body = line.dropFirst().split(separator: "*").first.map(String.init) ?? ""
            let fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.first?.hasSuffix("RMC") == true, index % 2 == 0 {
                output += Array((String(line) + "\r\n").utf8)
            } else if fields.first?.hasSuffix("GGA") == true, fields.count > 9 {
                index += 1
                let date = index % 3 == 0 ? ",311214" : ""
                let unit = index % 2 == 0 ? "F" : "M"
                let valid = fields[6] == "0" ? "V" : "A"
                let track = "PMGNTRK,\(fields[2]),\(fields[3]),\(fields[4]),\(fields[5]),\(fields[9]),\(unit),\(fields[1]),\(valid),walk\(date)"
                output += Array(("$" + track + "*" + checksum(Array(track.utf8)[...], lowercase: false) + "\r\n").utf8)
            }
        }
        return output
    }

    /// `bytes` without the RMC sentences of its first third.
    static func withoutEarlyRMC(_ bytes: [UInt8]) -> [UInt8] {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        return Array(lines.enumerated().filter { index, line in
            index >= lines.count / 3 || !String(decoding: line, as: UTF8.self).contains("RMC,")
        }.map(\.element).joined(separator: [0x0A]))
    }

    /// `bytes` line by line with seeded damage: a line in four is changed. Its body gets junk
    /// bytes (',', '*', '$', NUL, digits, fix letters, bytes ≥ 0x80), after which the checksum is
    /// often re-computed so that the damage reaches the fields; or the checksum is written in lower
    /// case, dropped or cut to one digit; or the address grows or shrinks; or the line is joined to
    /// the next, ends in NULs and blanks, or is cut in two by a CR.
    static func mutate(_ bytes: [UInt8], rate: Double, using generator: inout SplitMix) -> [UInt8] {
        let junk: [UInt8] = Array(",,,**$$\0\0 .-0123456789AVNSEWFMaf".utf8) + [0x80, 0xC3, 0xFF, 0x0D]
        var output: [UInt8] = []
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var line = Array(line)
            if line.last == 0x0D { line.removeLast() }
            var end = "\r\n"
            if Double.random(in: 0..<1, using: &generator) < rate * 5 {
                let star = line.lastIndex(of: 0x2A)
                var body = Array(line[..<(star ?? line.endIndex)])
                switch Int.random(in: 0..<10, using: &generator) {
                case 0...3:
                    for _ in 0..<Int.random(in: 1...3, using: &generator) where body.count > 1 {
                        let at = Int.random(in: 1..<body.count, using: &generator)
                        let byte = junk.randomElement(using: &generator) ?? 0
                        if Bool.random(using: &generator) { body[at] = byte } else { body.insert(byte, at: at) }
                    }
                    if star != nil && Bool.random(using: &generator) {
                        line = body + Array("*\(checksum(body.dropFirst(), lowercase: false))".utf8)
                    } else {
                        line = body + (star.map { Array(line[$0...]) } ?? [])
                    }
                case 4: line = body + Array("*\(checksum(body.dropFirst(), lowercase: true))".utf8)
                case 5: line = body
                case 6: line = body + Array("*\(checksum(body.dropFirst(), lowercase: false).prefix(1))".utf8)
                case 7: end = Bool.random(using: &generator) ? "" : "\0\0 \t\0\r\n"
                case 8:
                    // A longer or shorter address: "GPXRMC", "GPXYRMC", "GPRM".
                    let at = min(body.count, Int.random(in: 1...3, using: &generator))
                    if Bool.random(using: &generator) { body.insert(contentsOf: Array("XY".utf8).prefix(Int.random(in: 1...2, using: &generator)), at: at) } else if body.count > 3 { body.remove(at: 3) }
                    line = body + Array("*\(checksum(body.dropFirst(), lowercase: false))".utf8)
                default:
                    let at = Int.random(in: 0...line.count, using: &generator)
                    line.insert(contentsOf: Array("\r".utf8), at: at)
                }
            }
            output += line + Array(end.utf8)
        }
        return output + [0x0A]
    }

    static func checksum(_ body: ArraySlice<UInt8>, lowercase: Bool) -> String {
        let value = body.reduce(UInt8(0), ^)
        let digits = lowercase ? "0123456789abcdef" : "0123456789ABCDEF"
        let characters = Array(digits)
        return String([characters[Int(value >> 4)], characters[Int(value & 0xF)]])
    }
}

extension NMEABrowserParityTests {
}
