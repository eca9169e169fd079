import Foundation
import GRDB
import Logging
import WaymarkCore

/// The recorder's local store (``RecordingStore``) in one SQLite file, through GRDB.
///
/// On a file the store uses a `DatabasePool` in write-ahead-log mode with `synchronous = FULL`:
/// every append is on disk when it returns, so a power cut loses at most the fixes not yet
/// appended. Routes get ids from `AUTOINCREMENT`, so an id is never given twice, even after
/// the newest route was deleted. Every method runs in one transaction on GRDB's own queues
/// (`async` read and write), never blocking the cooperative thread pool.
public final class SQLiteRecordingStore: RecordingStore {
    /// The file's path, or `:memory:`.
    public let path: String
    let writer: any DatabaseWriter
    let logger: Logger

    /// Opens (creating if needed) the store file at `path` and brings its tables up to date.
    ///
    /// Opening a file takes a few milliseconds of blocking I/O; do it once, at start-up.
    /// - Throws: ``RecordingStoreError/cannotOpen(path:reason:)`` naming the path and the reason,
    ///   or ``RecordingStoreError/newerVersion(path:)``.
    public convenience init(path: String, logger: Logger = Logger(label: "waymark.recorder.store")) throws {
        let writer: DatabasePool
        do {
            writer = try DatabasePool(path: path, configuration: Self.configuration())
            // After GRDB's WAL set-up, which chooses NORMAL; the pool's one writer connection keeps it.
            try writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        } catch {
            throw RecordingStoreError.cannotOpen(path: path, reason: Self.reason(error))
        }
        try self.init(writer: writer, path: path, logger: logger)
    }

    /// A store in memory, for tests and previews; it is gone when released.
    public static func inMemory(logger: Logger = Logger(label: "waymark.recorder.store")) throws -> SQLiteRecordingStore {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch {
            throw RecordingStoreError.cannotOpen(path: ":memory:", reason: reason(error))
        }
        return try SQLiteRecordingStore(writer: queue, path: ":memory:", logger: logger)
    }

    private init(writer: any DatabaseWriter, path: String, logger: Logger) throws {
        self.writer = writer
        self.path = path
        self.logger = logger
        do {
            let migrator = Self.migrator
            if try writer.read({ try migrator.hasBeenSuperseded($0) }) {
                throw RecordingStoreError.newerVersion(path: path)
            }
            try migrator.migrate(writer)
        } catch let error as RecordingStoreError {
            throw error
        } catch {
            throw RecordingStoreError.cannotOpen(path: path, reason: Self.reason(error))
        }
        logger.debug("opened the recorder's store", metadata: ["path": "\(path)"])
    }

    /// Connection settings: foreign keys on (fixes go with their route), and waiting up to 10 s
    /// for another process's write (the recorder and `waymark routes sync` may share the file).
    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "waymark.recorder.store"
        return configuration
    }

    /// SQLite's own words for an error, without GRDB's SQL echo.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return "the file is not a SQLite database (move it aside to start a new store)"
        case .SQLITE_CORRUPT:
            return "the file is damaged (move it aside to start a new store; `sqlite3 FILE .recover` may save its routes)"
        case .SQLITE_CANTOPEN:
            return "SQLite cannot open it (\(error.message ?? "unable to open database file"); is the folder missing, or is the path a folder?)"
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
            return "it is read-only (\(error.message ?? "permission denied"))"
        case .SQLITE_FULL:
            return "the disk is full"
        default:
            return error.message ?? "\(error)"
        }
    }

    /// Runs a write transaction, turning database failures into ``RecordingStoreError/failed(path:operation:reason:)``.
    func write<T: Sendable>(_ operation: String, _ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.write(updates)
        } catch let error as DatabaseError {
            throw RecordingStoreError.failed(path: path, operation: operation, reason: Self.reason(error))
        }
    }

    /// Runs a read, turning database failures into ``RecordingStoreError/failed(path:operation:reason:)``.
    func read<T: Sendable>(_ operation: String, _ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.read(value)
        } catch let error as DatabaseError {
            throw RecordingStoreError.failed(path: path, operation: operation, reason: Self.reason(error))
        }
    }
}
