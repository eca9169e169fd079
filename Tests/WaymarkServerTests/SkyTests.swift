import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkServer

/// `GET /api/v1/sky` and `waymark serve --tle` (issue #15, the `/sky` page): the navigation
/// satellites above a place at a time, from the fixture TLE files (epochs 2022-02-02..05).
@Suite("The sky map's satellites: GET /api/v1/sky, --tle orbit data, /api/v1/config's sky flag")
struct SkyTests {
    static let files = ["gps-ops.txt", "galileo.txt", "glo-ops.txt", "beidou.txt"]
    static let urls = files.map { Fixtures.url("tle/\($0)") }
    /// Ljubljana's castle hill, on a moment of the fixtures' week.
    static let place = "latitude=46.0489&longitude=14.5087&altitude=375"
    static let time = "2022-02-03T12:00:00Z"
    static let instant = Date(timeIntervalSince1970: 1_643_889_600)

    static func orbits() throws -> OrbitData { try OrbitData.load(urls) }

    /// What WaymarkCore's sky map says for the fixtures, each file read on its own and the
    /// satellites put in one catalogue here (not through `OrbitData`).
    static func expected(at date: Date, constellation: GNSSConstellation? = nil) throws -> (visible: [SkySatellite], all: [TLESatellite]) {
        var catalogues = try urls.map { try TLECatalogue(contentsOf: $0) }
        let all = catalogues.flatMap(\.satellites)
        catalogues[0].satellites = all
        let observer = SkyObserver(latitude: 46.0489, longitude: 14.5087, height: 375)
        let (visible, failures) = SkyMap.visible(catalogues[0], from: observer, at: date, constellation: constellation)
        #expect(failures.isEmpty)
        return (visible, all.filter { constellation == nil || $0.constellation == constellation })
    }

    static func sky(_ server: TestServer, _ query: String) async throws -> TestingHTTPResponse {
        try await server.send(.GET, "/api/v1/sky?" + query)
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    @Test("At a fixture time and place: exactly WaymarkCore's visible satellites, highest first, with names, numbers, constellations, angles and epoch ages", arguments: TestDatabase.all)
    func fixtureSky(database: TestDatabase) async throws {
        let orbits = try Self.orbits()
        try await withServer(database, configuration: { $0.orbitData = orbits }) { server in
            let answer = try await Self.sky(server, "\(Self.place)&time=\(Self.time)")
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.headers.first(name: .contentType)?.hasPrefix("application/json") == true)
            let view = try answer.decode(SkyView.self)
            let (visible, all) = try Self.expected(at: Self.instant)
            #expect(view.time == "2022-02-03T12:00:00.000Z", "the instant in UTC with milliseconds")
            #expect(view.satellites.count == visible.count)
            #expect(view.satellites.map(\.catalogNumber) == visible.map(\.catalogNumber), "the same satellites in the same order")
            for (shown, core) in zip(view.satellites, visible) {
                #expect(shown.name == core.name)
                #expect(shown.constellation == core.constellation?.rawValue)
                #expect(shown.azimuth == core.azimuth && shown.elevation == core.elevation, "\(shown.name)")
                let epoch = try #require(all.first { $0.elements.catalogNumber == shown.catalogNumber }?.elements.epoch)
                #expect(abs(shown.epochAgeDays - abs(Self.instant.timeIntervalSince(epoch)) / 86_400) < 1e-9, "\(shown.name)")
                #expect(shown.elevation > 0 && shown.elevation <= 90 && shown.azimuth >= 0 && shown.azimuth < 360)
            }
            #expect(view.satellites.map(\.elevation) == view.satellites.map(\.elevation).sorted(by: >), "highest first")
            #expect(Set(view.satellites.map(\.constellation)) == ["gps", "galileo", "glonass", "beidou"])
            // A navigation receiver in open sky sees dozens of the ~130 satellites.
            #expect(view.satellites.count > 25 && view.satellites.count < all.count)
            #expect(view.elements.satellites == all.count)
            #expect(view.elements.oldestEpoch == all.map(\.elements.epoch).min().map(Self.iso))
            #expect(view.elements.newestEpoch == all.map(\.elements.epoch).max().map(Self.iso))
            #expect(view.satellites.contains { $0.name == "GPS BIIR-2  (PRN 13)" } || !visible.contains { $0.catalogNumber == 24876 })
        }
    }

