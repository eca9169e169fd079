import Foundation

/// Locates the shared real-world test files: `WAYMARK_FIXTURES`, or `../shared/fixtures` beside the clone.
enum Fixtures {
    static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["WAYMARK_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // Tests/WaymarkCLITests/Fixtures.swift → package root → ../shared/fixtures
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures", isDirectory: true)
    }()

    static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    static func data(_ relativePath: String) throws -> Data { try Data(contentsOf: url(relativePath)) }
}
