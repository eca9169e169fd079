import Foundation
import Testing
import WaymarkTestSupport
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
import WaymarkMedia
@testable import WaymarkServer

@Suite("Nearby photos: the index's answer is the brute-force geodesic answer")
struct PhotoSearchTests {
    /// Places where searches go wrong when done naively: the antimeridian, both poles, the equator
    /// and the prime meridian, and an ordinary city.
    static let hotspots: [(Double, Double)] = [(0, 180), (-16.5, -179.9), (89.97, 0), (-89.9, 45), (0, 0), (51.5, -0.12), (46.05, 14.5)]

    static func account(_ store: any AccountStore, _ name: String) async throws -> Account {
        let account = Account(id: UUID(), username: "\(name)-\(UUID().uuidString.prefix(8).lowercased())", displayName: name, email: nil,
                              role: .user, passwordHash: try PasswordHash(hashing: "not used in this test", cost: .minimum), createdAt: Date())
        #expect(try await store.create(account) == .created)
        return account
    }

    /// Random photos: most within 60 km of a hotspot, the rest anywhere; a tenth private.
    static func photos(count: Int, owners: [UUID], random: inout SplitMix) -> [Photo] {
        (0..<count).map { index in
            let place: Place
            if index % 10 == 9 {
                place = Place(latitude: Double.random(in: -90...90, using: &random), longitude: Double.random(in: -180...180, using: &random))
            } else {
                let (lat, lon) = hotspots[index % hotspots.count]
                let spread = 0.55  // degrees of latitude, about 60 km
                // Reflected at the poles, not clamped: clamping would stack photos on the pole itself.
                var latitude = lat + Double.random(in: -spread...spread, using: &random)
                if latitude > 90 { latitude = 180 - latitude }
                if latitude < -90 { latitude = -180 - latitude }
                let lonSpread = min(180, spread / max(0.02, cos(latitude * .pi / 180)))
                place = Place(latitude: latitude, longitude: remainder(lon + Double.random(in: -lonSpread...lonSpread, using: &random), 360))
            }
            let captured = Date(timeIntervalSince1970: 1_700_000_000 + Double(Int.random(in: 0..<30_000_000, using: &random)))
            return Photo(id: UUID(), ownerID: owners[index % owners.count], title: "photo \(index)", capturedAt: captured, uploadedAt: captured,
                         place: place, azimuth: nil, tilt: nil, width: 4000, height: 3000, bytes: 1_000_000, mime: "image/jpeg",
                         sha256: String(repeating: "0", count: 64), visibility: index % 10 == 3 ? .private : .public)
        }
    }

