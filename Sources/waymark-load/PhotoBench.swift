import Foundation
import SQLKit
import WaymarkCore
@_spi(Bench) import WaymarkServer

/// The photo store under `make bench` (`waymark-load photos-load` and `photos-bench`): a bulk
/// load of synthetic photos straight into the store (not the HTTP path), and nearby searches
/// timed through the store next to the plain PostGIS query on the same rows.
///
/// The synthetic world is heavy-tailed, as photo collections are: most photos are taken around a
/// few hundred "cities" whose sizes follow Zipf's law (the largest has a sixth of them, spread
/// with σ = 2 km), the rest anywhere between 60° S and 75° N. Search points are drawn the same
/// way, mostly where the photos are. Everything follows from the seed.
struct PhotoBench: Sendable {
    struct Point: Sendable, Equatable {
        var latitude: Double
        var longitude: Double
    }

    /// What a series of searches found and how long each took.
    struct Timings: Sendable {
        /// Seconds per search, in the order made.
        var seconds: [Double]
        /// Photos returned, summed over the searches.
        var found: Int
    }

    private let store: BenchPhotoStore

    /// Opens (and migrates) the database of `configuration`.
    init(configuration: ServerConfiguration) async throws {
        store = try await BenchPhotoStore(configuration: configuration)
    }

    var isPostgres: Bool { store.isPostgres }

    /// Stores `count` synthetic public photos of the account `owner`, `batch` per transaction,
    /// through the store's own insert (places and map cells included).
    func load(count: Int, owner: String, seed: UInt64, batch: Int = 10_000,
              progress: @Sendable (Int) -> Void = { _ in }) async throws {
        let account = try await store.account(username: owner)
        var world = World(seed: seed)
        let uploaded = Date()
        var done = 0
        while done < count {
            let photos = (0..<min(batch, count - done)).map { _ in
                let place = world.photoPlace()
                return BenchPhotoStore.NewPhoto(id: world.uuid(), latitude: place.latitude, longitude: place.longitude, capturedAt: world.captureTime())
            }
            try await store.insert(photos, owner: account, uploadedAt: uploaded)
            done += photos.count
            progress(done)
        }
    }

    /// Where the searches of the bench are made: mostly where photos are (a city, σ = 1 km
    /// around its centre), some anywhere.
    static func searchPoints(count: Int, seed: UInt64) -> [Point] {
        var world = World(seed: seed, stream: 1)
        return (0..<count).map { _ in world.searchPoint() }
    }

    /// The centre of the largest city: where a city view of the map is looked at.
    static func busiestPlace(seed: UInt64) -> Point {
        let city = World(seed: seed).cities[0]
        return Point(latitude: city.latitude, longitude: city.longitude)
    }

    /// Times the store's nearby search (the server's code path, first page of 50).
    func nearby(at points: [Point], radius: Double, recent: Bool = false) async throws -> Timings {
        var seconds: [Double] = [], found = 0
        for point in points {
            let start = ContinuousClock.now
            let count = try await store.nearby(latitude: point.latitude, longitude: point.longitude, radius: radius, recent: recent)
            seconds.append((ContinuousClock.now - start).inSeconds)
            found += count
        }
        return Timings(seconds: seconds, found: found)
    }

    /// Times plain PostGIS on the same rows: `ST_DWithin` on the geography column and
    /// `ORDER BY place <-> point LIMIT 51` (the KNN operator on the GiST index), the same columns
    /// as the store reads, decoded as the store decodes them.
    func postgisReference(at points: [Point], radius: Double) async throws -> Timings {
        let columns = SQLRaw(BenchPhotoStore.columns.joined(separator: ", "))
        var seconds: [Double] = [], found = 0
        for point in points {
            let here: SQLQueryString = "ST_SetSRID(ST_MakePoint(\(bind: point.longitude), \(bind: point.latitude)), 4326)::geography"
            let start = ContinuousClock.now
            // The database as the store takes it for each search.
            let sql = try store.sql()
            let rows = try await sql.raw("""
                SELECT \(columns), ST_Distance(place, \(here)) AS distance FROM \(ident: BenchPhotoStore.table) \
                WHERE ST_DWithin(place, \(here), \(bind: radius)) AND visibility = 'public' ORDER BY place <-> \(here) LIMIT 51
                """).all()
            for row in rows { try BenchPhotoStore.decode(row) }
            seconds.append((ContinuousClock.now - start).inSeconds)
            found += min(rows.count, 50)
        }
        return Timings(seconds: seconds, found: found)
    }

    func shutdown() async throws {
        try await store.shutdown()
    }

    /// The seeded synthetic world (SplitMix64).
    struct World {
        private var state: UInt64
        private(set) var cities: [(latitude: Double, longitude: Double)] = []
        private var cumulative: [Double] = []

        static let cityCount = 400
        static let inCities = 0.85

        /// The cities follow from `seed`; `stream` picks another sequence of draws in the same world.
        init(seed: UInt64, stream: UInt64 = 0) {
            state = seed
            var total = 0.0
            for rank in 1...Self.cityCount {
                cities.append((latitude: uniform(-55, 70), longitude: uniform(-180, 180)))
                total += 1 / Double(rank)
                cumulative.append(total)
            }
            cumulative = cumulative.map { $0 / total }
            state ^= stream &* 0xD1B5_4A32_D192_ED03
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

        mutating func gaussian() -> Double {
            // Box–Muller; 1 - unit() is never 0.
            sqrt(-2 * log(1 - unit())) * cos(2 * .pi * unit())
        }

        mutating func city() -> (latitude: Double, longitude: Double) {
            let u = unit()
            var low = 0, high = cumulative.count - 1
            while low < high {
                let mid = (low + high) / 2
                if cumulative[mid] < u { low = mid + 1 } else { high = mid }
            }
            return cities[low]
        }

        /// A point σ metres around `centre` (east and north offsets on the local tangent plane).
        mutating func around(_ centre: (latitude: Double, longitude: Double), sigma: Double) -> Point {
            let north = gaussian() * sigma, east = gaussian() * sigma
            let latitude = centre.latitude + north / 111_132.954
            var longitude = centre.longitude + east / (111_319.49 * cos(centre.latitude * .pi / 180))
            if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            return Point(latitude: latitude, longitude: longitude)
        }

        mutating func photoPlace() -> Point {
            unit() < Self.inCities ? around(city(), sigma: 2_000) : Point(latitude: uniform(-60, 75), longitude: uniform(-180, 180))
        }

        mutating func searchPoint() -> Point {
            unit() < 0.8 ? around(city(), sigma: 1_000) : Point(latitude: uniform(-60, 75), longitude: uniform(-180, 180))
        }

        /// 2010-01-01 … 2026-01-01, to the millisecond.
        mutating func captureTime() -> Date {
            Date(timeIntervalSince1970: (uniform(1_262_304_000, 1_767_225_600) * 1_000).rounded() / 1_000)
        }

        mutating func uuid() -> UUID {
            let a = next(), b = next()
            var bytes = [UInt8](repeating: 0, count: 16)
            for i in 0..<8 {
                bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * i))
                bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * i))
            }
            bytes[6] = bytes[6] & 0x0F | 0x40
            bytes[8] = bytes[8] & 0x3F | 0x80
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
    }
}
