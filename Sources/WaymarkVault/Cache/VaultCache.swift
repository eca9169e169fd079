import Foundation
import GRDB

/// Why the vault's cache could not be used.
public enum VaultCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened or made (the path and SQLite's reason).
    case cannotOpen(path: String, reason: String)
    /// A read or write of the open file failed.
    case failed(operation: String, reason: String)
    /// A repository name that is empty, too long, or holds a slash, whitespace or a control character.
    case invalidRepository(String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): "cannot open the vault's cache \(path): \(reason)"
        case let .failed(operation, reason): "the vault's cache failed to \(operation): \(reason)"
        case let .invalidRepository(name): "\"\(name)\" is not a repository name (e.g. eu.ownyourdata.location)"
        }
    }
}

/// The location records waiting for the vault, in one SQLite file (GRDB), with the import
/// history, the last successful upload and the repository option of the User screen.
///
/// The file is readable only by the user (0600, in a 0700 folder): it holds where they have been.
public final class VaultCache: Sendable {
    /// The file's path.
    public let path: String
    private let queue: DatabaseQueue

    /// The repository of the seed's requirement 4b.
    public static let defaultRepository = "eu.ownyourdata.location"

    /// Opens (creating if needed) the cache file, mode 0600, and its folder, mode 0700.
    public init(path: URL) throws {
        self.path = path.path
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true,
                                        attributes: [.posixPermissions: 0o700])
            if !manager.fileExists(atPath: path.path) {
                guard manager.createFile(atPath: path.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw VaultCacheError.cannotOpen(path: path.path, reason: "the file cannot be made")
                }
            }
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path.path)
        } catch let error as VaultCacheError {
            throw error
        } catch {
            throw VaultCacheError.cannotOpen(path: path.path, reason: "\(error.localizedDescription)")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "waymark.vault.cache"
        do {
            queue = try DatabaseQueue(path: path.path, configuration: configuration)
            try Self.migrator.migrate(queue)
        } catch {
            throw VaultCacheError.cannotOpen(path: path.path, reason: Self.reason(error))
        }
    }

    /// `vault.sqlite` beside the recorder's store: `$WAYMARK_HOME`, else `$XDG_DATA_HOME/waymark`
    /// (absolute only), else `~/.local/share/waymark` (macOS: `~/Library/Application Support/Waymark`).
    ///
    /// The folder rule is WaymarkRecorder's `RecorderPaths.defaultFolder`, copied so that the vault
    /// does not depend on the recorder; keep the two alike. Creates nothing.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let folder: URL
        if let home = environment["WAYMARK_HOME"], !home.isEmpty {
            folder = URL(fileURLWithPath: home, isDirectory: true)
        } else if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            folder = URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("waymark", isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            #if os(macOS)
            folder = home.appendingPathComponent("Library/Application Support/Waymark", isDirectory: true)
            #else
            folder = home.appendingPathComponent(".local/share/waymark", isDirectory: true)
            #endif
        }
        return folder.appendingPathComponent("vault.sqlite")
    }

    // MARK: - Records

    /// Adds the records not already cached (same timestamp, latitude and longitude) and returns
    /// how many were added. A `source` (e.g. `route:<nonce>`, `file:<sha256>`) is remembered: the
    /// same source adds nothing a second time, even after its records were uploaded or cleared.
    public func add(_ records: [VaultRecord], source: String?) throws -> Int {
        try write("add records") { db in
            if let source {
                if try Row.fetchOne(db, sql: "SELECT 1 FROM source WHERE name = ?", arguments: [source]) != nil { return 0 }
                try db.execute(sql: "INSERT INTO source (name, importedAt) VALUES (?, ?)", arguments: [source, Date().timeIntervalSince1970])
            }
            var added = 0
            // A position JSON cannot carry (NaN, infinity) is no record.
            for record in records where record.latitude.isFinite && record.longitude.isFinite {
                try db.execute(sql: "INSERT OR IGNORE INTO record (timestamp, latitude, longitude, json) VALUES (?, ?, ?, ?)",
                               arguments: [record.timestamp, record.latitude, record.longitude, String(decoding: record.json(), as: UTF8.self)])
                added += db.changesCount
            }
            return added
        }
    }

    /// Up to `limit` cached records, oldest first, with their ids for ``remove(_:)``.
    public func pending(limit: Int) throws -> [(id: Int64, record: VaultRecord)] {
        try pending(limit: limit, after: nil)
    }

    /// Up to `limit` cached records after `position` (in the order oldest first, then by id):
    /// a push pages past the records the vault refused, which stay cached.
    func pending(limit: Int, after position: (timestamp: String, id: Int64)?) throws -> [(id: Int64, record: VaultRecord)] {
        let rows = try read("read records") { db in
            let found: [Row] = if let position {
                try Row.fetchAll(db, sql: "SELECT id, json FROM record WHERE (timestamp, id) > (?, ?) ORDER BY timestamp, id LIMIT ?",
                                 arguments: [position.timestamp, position.id, max(0, limit)])
            } else {
                try Row.fetchAll(db, sql: "SELECT id, json FROM record ORDER BY timestamp, id LIMIT ?", arguments: [max(0, limit)])
            }
            return found.map { (id: $0["id"] as Int64, json: $0["json"] as String) }
        }
        let decoder = JSONDecoder()
        return try rows.map { row in
            do {
                return (row.id, try decoder.decode(VaultRecord.self, from: Data(row.json.utf8)))
            } catch {
                throw VaultCacheError.failed(operation: "read record \(row.id)", reason: "its JSON does not decode")
            }
        }
    }

    /// Removes the records with these ids (the written ones).
    public func remove(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        _ = try write("remove records") { db in
            try Table("record").filter(keys: ids).deleteAll(db)
        }
    }

    /// How many records are cached.
    public func count() throws -> Int {
        try read("count records") { db in try Table("record").fetchCount(db) }
    }

    /// Deletes every cached record (the import history stays, so a cleared route is not added
    /// again by mistake) and returns how many were deleted.
    public func clear() throws -> Int {
        try write("clear the cache") { db in try Table("record").deleteAll(db) }
    }

    // MARK: - Settings

    /// When a push last wrote something, or nil.
    public func lastUpload() throws -> Date? {
        try setting("lastUpload").flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
    }

    public func setLastUpload(_ date: Date) throws {
        try setSetting("lastUpload", String(date.timeIntervalSince1970))
    }

    /// The repository for location records; ``defaultRepository`` until one is set.
    public func repository() throws -> String {
        try setting("repository") ?? Self.defaultRepository
    }

    /// Sets the repository; an empty name, one over 200 characters or with a slash, whitespace
    /// or control character is ``VaultCacheError/invalidRepository(_:)``.
    public func setRepository(_ repo: String) throws {
        guard Self.isRepositoryName(repo) else { throw VaultCacheError.invalidRepository(repo) }
        try setSetting("repository", repo)
    }

    /// Whether `name` can be a repository identifier (one URL path segment of visible characters).
    public static func isRepositoryName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 200
            && name.unicodeScalars.allSatisfy { !$0.properties.isWhitespace && $0.value >= 0x20 && $0.value != 0x7F && $0 != "/" && $0 != "\\" }
    }

    private func setting(_ key: String) throws -> String? {
        try read("read \(key)") { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    private func setSetting(_ key: String, _ value: String) throws {
        try write("write \(key)") { db in
            try db.execute(sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        }
    }

    // MARK: - SQLite

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE record (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    timestamp TEXT NOT NULL,
                    latitude REAL NOT NULL,
                    longitude REAL NOT NULL,
                    json TEXT NOT NULL,
                    UNIQUE (timestamp, latitude, longitude)
                );
                CREATE TABLE source (name TEXT PRIMARY KEY, importedAt REAL NOT NULL);
                CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                """)
        }
        return migrator
    }

    private func write<T>(_ operation: String, _ updates: (Database) throws -> T) throws -> T {
        do {
            return try queue.write(updates)
        } catch let error as VaultCacheError {
            throw error
        } catch {
            throw VaultCacheError.failed(operation: operation, reason: Self.reason(error))
        }
    }

    private func read<T>(_ operation: String, _ value: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(value)
        } catch {
            throw VaultCacheError.failed(operation: operation, reason: Self.reason(error))
        }
    }

    /// SQLite's own words, without GRDB's SQL echo.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_NOTADB: return "the file is not a SQLite database"
        case .SQLITE_CORRUPT: return "the file is damaged"
        case .SQLITE_FULL: return "the disk is full"
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH: return "it is read-only (\(error.message ?? "permission denied"))"
        default: return error.message ?? "\(error)"
        }
    }
}
