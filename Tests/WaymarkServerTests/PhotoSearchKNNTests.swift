import Foundation
import Testing
import WaymarkCore
@testable import WaymarkServer

@Suite("Nearby photos when PostGIS's index scan gives up")
struct PhotoSearchKNNTests {
    /// Schemathesis's case: thousands of photos at 0°, 0°, one at latitude 1.5° and longitude
    /// −1.8e−67, searched from a point a subnormal number away from 0°, 0°. PostGIS's KNN scan on
    /// geography stops there with "index returned tuples in wrong order"; the search answers from
    /// the exact order instead of failing with a 500.
    @Test("A KNN scan PostgreSQL refuses falls back to the exact order", arguments: TestDatabase.all)
    func wrongOrderFallsBack(database: TestDatabase) async throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (configuration, _) = try await SignatureUpgradeTests.freshConfiguration(database, dataDirectory: directory)
        try await withBuiltApplication(configuration) { app in
            let stores = ServerStores.fluent(app.serverDatabase, clock: .system)
            let owner = try await PhotoSearchTests.account(stores.accounts, "olga")
            let taken = Date(timeIntervalSince1970: 1_795_570_335)
            func photo(_ index: Int, _ place: Place) -> Photo {
                Photo(id: UUID(), ownerID: owner.id, title: "photo \(index)", capturedAt: taken, uploadedAt: taken, place: place,
                      azimuth: nil, tilt: nil, width: 4000, height: 3000, bytes: 1_000_000, mime: "image/jpeg",
                      sha256: String(repeating: "0", count: 64), visibility: .public)
            }
            let atZero = (0..<3_000).map { photo($0, Place(latitude: 0, longitude: 0)) }
            try await stores.photos.insert(atZero + [photo(3_000, Place(latitude: 1.5, longitude: -1.755623053580644e-67))])

            let query = NearbyQuery(latitude: -2.2250738585072014e-308, longitude: -1.175494351e-38, radius: 23_861.9467789095,
                                    order: .distance, limit: 50, viewer: nil)
            let page = try await stores.photos.nearby(query)
            #expect(page.items.count == 50)
            #expect(page.more)
            #expect(page.items.allSatisfy { $0.photo.place == Place(latitude: 0, longitude: 0) && $0.distance < 0.001 })
        }
    }
}
