import Foundation
import GRDB
import WaymarkCore

extension SQLiteRecordingStore {
    // MARK: Upload queue

    public func dueUploads(now: Date) async throws -> [(route: StoredRoute, upload: RouteUpload)] {
        let due = try await read("list the routes to upload") { db in
            try Row.fetchAll(db, sql: """
                SELECT r.id, r.nonce, r.created, r.state, r.server_route_id, r.qr_period, r.distance, r.duration,
                       r.upload_attempts, r.next_attempt, r.last_error,
                       (SELECT COUNT(DISTINCT f.track) FROM fixes f WHERE f.route_id = r.id) AS track_count,
                       (SELECT COUNT(*) FROM fixes f WHERE f.route_id = r.id) AS fix_count,
                       r.envelope, r.lookup_key, r.delete_token, r.delete_token_hash, r.idempotency_key
                FROM routes r
                WHERE r.state = 'queued' AND (r.next_attempt IS NULL OR r.next_attempt <= ?)
                ORDER BY r.created, r.id
                """, arguments: [now.timeIntervalSince1970]).map { row in
                DueUpload(route: Self.storedRoute(row),
                          upload: RouteUpload(envelope: row["envelope"], lookupKey: row["lookup_key"], deleteToken: row["delete_token"],
                                              deleteTokenHash: row["delete_token_hash"], idempotencyKey: row["idempotency_key"]))
            }
        }
        return due.map { ($0.route, $0.upload) }
    }

    public func markStored(route: Int64, serverRouteID: String) async throws {
        try await write("record the stored route") { db in
            try db.execute(sql: """
                UPDATE routes SET state = 'stored', server_route_id = ?, next_attempt = NULL, last_error = NULL
                WHERE id = ? AND state IN ('queued', 'stored')
                """, arguments: [serverRouteID, route])
            guard db.changesCount == 0 else { return }
            // Deleted while its upload was under way: its remote delete now knows the server's id.
            try db.execute(sql: "UPDATE pending_deletes SET server_route_id = ? WHERE route_id = ? AND server_route_id IS NULL",
                           arguments: [serverRouteID, route])
            guard db.changesCount == 0 else { return }
            try Self.require(route, in: .queued, to: "be marked as stored", db)
        }
        logger.debug("route stored", metadata: ["route": "\(route)", "server_route_id": "\(serverRouteID)"])
    }

    public func markUploadFailed(route: Int64, error: String, nextAttempt: Date) async throws {
        try await write("record the failed upload") { db in
            try db.execute(sql: """
                UPDATE routes SET upload_attempts = upload_attempts + 1, next_attempt = ?, last_error = ?
                WHERE id = ? AND state = 'queued'
                """, arguments: [nextAttempt.timeIntervalSince1970, error, route])
            // A route deleted or stored meanwhile has nothing left to retry.
        }
    }

    // MARK: Deleting

    public func delete(route: Int64) async throws -> Bool {
        let deleted = try await write("delete the route") { db -> Bool in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT state, server_route_id, lookup_key, delete_token FROM routes WHERE id = ?
                """, arguments: [route]) else { return false }
            let state = RouteState(rawValue: row["state"]) ?? .recording
            let lookupKey: String? = row["lookup_key"], deleteToken: String? = row["delete_token"]
            // A queued route may have reached the server even though no answer came back, so it
            // gets a remote delete too (found by lookup key); a recording route was never sent.
            if state != .recording, let lookupKey, let deleteToken {
                try db.execute(sql: """
                    INSERT INTO pending_deletes (route_id, server_route_id, lookup_key, delete_token) VALUES (?, ?, ?, ?)
                    """, arguments: [route, row["server_route_id"] as String?, lookupKey, deleteToken])
            }
            try db.execute(sql: "DELETE FROM routes WHERE id = ?", arguments: [route])
            return true
        }
        if deleted { logger.debug("route deleted locally", metadata: ["route": "\(route)"]) }
        return deleted
    }

    public func dueDeletes(now: Date) async throws -> [PendingDelete] {
        try await read("list the remote deletes") { db in
            try Row.fetchAll(db, sql: """
                SELECT id, server_route_id, lookup_key, delete_token, attempts, next_attempt FROM pending_deletes
                WHERE next_attempt IS NULL OR next_attempt <= ?
                ORDER BY id
                """, arguments: [now.timeIntervalSince1970]).map { row in
                let next: Double? = row["next_attempt"]
                return PendingDelete(id: row["id"], serverRouteID: row["server_route_id"], lookupKey: row["lookup_key"],
                                     deleteToken: row["delete_token"], attempts: row["attempts"],
                                     nextAttempt: next.map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func markDeleted(_ id: Int64) async throws {
        try await write("record the remote delete") { db in
            try db.execute(sql: "DELETE FROM pending_deletes WHERE id = ?", arguments: [id])
        }
    }

    public func markDeleteFailed(_ id: Int64, nextAttempt: Date) async throws {
        try await write("record the failed remote delete") { db in
            try db.execute(sql: "UPDATE pending_deletes SET attempts = attempts + 1, next_attempt = ? WHERE id = ?",
                           arguments: [nextAttempt.timeIntervalSince1970, id])
        }
    }
}

/// A due upload as read in one transaction.
private struct DueUpload: Sendable {
    var route: StoredRoute
    var upload: RouteUpload
}
