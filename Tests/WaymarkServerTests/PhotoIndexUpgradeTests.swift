import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkServer

@Suite("Upgrading a photo database to the time index and the closer map cells")
struct PhotoIndexUpgradeTests {
    @Test("Photos stored before the upgrade are found newest first and counted on street tiles, as brute force says", arguments: TestDatabase.all)
    func upgrade(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (configuration, shared) = try await SignatureUpgradeTests.freshConfiguration(database, dataDirectory: directory)
        var random = SplitMix(seed: 99)
        // The schema before the upgrade, with photos stored as the store then stored them: a
        // two-dimensional R*Tree on SQLite, map cells down to level 14.
        let photos = try await withApp { app in
            try await app.useDatabase(configuration, migrations: Array(Application.waymarkMigrations.prefix { !($0 is IndexPhotosByTime) }))
            try await app.migrateDatabase()
            let owner = try await PhotoSearchTests.account(FluentAccountStore(database: app.serverDatabase), "before")
            let photos = PhotoSearchTests.photos(count: 3_000, owners: [owner.id], random: &random)
            let sql = try #require(app.db as? any SQLDatabase)
            let postgres = sql.dialect.name == "postgresql"
            for slice in stride(from: 0, to: photos.count, by: 500).map({ photos[$0..<min($0 + 500, photos.count)] }) {
                var insert = sql.insert(into: CreatePhotos.table).columns(SQLPhotoStore.columns + (postgres ? ["place"] : []))
                for photo in slice {
                    var values = SQLPhotoStore.binds(photo)
                    if postgres, let place = photo.place {
                        values.append(SQLQueryString("ST_SetSRID(ST_MakePoint(\(bind: place.longitude), \(bind: place.latitude)), 4326)::geography"))
                    }
                    insert = insert.values(values)
                }
                try await insert.run()
                if !postgres {
                    var places = sql.insert(into: CreatePhotos.places).columns("min_lat", "max_lat", "min_lon", "max_lon", "photo_id")
                    for photo in slice {
                        let place = try #require(photo.place)
                        places = places.values(SQLBind(place.latitude), SQLBind(place.latitude), SQLBind(place.longitude), SQLBind(place.longitude), SQLBind(photo.id))
                    }
                    try await places.run()
                }
                try await PhotoCellIndex.add(Array(slice), levels: 2...14, on: sql)
            }
            return photos
        }

        // The server of today migrates it at start.
        try await withBuiltApplication(configuration) { app in
            let stores = ServerStores.fluent(app.serverDatabase, clock: .system)
            var nonEmpty = 0
            for index in 0..<60 {
                let (lat, lon) = PhotoSearchTests.hotspots[index % PhotoSearchTests.hotspots.count]
                var query = NearbyQuery(latitude: min(90, max(-90, lat + Double.random(in: -0.2...0.2, using: &random))), longitude: lon,
                                        radius: [2_500, 20_000, 50_000][index % 3], order: index % 2 == 0 ? .recent : .distance, limit: 20)
                if index % 4 == 1 { query.from = Date(timeIntervalSince1970: 1_710_000_000) }
                let expected = PhotoSearchTests.bruteForce(photos, query)
                var got: [UUID] = []
                while true {
                    let page = try await stores.photos.nearby(query)
                    got += page.items.map(\.photo.id)
                    guard page.more, let last = page.items.last else { break }
                    query.after = NearbyCursor(last)
                }
                #expect(got == expected, "query \(index) \(query.order) r=\(query.radius) at (\(query.latitude), \(query.longitude))")
                if !expected.isEmpty { nonEmpty += 1 }
            }
            #expect(nonEmpty > 30)
            // Tiles of zoom 13–16 now come from the new levels of the cell index: the tiles of a
            // few stored photos, at each of those zooms.
            var counted = 0
            for photo in photos.filter({ $0.visibility == .public && abs($0.place?.latitude ?? 90) < 85 }).prefix(12) {
                let place = try #require(photo.place)
                for z in 13...16 {
                    let n = Double(1 << z), phi = place.latitude * .pi / 180
                    let tile = try #require(MapTile(z: z, x: min(Int((place.longitude + 180) / 360 * n), (1 << z) - 1),
                                                    y: Int((1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * n)))
                    let b = tile.bounds
                    let inside = photos.filter { photo in
                        guard photo.visibility == .public, let place = photo.place else { return false }
                        return (b.south...b.north).contains(place.latitude) && (b.west...b.east).contains(place.longitude)
                    }
                    let markers = try await stores.photos.markers(of: tile, viewer: nil)
                    #expect(markers.map(\.count).reduce(0, +) == inside.count, "tile \(z)/\(tile.x)/\(tile.y)")
                    counted += inside.count
                }
            }
            #expect(counted >= 48, "every tile holds its photo")
        }
        try await SignatureUpgradeTests.drop(configuration, from: shared)
    }
}