    /// The great-circle distance on a sphere of the mean radius: within 0.6 % of the geodesic one.
    static func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.0 - a.0) * radians, dLon = (b.1 - a.1) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * radians) * cos(b.0 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    /// The answer by looking at every photo (a cheap spherical test first, with a wide margin,
    /// so that only plausible photos cost a geodesic distance).
    static func bruteForce(_ photos: [Photo], _ query: NearbyQuery) -> [UUID] {
        var found: [NearbyPhoto] = []
        for photo in photos {
            guard let place = photo.place, photo.visibility == .public || photo.ownerID == query.viewer, query.admits(capturedAt: photo.capturedAt) else { continue }
            guard haversine((query.latitude, query.longitude), (place.latitude, place.longitude)) <= query.radius * 1.01 + 100 else { continue }
            let distance = Geodesy.distance((query.latitude, query.longitude), (place.latitude, place.longitude))
            if distance <= query.radius { found.append(NearbyPhoto(photo: photo, distance: distance)) }
        }
        var all = query
        all.limit = .max
        all.after = nil
        return all.page(of: found).items.map(\.photo.id)
    }

    @Test("20,000 photos, 500 queries around the antimeridian, the poles and the equator: same set, same order, page by page", arguments: TestDatabase.all)
    func againstBruteForce(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A database of its own on PostgreSQL, so that other tests' photos do not join the answers.
        let (configuration, shared) = try await SignatureUpgradeTests.freshConfiguration(database, dataDirectory: directory)
        try await withBuiltApplication(configuration) { app in
            let stores = ServerStores.fluent(app.serverDatabase, clock: .system)
            let alice = try await Self.account(stores.accounts, "alice"), bob = try await Self.account(stores.accounts, "bob")
            var random = SplitMix(seed: 2026)
            let photos = Self.photos(count: 20_000, owners: [alice.id, bob.id], random: &random)
            try await stores.photos.insert(photos)

            var nonEmpty = 0, compared = 0
            for index in 0..<500 {
                let (lat, lon) = index % 5 == 4
                    ? (Double.random(in: -90...90, using: &random), Double.random(in: -180...180, using: &random))
                    : Self.hotspots[index % Self.hotspots.count]
                var query = NearbyQuery(
                    latitude: min(90, max(-90, lat + Double.random(in: -0.3...0.3, using: &random))),
                    longitude: remainder(lon + Double.random(in: -0.3...0.3, using: &random), 360),
                    radius: [100, 1_609.344, 2_500, 10_000, 50_000][index % 5] * Double.random(in: 0.5...1, using: &random),
                    order: index % 3 == 0 ? .recent : .distance, limit: [50, 200, 500][index % 3],
                    viewer: [nil, alice.id, bob.id][index % 3]
                )
                if index % 4 == 1 {
                    query.from = Date(timeIntervalSince1970: 1_705_000_000)
                    query.to = Date(timeIntervalSince1970: 1_720_000_000)
                }
                let expected = Self.bruteForce(photos, query)
                var got: [UUID] = []
                var pages = 0
                while true {
                    let page = try await stores.photos.nearby(query)
                    got += page.items.map(\.photo.id)
                    pages += 1
                    #expect(page.items.count <= query.limit)
                    guard page.more, let last = page.items.last else { break }
                    query.after = NearbyCursor(last)
                    if pages > 3_000 { break }
                }
                if got != expected {
                    let missing = Set(expected).subtracting(got), extra = Set(got).subtracting(expected)
                    let firstDifference = Array(zip(got, expected)).firstIndex { $0 != $1 } ?? min(got.count, expected.count)
                    Issue.record("query \(index) at (\(query.latitude), \(query.longitude)) r=\(query.radius) \(query.order): \(got.count) found, \(expected.count) expected; \(missing.count) missing, \(extra.count) extra, first difference at \(firstDifference)")
                }
                if !expected.isEmpty { nonEmpty += 1 }
                compared += expected.count
            }
            #expect(nonEmpty > 200, "most queries find photos")
            #expect(compared > 10_000, "the queries compared many photos")
        }
        try await SignatureUpgradeTests.drop(configuration, from: shared)
    }

    @Test("GET /api/v1/photos/nearby: pages, distances, private photos only to their owner, 404 for another's private photo, bad parameters named", arguments: TestDatabase.all)
    func api(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            let bob = try await server.register("bob-\(UUID().uuidString.prefix(8).lowercased())")
            // A place of its own in the Pacific, so that other tests' photos are far away.
            let centre = (lat: -30.0 + Double.random(in: 0..<10), lon: -140.0 + Double.random(in: 0..<10))
            var photos: [Photo] = []
            for index in 0..<12 {
                let owner: UUID = index < 10 ? alice.user.id : bob.user.id
                let captured = Date(timeIntervalSince1970: 1_750_000_000 + Double(index))
                let place = Place(latitude: centre.lat + Double(index) * 0.001, longitude: centre.lon)
                let visibility: Visibility = index == 11 ? .private : .public
                photos.append(Photo(id: UUID(), ownerID: owner, title: "p\(index)", capturedAt: captured, uploadedAt: captured,
                                    place: place, azimuth: nil, tilt: nil, width: 10, height: 10, bytes: 10, mime: "image/jpeg",
                                    sha256: String(repeating: "a", count: 64), visibility: visibility))
            }
            try await server.stores.photos.insert(photos)
            let base = "/api/v1/photos/nearby?latitude=\(centre.lat)&longitude=\(centre.lon)&radius=5000&limit=5"
            let first = try await server.send(.GET, base)
            #expect(first.status == .ok, "\(first.text)")
            let page = try first.decode(WaymarkAPI.Page<PhotoDTO>.self)
            #expect(page.items.map(\.title) == ["p0", "p1", "p2", "p3", "p4"])
            #expect(abs((page.items[1].distance ?? 0) - 110.6) < 1, "0.001° of latitude is about 110.6 m here")
            #expect(page.items[0].urls.original == nil, "the original is the owner's")
            let next = try #require(page.next)
            let second = try await server.send(.GET, base + "&cursor=\(next)").decode(WaymarkAPI.Page<PhotoDTO>.self)
            #expect(second.items.map(\.title) == ["p5", "p6", "p7", "p8", "p9"])
            let rest = try await server.send(.GET, base + "&cursor=\(try #require(second.next))").decode(WaymarkAPI.Page<PhotoDTO>.self)
            #expect(rest.items.map(\.title) == ["p10"], "bob's private photo is not shown to strangers")
            #expect(rest.next == nil)
            let asBob = try await server.send(.GET, base + "&limit=20&sort=recent", headers: TestServer.bearer(bob.token)).decode(WaymarkAPI.Page<PhotoDTO>.self)
            #expect(asBob.items.first?.title == "p11", "its owner sees it, newest first")
            #expect(asBob.items.first?.urls.original != nil)

            let secret = photos[11].id.uuidString.lowercased()
            #expect(try await server.send(.GET, "/api/v1/photos/\(secret)").status == .notFound)
            #expect(try await server.send(.GET, "/api/v1/photos/\(secret)", headers: TestServer.bearer(alice.token)).status == .notFound)
            #expect(try await server.send(.GET, "/api/v1/photos/\(secret)", headers: TestServer.bearer(bob.token)).status == .ok)
            #expect(try await server.send(.GET, "/api/v1/photos/\(photos[0].id.uuidString)").decode(PhotoDTO.self).owner.username == alice.user.username)

            let window = "/api/v1/photos/nearby?latitude=\(centre.lat)&longitude=\(centre.lon)&radius=5000&limit=50&from=2025-06-15T15:06:41Z&to=2025-06-15T15:06:45Z"
            #expect(try await server.send(.GET, window).decode(WaymarkAPI.Page<PhotoDTO>.self).items.count == 5, "the time filter (p1 … p5)")

            for (query, fragment) in [("latitude=91&longitude=0", "latitude"), ("latitude=0", "longitude"), ("latitude=0&longitude=0&radius=50001", "radius"),
                                      ("latitude=0&longitude=0&sort=best", "sort"), ("latitude=0&longitude=0&limit=0", "limit"),
                                      ("latitude=0&longitude=0&cursor=xyz", "cursor"), ("latitude=0&longitude=0&from=yesterday", "from")] {
                let refused = try await server.send(.GET, "/api/v1/photos/nearby?\(query)")
                #expect(refused.status == .badRequest, "\(query)")
                let reason = try refused.apiError().reason
                #expect(reason.contains(fragment), "\(query): \(reason)")
            }
        }
    }
}

