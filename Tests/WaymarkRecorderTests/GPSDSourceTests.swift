import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore
@testable import WaymarkRecorder

@Suite("gpsd source, against a real gpsd fed by gpsfake")
struct GPSDSourceTests {
    static let log = Fixtures.url("nmea/ublox-neo-m9n-nmea.log")

    /// Checks that every received fix is one of the log's own fixes, in strictly increasing time.
    static func expectFromLog(_ received: [Fix], _ expected: [Fix], sourceLocation: SourceLocation = #_sourceLocation) {
        for fix in received {
            #expect(expected.contains { $0.matches(fix) }, "\(fix) is not a fix of the log", sourceLocation: sourceLocation)
        }
        #expect(zip(received, received.dropFirst()).allSatisfy { $0.time < $1.time }, "fixes out of order or repeated", sourceLocation: sourceLocation)
    }

    @Test("Fixes from gpsd match the log's own fixes, in order, one per epoch")
    func fixesMatchTheLog() async throws {
        let expected = try fixes(of: Self.log)
        let gpsd = try GPSFake(log: Self.log)
        defer { gpsd.stop() }
        let source = GPSDSource(port: gpsd.port)
        #expect(source.isLive)
        #expect(source.description == "gpsd at 127.0.0.1:\(gpsd.port)")
        // gpsfake plays the log once; when it ends gpsd goes away and the source reports no fix.
        let events = try await withTimeout(60, waitingFor: "gpsd to play the log") {
            try await collect(source.events()) { events in
                events.last == .noFix && !events.fixes.isEmpty || events.fixes.last?.time == expected.last?.time
            }
        }
        let received = events.fixes
        #expect(received.count >= expected.count / 2, "only \(received.count) of \(expected.count) fixes arrived: \(gpsd.output)")
        Self.expectFromLog(received, expected)
        // Altitude above mean sea level and accuracy reach the fix.
        #expect(received.contains { $0.altitude != nil && $0.accuracy != nil })
        if let last = received.last, let original = expected.first(where: { $0.matches(last) }), let altitude = original.altitude {
            #expect(abs((last.altitude ?? .nan) - altitude) < 0.01)
        }
        // Speed is gpsd's own reading of each RMC's knots, in metres per second.
        let knots = try Self.rmcKnots(Self.log)
        #expect(received.contains { $0.speed != nil })
        for fix in received {
            guard let speed = fix.speed else { continue }
            let second = Int(fix.time.timeIntervalSince1970.rounded()) % 86_400
            let logged = try #require(knots[second], "no RMC at \(fix.time)")
            #expect(abs(speed - logged * 1852 / 3600) < 0.0005, "\(speed) m/s at \(fix.time), the log says \(logged) kn")
        }
    }

