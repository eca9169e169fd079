import Foundation
import Testing

/// #28: an area reads and writes its own tables and reaches another area only through what that
/// area offers (``PhotoService``, ``PhotoClaims``, ``PhotoCompanions``). This reads the server's
/// sources: a table is named by its migration (`CreateTasks.photos`), so an area that names
/// another area's migration touches that area's table; and an area that makes another area's
/// store (`SQLTaskStore(…)`) reads its tables too. Only the composition (`Application/`, which
/// makes every store for ``ServerStores``) names them all.
@Suite("Area boundaries")
struct AreaBoundaryTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/WaymarkServer")

    /// What is left of one area naming another's tables, and why. Each is the schema's, not a
    /// query through another area's data: foreign keys to `photos` (a task's or scene's photo is
    /// deleted with it), the receipt column that the receipt area adds to `photos`, and the
    /// scenes' nearby search, which finds scenes by their reference photo's place in the photos'
    /// spatial index (scenes have no place of their own yet).
    static let known: Set<String> = [
        "Scenes → CreatePhotos", "Tasks → CreatePhotos", "Receipts → CreatePhotos", "Authentication → CreateWaymarkSchema",
    ]

    /// Every `Create…`, `Add…`, `Index…` or `Replace…` type (a migration) and every store of the
    /// database (`SQL…Store`, `Fluent…Store`) each area folder declares, and those it names.
    static func migrations(in folder: URL) throws -> (declared: Set<String>, named: Set<String>) {
        var declared = Set<String>(), named = Set<String>()
        let declaration = try Regex(#"(?m)^(?:struct|enum|final class) ((?:Create|Add|Index|Replace)[A-Z]\w*|(?:SQL|Fluent)[A-Z]\w*Store)\b"#)
        let use = try Regex(#"\b((?:Create|Add|Index|Replace)[A-Z]\w*(?=\.[a-z])|(?:SQL|Fluent)[A-Z]\w*Store\b)"#)
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: declaration) { declared.insert(String(match.output[1].substring ?? "")) }
            for match in text.matches(of: use) { named.insert(String(match.output[1].substring ?? "")) }
        }
        return (declared, named)
    }

    @Test("No area names another area's tables, but for the schema's known links")
    func boundaries() throws {
        let folders = try FileManager.default.contentsOfDirectory(at: Self.sources, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        var owner: [String: String] = [:]
        var named: [String: Set<String>] = [:]
        for folder in folders {
            let found = try Self.migrations(in: folder)
            for migration in found.declared { owner[migration] = folder.lastPathComponent }
            named[folder.lastPathComponent] = found.named
        }
        #expect(owner["CreateTasks"] == "Tasks" && owner["CreatePhotos"] == "Photos" && owner["SQLTaskStore"] == "Tasks",
                "the migrations and stores are read: \(owner)")
        var crossings = Set<String>()
        for (area, migrations) in named where area != "Application" {
            for migration in migrations {
                guard let other = owner[migration], other != area else { continue }
                crossings.insert("\(area) → \(migration)")
            }
        }
        #expect(crossings.subtracting(Self.known).isEmpty, "areas that name another area's tables: \(crossings.subtracting(Self.known).sorted())")
        #expect(!crossings.contains { $0.hasPrefix("Photos → ") }, "the photo area reads no other area's tables")
    }
}