    @Test("The highest satellite's azimuth and elevation agree with the python sgp4 package within 0.01°")
    func reference() async throws {
        let orbits = try Self.orbits()
        try await withServer(.sqlite, configuration: { $0.orbitData = orbits }) { server in
            let view = try await Self.sky(server, "\(Self.place)&time=\(Self.time)").decode(SkyView.self)
            let highest = try #require(view.satellites.first)
            let text = try Self.urls.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }.joined(separator: "\n")
            let lines = text.split(whereSeparator: \.isNewline).map(String.init)
            let line1 = try #require(lines.first { $0.hasPrefix(String(format: "1 %05dU", highest.catalogNumber)) })
            let line2 = try #require(lines.first { $0.hasPrefix(String(format: "2 %05d ", highest.catalogNumber)) })
            let folder = try TemporaryFolder()
            let input = folder.url.appendingPathComponent("cases.json")
            try JSONSerialization.data(withJSONObject: [["line1": line1, "line2": line2, "latitude": 46.0489, "longitude": 14.5087,
                                                          "height": 375.0, "time": Self.instant.timeIntervalSince1970]]).write(to: input)
            let python = packageRoot.appendingPathComponent(".build-venv/tools/bin/python").path
            try #require(FileManager.default.isExecutableFile(atPath: python), "\(python) is missing — run scripts/bootstrap")
            let script = packageRoot.appendingPathComponent("Tests/Reference/sgp4_reference.py").path
            let output = try await ExternalTool.run(["sh", "-c", #""$0" "$1" < "$2""#, python, script, input.path])
            let answers = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
            let reference = try #require(answers.first)
            #expect(reference["error"] as? Int == 0)
            let azimuth = try #require(reference["azimuth"] as? Double), elevation = try #require(reference["elevation"] as? Double)
            #expect(abs(highest.elevation - elevation) < 0.01, "\(highest.name): \(highest.elevation)° against \(elevation)°")
            var difference = abs(highest.azimuth - azimuth)
            if difference > 180 { difference = 360 - difference }
            #expect(difference * cos(elevation * .pi / 180) < 0.01, "\(highest.name): \(highest.azimuth)° against \(azimuth)°")
        }
    }

    @Test("constellation=gps|galileo|glonass|beidou gives that system's satellites alone, the same as in the whole sky; all is the default")
    func constellations() async throws {
        let orbits = try Self.orbits()
        try await withServer(.sqlite, configuration: { $0.orbitData = orbits }) { server in
            let whole = try await Self.sky(server, "\(Self.place)&time=\(Self.time)").decode(SkyView.self)
            let all = try await Self.sky(server, "\(Self.place)&time=\(Self.time)&constellation=all").decode(SkyView.self)
            #expect(all == whole)
            var union: [SkyView.Satellite] = []
            for constellation in GNSSConstellation.allCases {
                let answer = try await Self.sky(server, "\(Self.place)&time=\(Self.time)&constellation=\(constellation.rawValue)")
                #expect(answer.status == .ok)
                let view = try answer.decode(SkyView.self)
                let (visible, considered) = try Self.expected(at: Self.instant, constellation: constellation)
                #expect(!view.satellites.isEmpty, "\(constellation)")
                #expect(view.satellites.allSatisfy { $0.constellation == constellation.rawValue }, "\(constellation)")
                #expect(view.satellites.map(\.catalogNumber) == visible.map(\.catalogNumber), "\(constellation)")
                #expect(view.satellites == whole.satellites.filter { $0.constellation == constellation.rawValue }, "\(constellation)")
                #expect(view.elements.satellites == considered.count, "\(constellation)")
                #expect(view.elements.satellites < whole.elements.satellites)
                union += view.satellites
            }
            #expect(union.count == whole.satellites.count)
            #expect(Set(union.map(\.catalogNumber)) == Set(whole.satellites.map(\.catalogNumber)))
        }
    }

    @Test("Without time, the server's clock sets the moment; an offset or fractional seconds name the same instant")
    func defaultTime() async throws {
        let orbits = try Self.orbits()
        let now = Self.instant.addingTimeInterval(18 * 3600 + 0.25)
        try await withServer(.sqlite, dependencies: ServerDependencies(clock: .fixed(now), passwordCost: .minimum),
                             configuration: { $0.orbitData = orbits }) { server in
            let implicit = try await Self.sky(server, Self.place).decode(SkyView.self)
            #expect(implicit.time == "2022-02-04T06:00:00.250Z")
            let explicit = try await Self.sky(server, "\(Self.place)&time=2022-02-04T06:00:00.25Z").decode(SkyView.self)
            #expect(implicit == explicit)
            let nanoseconds = try await Self.sky(server, "\(Self.place)&time=2022-02-04t06:00:00.250000000z").decode(SkyView.self)
            #expect(nanoseconds == explicit, "nine digits of fraction and lowercase t and z are ISO 8601 too")
            let (visible, _) = try Self.expected(at: now)
            #expect(implicit.satellites.map(\.catalogNumber) == visible.map(\.catalogNumber))
            let noon = try await Self.sky(server, "\(Self.place)&time=\(Self.time)").decode(SkyView.self)
            #expect(noon.satellites.map(\.catalogNumber) != implicit.satellites.map(\.catalogNumber), "18 hours later the sky has changed")
            let offset = try await Self.sky(server, "\(Self.place)&time=2022-02-03T13:00:00%2B01:00").decode(SkyView.self)
            #expect(offset == noon)
            let west = try await Self.sky(server, "\(Self.place)&time=2022-02-03T06:30:00-05:30").decode(SkyView.self)
            #expect(west == noon)
        }
    }

    @Test("Every bad parameter is 400 invalid_query with a reason that names it", arguments: [
        ("longitude=14.5", "latitude"), ("latitude=46", "longitude"), ("latitude=&longitude=14.5", "latitude"),
        ("latitude=91&longitude=14.5", "latitude"), ("latitude=-90.5&longitude=14.5", "latitude"), ("latitude=north&longitude=14.5", "latitude"),
        ("latitude=nan&longitude=14.5", "latitude"), ("latitude=46&longitude=inf", "longitude"), ("latitude=46&longitude=180.01", "longitude"),
        ("latitude=46&longitude=14,5", "longitude"), ("latitude=46&longitude=14.5&altitude=-501", "altitude"),
        ("latitude=46&longitude=14.5&altitude=10001", "altitude"), ("latitude=46&longitude=14.5&altitude=high", "altitude"),
        ("latitude=46&longitude=14.5&time=yesterday", "time"), ("latitude=46&longitude=14.5&time=2022-02-03T12:00:00", "time"),
        ("latitude=46&longitude=14.5&time=1643889600", "time"), ("latitude=46&longitude=14.5&time=2022-02-30T12:00:00Z", "time"), ("latitude=46&longitude=14.5&time=2022-02-03T23:59:60Z", "time"),
        ("latitude=46&longitude=14.5&time=2022-02-03T12:00:00%2B25:00", "time"),
        ("latitude=46&longitude=14.5&time=2100-01-02T00:00:00Z", "time"), ("latitude=46&longitude=14.5&time=1900-01-01T00:00:00Z", "time"),
        ("latitude=46&longitude=14.5&constellation=qzss", "constellation"), ("latitude=46&longitude=14.5&constellation=", "constellation"),
    ])
    func badParameters(query: String, name: String) async throws {
        let orbits = try Self.orbits()
        try await withServer(.sqlite, configuration: { $0.orbitData = orbits }) { server in
            let answer = try await Self.sky(server, query)
            #expect(answer.status == .badRequest, "\(query): \(answer.text)")
            let error = try answer.apiError()
            #expect(error.error == "invalid_query", "\(query)")
            #expect(error.reason.hasPrefix(name), "\(query): \(error.reason)")
        }
    }

    @Test("Without --tle: 404 no_orbit_data that says how to start the server, and /api/v1/config says sky: false; with it, true", arguments: TestDatabase.all)
    func noOrbitData(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let answer = try await Self.sky(server, "\(Self.place)&time=\(Self.time)")
            #expect(answer.status == .notFound)
            let error = try answer.apiError()
            #expect(error.error == "no_orbit_data")
            #expect(error.reason.contains("--tle FILE"))
            let config = try #require(try JSONSerialization.jsonObject(with: Data(try await server.send(.GET, "/api/v1/config").body.readableBytesView)) as? [String: Any])
            #expect(config["sky"] as? Bool == false)
        }
        let orbits = try Self.orbits()
        try await withServer(database, configuration: { $0.orbitData = orbits }) { server in
            let config = try #require(try JSONSerialization.jsonObject(with: Data(try await server.send(.GET, "/api/v1/config").body.readableBytesView)) as? [String: Any])
            #expect(config["sky"] as? Bool == true)
            #expect(config["tiles"] != nil, "the other settings are still there")
        }
    }

