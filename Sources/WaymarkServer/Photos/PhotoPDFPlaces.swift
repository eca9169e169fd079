import Foundation
import Logging
import NIOPosix
import WaymarkCore

/// The places of the offline gazetteer near a photo, for the map of its PDF (DESIGN §3.10): the
/// same file as the scenes' addresses (``SceneAddresses``, GeoNames' cities1000), loaded on a
/// thread of the pool when the first PDF needs it, kept as a list ordered by latitude so that the
/// few places within some kilometres are found by a band search. Without a gazetteer the map has
/// no place names, and says so.
actor PhotoPDFPlaces {
    /// One place of the list.
    struct Place: Sendable {
        var name: String
        var countryCode: String
        var latitude: Double
        var longitude: Double
    }

    /// A place near the photo: how far and in which direction (degrees from true north) it lies.
    struct Near: Sendable, Equatable {
        var name: String
        var countryCode: String
        var latitude: Double
        var longitude: Double
        var distance: Double
        var azimuth: Double
    }

    private var addresses: SceneAddresses?
    private var loading: Task<[Place]?, Never>?

    /// The list, made by the first caller from the gazetteer that ``SceneAddresses`` finds; `nil` without one.
    private func places(logger: Logger) async -> [Place]? {
        if let loading { return await loading.value }
        let location = SceneAddresses.location(environment: ProcessInfo.processInfo.environment,
                                               workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let addresses = SceneAddresses(location: location, logger: logger)
        self.addresses = addresses
        let task = Task<[Place]?, Never> {
            guard let gazetteer = await addresses.gazetteer() else { return nil }
            return try? await NIOThreadPool.singleton.runIfActive {
                gazetteer.places.map { Place(name: $0.name, countryCode: $0.countryCode, latitude: $0.latitude, longitude: $0.longitude) }
                    .sorted { $0.latitude < $1.latitude }
            }
        }
        loading = task
        return await task.value
    }

    /// Up to `count` places nearest to the point, nearest first, looked for within 25 km and
    /// then farther (100 km, 400 km) until one is found; `nil` when the server has no gazetteer.
    func nearest(latitude: Double, longitude: Double, count: Int = 5, logger: Logger) async -> [Near]? {
        guard let places = await places(logger: logger) else { return nil }
        for radius in [25_000.0, 100_000, 400_000] {
            let found = Self.nearest(in: places, latitude: latitude, longitude: longitude, within: radius, count: count)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// The band search: places within `radius` metres of the point (geodesic), nearest first.
    static func nearest(in places: [Place], latitude: Double, longitude: Double, within radius: Double, count: Int) -> [Near] {
        // A degree of latitude is at least 110.5 km; of longitude, that times the cosine.
        let band = radius / 110_000
        var low = 0, high = places.count
        while low < high {
            let middle = (low + high) / 2
            if places[middle].latitude < latitude - band { low = middle + 1 } else { high = middle }
        }
        let cosine = max(cos((abs(latitude) + band) * .pi / 180), 1e-6)
        var found: [Near] = []
        var index = low
        while index < places.count, places[index].latitude <= latitude + band {
            let place = places[index]
            index += 1
            let east = abs(remainder(place.longitude - longitude, 360))
            guard band >= 90 || east * cosine <= band else { continue }
            let line = Geodesy.inverse((latitude, longitude), (place.latitude, place.longitude))
            guard line.distance <= radius else { continue }
            found.append(Near(name: place.name, countryCode: place.countryCode, latitude: place.latitude, longitude: place.longitude,
                              distance: line.distance, azimuth: line.startAzimuth ?? 0))
        }
        return Array(found.sorted { $0.distance < $1.distance }.prefix(count))
    }
}
