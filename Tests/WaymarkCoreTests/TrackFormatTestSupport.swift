import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

/// Helpers shared by the track-format tests.
enum TrackTestSupport {
    /// A UTC instant from an ISO 8601 literal, parsed by Foundation (independently of the readers).
    static func date(_ iso: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = iso.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        guard let date = formatter.date(from: iso) else { fatalError("bad test literal \(iso)") }
        return date
    }

    /// Reads a fixture from the shared fixtures folder through the public API.
    static func readFixture(_ path: String) throws -> [Track] {
        try TrackFile.read(contentsOf: Fixtures.url(path))
    }

    /// Reads in-memory text as a file called `name`.
    static func read(_ text: String, as name: String) throws -> [Track] {
        try TrackFile.read(Data(text.utf8), fileName: name)
    }

    /// The error thrown by `body`, which must be a `TrackFormatError`.
    static func formatError(_ body: () throws -> [Track], sourceLocation: SourceLocation = #_sourceLocation) -> TrackFormatError? {
        do {
            let tracks = try body()
            Issue.record("expected a TrackFormatError, got \(tracks.count) tracks", sourceLocation: sourceLocation)
            return nil
        } catch let error as TrackFormatError {
            return error
        } catch {
            Issue.record("expected a TrackFormatError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

extension Fix {
    /// Whether two fixes agree within 1e-7° and 1 ms (and 1 mm of altitude).
    func isClose(to other: Fix, checkAccuracy: Bool = false) -> Bool {
        guard abs(latitude - other.latitude) <= 1e-7, abs(longitude - other.longitude) <= 1e-7,
              abs(time.timeIntervalSince(other.time)) <= 0.001 else { return false }
        switch (altitude, other.altitude) {
        case (nil, nil): break
        case let (a?, b?): if abs(a - b) > 0.001 { return false }
        default: return false
        }
        if checkAccuracy {
            switch (accuracy, other.accuracy) {
            case (nil, nil): break
            case let (a?, b?): if abs(a - b) > 0.001 { return false }
            default: return false
            }
        }
        return true
    }
}