    @Test("A TLE file with broken entries loads the rest and counts them; a satellite in two files is kept once; other satellites are left out")
    func brokenEntries() throws {
        let folder = try TemporaryFolder()
        let original = try String(contentsOf: Self.urls[0], encoding: .utf8)
        var lines = original.components(separatedBy: "\n")
        // The second set's line 1 loses its checksum digit's match; the fifth set's line 2 is cut short.
        lines[4] = String(lines[4].dropLast()) + (lines[4].last == "0" ? "1" : "0")
        lines[14] = String(lines[14].prefix(40))
        let iss = "ISS (ZARYA)\n1 25544U 98067A   22034.51782528  .00005727  00000+0  11030-3 0  9997\n2 25544  51.6432 263.0432 0006754  85.4564  16.9424 15.49800813324562"
        // Not named like a constellation's file, which would make the ISS a GPS satellite.
        let broken = folder.url.appendingPathComponent("gnss.txt")
        try (lines.joined(separator: "\n") + "\nnot a TLE at all\n" + iss + "\n").write(to: broken, atomically: true, encoding: .utf8)
        let whole = try OrbitData.load([Self.urls[0]])
        let orbits = try OrbitData.load([broken])
        #expect(orbits.catalogue.satellites.count == whole.catalogue.satellites.count - 2)
        #expect(orbits.files == [OrbitData.FileSummary(path: broken.path, satellites: whole.catalogue.satellites.count - 2,
                                                       brokenEntries: 3, otherSatellites: 1)])
        #expect(orbits.brokenEntries == 3)
        #expect(!orbits.catalogue.satellites.contains { $0.elements.catalogNumber == 25544 }, "the ISS is no navigation satellite")
        let twice = try OrbitData.load([Self.urls[0], broken])
        #expect(twice.catalogue.satellites.map(\.elements.catalogNumber) == whole.catalogue.satellites.map(\.elements.catalogNumber))
    }

    @Test("A --tle file that is missing, unreadable, empty, not text, or without one usable navigation satellite is a typed error naming it")
    func unusableFiles() throws {
        let folder = try TemporaryFolder()
        func file(_ name: String, _ data: Data) throws -> URL {
            let url = folder.url.appendingPathComponent(name)
            try data.write(to: url)
            return url
        }
        let missing = folder.url.appendingPathComponent("gps-ops.txt")
        let empty = try file("empty.txt", Data())
        let blank = try file("blank.txt", Data(" \n\r\n\t\n".utf8))
        let binary = try file("beidou.txt", Data([0xFF, 0xFE, 0x00, 0xC3, 0x28, 0x80]))
        let brokenOnly = try file("galileo.txt", Data("GSAT0101 (PRN E11)\n1 37846U 11060A   22034.0\n2 37846  56.0\n".utf8))
        let iss = try file("stations.txt", Data("ISS (ZARYA)\n1 25544U 98067A   22034.51782528  .00005727  00000+0  11030-3 0  9997\n2 25544  51.6432 263.0432 0006754  85.4564  16.9424 15.49800813324562\n".utf8))
        #expect(throws: OrbitDataError.noFiles) { try OrbitData.load([]) }
        let cases: [(URL, (OrbitDataError) -> Bool)] = [
            (missing, { $0 == .missing(path: missing.path) }),
            (folder.url, { $0 == .notAFile(path: folder.url.path) }),
            (empty, { $0 == .empty(path: empty.path) }), (blank, { $0 == .empty(path: blank.path) }),
            (binary, { $0 == .notText(path: binary.path) }),
            (brokenOnly, { if case .noUsableSet(_, 1, 0, .some) = $0 { true } else { false } }),
            (iss, { $0 == .noUsableSet(path: iss.path, brokenEntries: 0, otherSatellites: 1, firstError: nil) }),
        ]
        for (url, check) in cases {
            let error = #expect(throws: OrbitDataError.self, "\(url.lastPathComponent)") { try OrbitData.load([Self.urls[0], url]) }
            guard let error else { continue }
            #expect(check(error), "\(url.lastPathComponent): \(error)")
            #expect(error.path == url.path)
            #expect(error.description.contains(url.path))
        }
    }
}
