import Foundation

/// Locates the shared real-world test files: `WAYMARK_FIXTURES`, or `../shared/fixtures` beside the clone.
public enum Fixtures {
    public static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["WAYMARK_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // Tests/WaymarkTestSupport/Fixtures.swift → package root → ../shared/fixtures
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures", isDirectory: true)
    }()

    public static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    public static func data(_ relativePath: String) throws -> Data { try Data(contentsOf: url(relativePath)) }
}

/// The package's root folder (for scripts such as scripts/make-photo).
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