    /// The speed over ground (knots) of each RMC of an NMEA log, by second of the day.
    static func rmcKnots(_ url: URL) throws -> [Int: Double] {
        var knots: [Int: Double] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline) where line.dropFirst(3).hasPrefix("RMC,") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count > 7, fields[2] == "A", let time = Double(fields[1]), let speed = Double(fields[7]) else { continue }
            let whole = Int(time)
            knots[whole / 10_000 * 3600 + whole / 100 % 100 * 60 + whole % 100] = speed
        }
        return knots
    }

    @Test("Cancelling the iteration and calling events() again resumes with later fixes, repeating none")
    func pauseAndResume() async throws {
        let expected = try fixes(of: Self.log)
        let gpsd = try GPSFake(log: Self.log)
        defer { gpsd.stop() }
        let source = GPSDSource(port: gpsd.port)
        let before = try await withTimeout(30, waitingFor: "fixes before the pause") {
            try await collect(source.events()) { $0.fixes.count == 5 }.fixes
        }
        // Paused: nobody listens while the receiver goes on.
        try await Task.sleep(for: .milliseconds(800))
        let after = try await withTimeout(30, waitingFor: "fixes after the pause") {
            try await collect(source.events()) { $0.fixes.count == 5 }.fixes
        }
        #expect(before.count == 5 && after.count == 5, "\(gpsd.output)")
        Self.expectFromLog(before + after, expected)
        let lastBefore = try #require(before.last)
        #expect(after.allSatisfy { $0.time > lastBefore.time })
        // The pause lasted 0.8 s, several epochs of this quickly played log: they are gone, not queued.
        let firstAfter = try #require(after.first)
        #expect(firstAfter.time.timeIntervalSince(lastBefore.time) >= 2, "resumed at \(firstAfter.time), paused after \(lastBefore.time)")
    }

    @Test("When gpsd goes away the source reports no fix and reconnects when it is back")
    func reconnects() async throws {
        let expected = try fixes(of: Self.log)
        let first = try GPSFake(log: Self.log)
        let port = first.port
        let stream = GPSDSource(port: port).events()
        var iterator = stream.makeAsyncIterator()
        var sawFix = false
        while !sawFix, let event = try await iterator.next() {
            if case .fix = event { sawFix = true }
        }
        first.stop()
        // Fixes already on their way may still arrive; then the loss shows.
        var lost: LocationEvent?
        for _ in 0..<100 {
            lost = try await iterator.next()
            if lost != nil, case .fix = lost { continue }
            break
        }
        #expect(lost == .noFix)
        let second = try GPSFake(log: Self.log, port: port)  // retries while the old gpsd still holds the port
        defer { second.stop() }
        var again: Fix?
        let deadline = Date().addingTimeInterval(30)
        while again == nil, Date() < deadline, let event = try await iterator.next() {
            if case .fix(let fix) = event { again = fix }
        }
        let fix = try #require(again, "no fix after gpsd came back: \(second.output)")
        #expect(expected.contains { $0.matches(fix) })
    }

    @Test("Without gpsd, events() throws saying what to check")
    func unreachable() async throws {
        let port = try GPSFake.freePort()
        let source = GPSDSource(host: "127.0.0.1", port: port)
        let error = try await #require(throws: GPSDError.self) {
            _ = try await withTimeout(10, waitingFor: "the connection to fail") { try await collect(source.events()) }
        }
        #expect(error == .unreachable(endpoint: "127.0.0.1:\(port)", reason: "connection refused"))
        #expect(error.description.hasPrefix("Cannot reach gpsd at 127.0.0.1:\(port) (connection refused). Is gpsd running? Start it with `gpsd -N /dev/ttyUSB0`"))
    }

    @Test("--gpsd values: HOST:PORT, [IPv6]:PORT, bare host, bare IPv6", arguments: [
        ("localhost:2948", "localhost", 2948),
        ("192.168.1.20", "192.168.1.20", 2947),
        ("[::1]:3000", "::1", 3000),
        ("[fe80::1]", "fe80::1", 2947),
        ("::1", "::1", 2947),
        ("gps.local:2947", "gps.local", 2947),
        (":4000", "127.0.0.1", 4000),
    ])
    func endpoints(text: String, host: String, port: Int) throws {
        let parsed = try GPSDSource.parseEndpoint(text)
        #expect(parsed.host == host && parsed.port == port)
        let source = try GPSDSource(endpoint: text)
        #expect(source.host == host && source.port == port)
    }

    @Test("Malformed --gpsd values are refused with the form to use", arguments: ["", "host:", "host:0", "host:70000", "host:http", "[::1", "[::1]x", "[]:2947"])
    func badEndpoints(text: String) {
        #expect {
            _ = try GPSDSource.parseEndpoint(text)
        } throws: { error in
            guard let error = error as? GPSDError, case .invalidEndpoint = error else { return false }
            return error.description.contains("Write HOST:PORT")
        }
    }

    @Test("An IPv6 endpoint is described with brackets")
    func describesIPv6() {
        #expect(GPSDSource(host: "::1", port: 2947).description == "gpsd at [::1]:2947")
    }

    @Test("Several TPVs of one epoch make one fix; no-fix reports make one noFix")
    func epochFilter() throws {
        func tpv(_ json: String) throws -> GPSDReport {
            try JSONDecoder().decode(GPSDReport.self, from: Data(json.utf8))
        }
        var filter = GPSDEpochFilter()
        var events: [LocationEvent] = []
        events += filter.accept(try tpv(#"{"class":"TPV","mode":1}"#))
        events += filter.accept(try tpv(#"{"class":"TPV","mode":1}"#))
        events += filter.accept(try tpv(#"{"class":"SKY","satellites":[]}"#))
        events += filter.accept(try tpv(#"{"class":"TPV","mode":2,"time":"2020-07-11T22:37:54.000Z","lat":38.1,"lon":-122.6}"#))
        #expect(events == [.noFix])
        events += filter.accept(try tpv(#"{"class":"TPV","mode":3,"time":"2020-07-11T22:37:54.000Z","lat":38.1,"lon":-122.6,"altHAE":52.8,"altMSL":82.3,"alt":82.3,"eph":2.7}"#))
        events += filter.accept(try tpv(#"{"class":"TPV","mode":3,"time":"2020-07-11T22:37:54.000Z","lat":38.1,"lon":-122.6,"altMSL":82.3,"eph":2.7,"epv":5.2}"#))
        // A 2D fix is complete only when the next epoch starts.
        events += filter.accept(try tpv(#"{"class":"TPV","mode":2,"time":"2020-07-11T22:37:55.500Z","lat":38.2,"lon":-122.7,"epx":3.0,"epy":4.0}"#))
        events += filter.accept(try tpv(#"{"class":"TPV","mode":3,"time":"2020-07-11T22:37:56Z","lat":38.3,"lon":-122.8,"alt":80.0,"epx":1.0,"epy":2.0}"#))
        let t0 = Date(timeIntervalSince1970: 1_594_507_074)
        #expect(events == [
            .noFix,
            .fix(Fix(latitude: 38.1, longitude: -122.6, altitude: 82.3, accuracy: 2.7, time: t0)),
            .fix(Fix(latitude: 38.2, longitude: -122.7, altitude: nil, accuracy: 4.0, time: t0.addingTimeInterval(1.5))),
            .fix(Fix(latitude: 38.3, longitude: -122.8, altitude: 80.0, accuracy: 2.0, time: t0.addingTimeInterval(2))),
        ])
        #expect(filter.flush().isEmpty)
    }

    @Test("gpsd's speed and track reach the fix; a negative speed or a track outside 0–360 is no reading")
    func speedAndTrack() throws {
        func fix(_ fields: String) throws -> Fix? {
            let json = #"{"class":"TPV","mode":2,"time":"2020-07-11T22:37:54.000Z","lat":38.1,"lon":-122.6"# + fields + "}"
            return try JSONDecoder().decode(GPSDReport.self, from: Data(json.utf8)).fix
        }
        let moving = try #require(try fix(#","speed":1.389,"track":87.25"#))
        #expect(moving.speed == 1.389 && moving.course == 87.25)
        let north = try #require(try fix(#","speed":0,"track":360"#))
        #expect(north.speed == 0 && north.course == 0)
        let broken = try #require(try fix(#","speed":-2.5,"track":361"#))
        #expect(broken.speed == nil && broken.course == nil, "the position stays")
        #expect(try fix(#","track":-0.5"#)?.course == nil)
        let none = try #require(try fix(""))
        #expect(none.speed == nil && none.course == nil)
    }
}
