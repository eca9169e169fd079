import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

/// Tools nobody here wrote that make and read track files for the reader tests: the venv's
/// Python (fit-tool, fitparse, gpxpy, through scripts/track-files.py) and gpsbabel.
///
/// A test that needs a tool it cannot find fails with a message saying how to install it.
enum TrackReferenceTools {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The repository's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The venv's Python, which has the pinned tools of scripts/python-tools.txt.
    static func python() throws -> String {
        let path = root.appendingPathComponent(".build-venv/tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Missing(description: "\(path) is missing — run scripts/bootstrap to install fit-tool, fitparse and gpxpy")
        }
        return path
    }

    /// Runs scripts/track-files.py with `arguments` and returns its standard output.
    @discardableResult
    static func script(_ arguments: [String]) async throws -> Data {
        try await ExternalTool.run([try python(), root.appendingPathComponent("scripts/track-files.py").path] + arguments)
    }

    /// Runs gpsbabel, which must be installed (scripts/bootstrap installs it).
    static func gpsbabel(_ arguments: [String]) async throws {
        let found = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/gpsbabel") }
        guard found else { throw Missing(description: "gpsbabel is not installed — run scripts/bootstrap (apt/brew package gpsbabel)") }
        try await ExternalTool.run(["gpsbabel"] + arguments)
    }

    /// The fixes a reference reader found: `[[unix seconds, lat, lon, alt or null], …]` as JSON.
    static func referenceFixes(_ kind: String, _ url: URL) async throws -> [Fix] {
        let json = try await script(["read", kind, url.path])
        guard let rows = try JSONSerialization.jsonObject(with: json) as? [[Any]] else {
            throw Missing(description: "track-files.py read \(kind) printed no list of fixes")
        }
        return rows.map { row in
            Fix(latitude: row[1] as? Double ?? .nan, longitude: row[2] as? Double ?? .nan,
                altitude: row[3] as? Double, time: Date(timeIntervalSince1970: row[0] as? Double ?? .nan))
        }
    }

    /// Expects Waymark's fixes to equal the reference's one by one, within the given tolerances.
    static func expectSame(_ fixes: [Fix], _ reference: [Fix], degrees: Double = 1e-7, metres: Double = 0.001, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(fixes.count == reference.count, "Waymark read \(fixes.count) fixes, the reference \(reference.count)", sourceLocation: sourceLocation)
        for (index, (a, b)) in zip(fixes, reference).enumerated() {
            let altitudeOK: Bool
            switch (a.altitude, b.altitude) {
            case (nil, nil): altitudeOK = true
            case let (x?, y?): altitudeOK = abs(x - y) <= metres
            default: altitudeOK = false
            }
            let same = abs(a.latitude - b.latitude) <= degrees && abs(a.longitude - b.longitude) <= degrees
                && abs(a.time.timeIntervalSince(b.time)) <= 0.001 && altitudeOK
            #expect(same, "fix \(index): Waymark \(a), reference \(b)", sourceLocation: sourceLocation)
            if !same { return }
        }
    }
}
