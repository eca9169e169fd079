import Fluent
import Vapor

/// The `/sky` page's satellites (#15), from the orbit data given with `--tle`; no account,
/// nothing stored.
struct SkyArea: ServerArea {
    var contract: String { "sky" }

    func register(_ context: AreaContext) async throws {
        let configuration = context.configuration
        if let orbits = configuration.orbitData {
            // One line at start; a warning when broken entries were skipped, naming their files.
            var metadata: Logger.Metadata = [
                "satellites": "\(orbits.catalogue.satellites.count)",
                "files": "\(orbits.files.count)",
                "brokenEntriesSkipped": "\(orbits.brokenEntries)",
                "otherSatellitesLeftOut": "\(orbits.files.reduce(0) { $0 + $1.otherSatellites })",
            ]
            if orbits.brokenEntries > 0 {
                metadata["brokenEntriesIn"] = "\(orbits.files.filter { $0.brokenEntries > 0 }.map { "\($0.path) (\($0.brokenEntries))" }.joined(separator: ", "))"
            }
            context.app.logger.log(level: orbits.brokenEntries > 0 ? .warning : .notice, "orbit data loaded", metadata: metadata)
        }
        SkyController(orbits: configuration.orbitData, clock: context.clock).register(on: context.routes)
    }
}
