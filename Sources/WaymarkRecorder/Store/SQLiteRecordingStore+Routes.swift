import Foundation
import GRDB
import WaymarkCore

extension SQLiteRecordingStore {
    // MARK: Recording

    public func startRoute(nonce: String, created: Date, qrPeriod: Int) async throws -> Int64 {
        let id = try await write("start a route") { db in
            try db.execute(sql: "INSERT INTO routes (nonce, created, state, qr_period) VALUES (?, ?, 'recording', ?)",
                           arguments: [nonce, created.timeIntervalSince1970, qrPeriod])
            return db.lastInsertedRowID
        }
        logger.debug("started a route", metadata: ["route": "\(id)"])
        return id
    }

    public func append(_ fixes: [Fix], track: Int, route: Int64, distance: Double, duration: Double) async throws {
        try await write("save the new fixes") { db in
            try Self.require(route, in: .recording, to: "take new fixes", db)
            var seq = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(seq) + 1, 0) FROM fixes WHERE route_id = ? AND track = ?",
                                         arguments: [route, track]) ?? 0
            let insert = try db.cachedStatement(sql: """
                INSERT INTO fixes (route_id, track, seq, lat, lon, alt, accuracy, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for fix in fixes {
                try insert.execute(arguments: [route, track, seq, fix.latitude, fix.longitude, fix.altitude, fix.accuracy,
                                               fix.time.timeIntervalSince1970])
                seq += 1
            }
            try db.execute(sql: "UPDATE routes SET distance = ?, duration = ? WHERE id = ?", arguments: [distance, duration, route])
        }
    }

    public func queue(route: Int64, upload: RouteUpload, distance: Double, duration: Double) async throws {
        try await write("queue the route for upload") { db in
            try Self.require(route, in: .recording, to: "be queued for upload", db)
            try db.execute(sql: """
                UPDATE routes SET state = 'queued', distance = ?, duration = ?, envelope = ?, lookup_key = ?, delete_token = ?,
                    delete_token_hash = ?, idempotency_key = ?, upload_attempts = 0, next_attempt = NULL, last_error = NULL
                WHERE id = ?
                """, arguments: [distance, duration, upload.envelope, upload.lookupKey, upload.deleteToken,
                                 upload.deleteTokenHash, upload.idempotencyKey, route])
        }
        logger.debug("queued a route for upload", metadata: ["route": "\(route)"])
    }

    // MARK: Reading

    public func routes() async throws -> [StoredRoute] {
        try await read("list the routes") { db in
            try Row.fetchAll(db, sql: """
                SELECT r.id, r.nonce, r.created, r.state, r.server_route_id, r.qr_period, r.distance, r.duration,
                       r.upload_attempts, r.next_attempt, r.last_error,
                       (SELECT COUNT(DISTINCT f.track) FROM fixes f WHERE f.route_id = r.id) AS track_count,
                       (SELECT COUNT(*) FROM fixes f WHERE f.route_id = r.id) AS fix_count
                FROM routes r
                ORDER BY r.created DESC, r.id DESC
                """).map(Self.storedRoute)
        }
    }

    public func route(_ id: Int64) async throws -> StoredRoute? {
        try await read("read a route") { db in
            try Self.fetchRoute(id, db)
        }
    }

    public func tracks(of id: Int64) async throws -> [Track] {
        try await read("read the route's fixes") { db in
            var tracks: [Track] = []
            var current: Int64?
            let rows = try Row.fetchCursor(db, sql: """
                SELECT track, lat, lon, alt, accuracy, time FROM fixes WHERE route_id = ? ORDER BY track, seq
                """, arguments: [id])
            while let row = try rows.next() {
                let track: Int64 = row["track"]
                if track != current {
                    tracks.append(Track(fixes: []))
                    current = track
                }
                tracks[tracks.count - 1].fixes.append(Fix(latitude: row["lat"], longitude: row["lon"], altitude: row["alt"],
                                                          accuracy: row["accuracy"], time: Date(timeIntervalSince1970: row["time"])))
            }
            return tracks
        }
    }

    // MARK: Helpers

    /// A route with its counts, or nil.
    static func fetchRoute(_ id: Int64, _ db: Database) throws -> StoredRoute? {
        try Row.fetchOne(db, sql: """
            SELECT r.id, r.nonce, r.created, r.state, r.server_route_id, r.qr_period, r.distance, r.duration,
                   r.upload_attempts, r.next_attempt, r.last_error,
                   (SELECT COUNT(DISTINCT f.track) FROM fixes f WHERE f.route_id = r.id) AS track_count,
                   (SELECT COUNT(*) FROM fixes f WHERE f.route_id = r.id) AS fix_count
            FROM routes r
            WHERE r.id = ?
            """, arguments: [id]).map(storedRoute)
    }

    /// Throws unless the route exists and is in `state`.
    static func require(_ id: Int64, in state: RouteState, to operation: String, _ db: Database) throws {
        guard let text = try String.fetchOne(db, sql: "SELECT state FROM routes WHERE id = ?", arguments: [id]) else {
            throw RecordingStoreError.noSuchRoute(id)
        }
        let actual = RouteState(rawValue: text) ?? .recording
        guard actual == state else { throw RecordingStoreError.wrongState(route: id, state: actual, operation: operation) }
    }

    /// A route from a row of the route queries above.
    static func storedRoute(_ row: Row) -> StoredRoute {
        let id: Int64 = row["id"], nonce: String = row["nonce"], created: Double = row["created"], state: String = row["state"]
        let serverRouteID: String? = row["server_route_id"], qrPeriod: Int = row["qr_period"]
        let distance: Double = row["distance"], duration: Double = row["duration"]
        let trackCount: Int = row["track_count"], fixCount: Int = row["fix_count"], attempts: Int = row["upload_attempts"]
        let nextAttempt: Double? = row["next_attempt"], lastError: String? = row["last_error"]
        return StoredRoute(
            id: id, nonce: nonce, created: Date(timeIntervalSince1970: created),
            // The table's CHECK allows nothing else.
            state: RouteState(rawValue: state) ?? .recording,
            serverRouteID: serverRouteID, qrPeriod: qrPeriod, distance: distance, duration: duration,
            trackCount: trackCount, fixCount: fixCount, uploadAttempts: attempts,
            nextAttempt: nextAttempt.map(Date.init(timeIntervalSince1970:)), lastError: lastError
        )
    }
}
