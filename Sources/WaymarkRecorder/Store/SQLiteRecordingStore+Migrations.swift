import GRDB

extension SQLiteRecordingStore {
    /// The store's schema, one migration per change; a migration, once released, never changes.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: routes, fixes, queues, settings, verifier") { db in
            // AUTOINCREMENT: a deleted route's id is never given to another route, so
            // `waymark routes show 12` can never show a different route than it did yesterday.
            try db.execute(sql: """
                CREATE TABLE routes (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    nonce TEXT NOT NULL UNIQUE,
                    created REAL NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('recording', 'queued', 'stored')),
                    server_route_id TEXT,
                    qr_period INTEGER NOT NULL,
                    distance REAL NOT NULL DEFAULT 0,
                    duration REAL NOT NULL DEFAULT 0,
                    envelope BLOB,
                    lookup_key TEXT,
                    delete_token TEXT,
                    delete_token_hash TEXT,
                    idempotency_key TEXT,
                    upload_attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt REAL,
                    last_error TEXT,
                    CHECK (state = 'recording' OR (envelope IS NOT NULL AND lookup_key IS NOT NULL AND delete_token IS NOT NULL
                                                   AND delete_token_hash IS NOT NULL AND idempotency_key IS NOT NULL)),
                    CHECK (state <> 'stored' OR server_route_id IS NOT NULL)
                )
                """)
            try db.execute(sql: "CREATE INDEX routes_by_created ON routes (created)")
            try db.execute(sql: "CREATE INDEX routes_by_queue ON routes (state, next_attempt)")
            try db.execute(sql: """
                CREATE TABLE fixes (
                    route_id INTEGER NOT NULL REFERENCES routes (id) ON DELETE CASCADE,
                    track INTEGER NOT NULL,
                    seq INTEGER NOT NULL,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    alt REAL,
                    accuracy REAL,
                    time REAL NOT NULL,
                    PRIMARY KEY (route_id, track, seq)
                ) WITHOUT ROWID
                """)
            // route_id is the local id the route had (never reused); no foreign key, the route is gone.
            try db.execute(sql: """
                CREATE TABLE pending_deletes (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    route_id INTEGER NOT NULL,
                    server_route_id TEXT,
                    lookup_key TEXT NOT NULL,
                    delete_token TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt REAL
                )
                """)
            try db.execute(sql: """
                CREATE TABLE settings (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    accuracy_threshold REAL NOT NULL,
                    alert_delay REAL NOT NULL,
                    qr_period INTEGER NOT NULL,
                    wifi_only INTEGER NOT NULL,
                    units TEXT NOT NULL
                )
                """)
            try db.execute(sql: """
                CREATE TABLE passphrase_verifier (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    n INTEGER NOT NULL,
                    r INTEGER NOT NULL,
                    p INTEGER NOT NULL,
                    salt BLOB NOT NULL,
                    hash BLOB NOT NULL
                )
                """)
        }
        return migrator
    }
}