@Suite("Map clusters: every visible photo of a tile is counted once, in the cell it falls in")
struct PhotoClusterTests {
    struct Feature: Decodable {
        struct Geometry: Decodable { var coordinates: [Double] }
        struct Properties: Decodable {
            var cluster: Bool
            var count: Int?
            var photo: String
            var bbox: [Double]?
        }
        var geometry: Geometry
        var properties: Properties
    }
    struct Collection: Decodable { var type: String; var features: [Feature] }

    @Test("Tiles from the world to a street: counts add up to the photos inside, private ones only for their owner", arguments: TestDatabase.all)
    func clusters(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (configuration, shared) = try await SignatureUpgradeTests.freshConfiguration(database, dataDirectory: directory)
        try await withBuiltApplication(configuration) { app in
            let consumer = try await Credentials.make(in: app, name: "test")
            let server = TestServer(app: app, database: database, configuration: configuration, consumer: consumer)
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            var random = SplitMix(seed: 7)
            let photos = PhotoSearchTests.photos(count: 3_000, owners: [alice.user.id], random: &random)
            try await server.stores.photos.insert(photos)
            var current = photos
            var checkedTiles = 0
            func check(_ photos: [Photo], stage: String) async throws {
                for (lat, lon) in PhotoSearchTests.hotspots where abs(lat) < 85 {
                    for z in [0, 3, 8, 11, 12, 13, 16, 17] {
                        let n = Double(1 << z)
                        let x = min(Int((lon + 180) / 360 * n), (1 << z) - 1)
                        let phi = lat * .pi / 180
                        let y = min(Int((1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * n), (1 << z) - 1)
                        let tile = try #require(MapTile(z: z, x: x, y: y))
                        let b = tile.bounds
                        func inside(_ photo: Photo, viewer: UUID?) -> Bool {
                            guard let place = photo.place, photo.visibility == .public || photo.ownerID == viewer else { return false }
                            return (b.south...b.north).contains(place.latitude) && (b.west...b.east).contains(place.longitude)
                        }
                        for viewer in [nil, alice.user.id] {
                            let headers: HTTPHeaders = viewer == nil ? [:] : TestServer.bearer(alice.token)
                            let response = try await server.send(.GET, "/api/v1/photos/clusters/\(z)/\(x)/\(y)", headers: headers)
                            #expect(response.status == .ok)
                            #expect(response.headers.first(name: .contentType) == "application/geo+json")
                            let collection = try response.decode(Collection.self)
                            let expected = photos.filter { inside($0, viewer: viewer) }
                            let total = collection.features.map { $0.properties.cluster ? ($0.properties.count ?? 0) : 1 }.reduce(0, +)
                            #expect(total == expected.count, "\(stage): tile \(z)/\(x)/\(y) viewer \(viewer == nil ? "none" : "alice")")
                            #expect(collection.features.count <= MapTile.cellsPerSide * MapTile.cellsPerSide)
                            let ids = Set(expected.map { $0.id.uuidString.lowercased() })
                            #expect(collection.features.allSatisfy { ids.contains($0.properties.photo) }, "\(stage): every marker's photo is one of the tile's")
                            // Each marker's photo is the newest of its cell.
                            for feature in collection.features {
                                let (flon, flat) = (feature.geometry.coordinates[0], feature.geometry.coordinates[1])
                                #expect((b.south - 1e-6...b.north + 1e-6).contains(flat) && (b.west - 1e-6...b.east + 1e-6).contains(flon))
                                guard let marked = expected.first(where: { $0.id.uuidString.lowercased() == feature.properties.photo }),
                                      let spot = marked.place, let cell = tile.cell(latitude: spot.latitude, longitude: spot.longitude) else { continue }
                                let sameCell = expected.filter { other in
                                    other.place.flatMap { tile.cell(latitude: $0.latitude, longitude: $0.longitude) }.map { $0 == cell } ?? false
                                }
                                #expect(sameCell.allSatisfy { $0.capturedAt <= marked.capturedAt }, "\(stage): tile \(z)/\(x)/\(y)")
                            }
                            if !expected.isEmpty { checkedTiles += 1 }
                            let etag = try #require(response.headers.first(name: .eTag))
                            #expect(try await server.send(.GET, "/api/v1/photos/clusters/\(z)/\(x)/\(y)", headers: headers.merging(["If-None-Match": etag])).status == .notModified)
                        }
                    }
                }
            }
            try await check(current, stage: "after the upload")
            // Photos go and change: the counts and the newest photo of each cell follow.
            let newestFirst = current.sorted { $0.capturedAt > $1.capturedAt }
            for photo in newestFirst.prefix(150) + current.shuffled().prefix(150) where current.contains(where: { $0.id == photo.id }) {
                _ = try await server.stores.photos.delete(id: photo.id, claims: PhotoClaims())
                current.removeAll { $0.id == photo.id }
            }
            for index in current.indices.shuffled().prefix(100) {
                current[index].visibility = current[index].visibility == .public ? .private : .public
                if index % 2 == 0, let place = current[index].place {
                    current[index].place = Place(latitude: place.latitude + 0.01, longitude: place.longitude)
                }
                try await server.stores.photos.update(current[index])
            }
            try await check(current, stage: "after deletions and edits")
            #expect(checkedTiles > 20)
            for bad in ["21/0/0", "2/4/0", "2/0/-1", "x/0/0"] {
                #expect(try await server.send(.GET, "/api/v1/photos/clusters/\(bad)").status == .notFound, "\(bad)")
            }
            let config = try await server.send(.GET, "/api/v1/config")
            #expect(config.text.contains("tile.openstreetmap.org/{z}/{x}/{y}.png"))
            #expect(config.headers.first(name: "Content-Security-Policy")?.contains("img-src 'self' data: blob: https://tile.openstreetmap.org") == true)
        }
        try await SignatureUpgradeTests.drop(configuration, from: shared)
    }
}
