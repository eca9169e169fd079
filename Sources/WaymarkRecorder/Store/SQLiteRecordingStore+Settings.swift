import Foundation
import GRDB
import WaymarkCore

extension SQLiteRecordingStore {
    /// The saved settings, or the defaults when none were saved.
    public func settings() async throws -> RecorderSettings {
        try await read("read the settings") { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT accuracy_threshold, alert_delay, qr_period, wifi_only, units FROM settings WHERE id = 1
                """) else { return RecorderSettings() }
            return RecorderSettings(accuracyThreshold: row["accuracy_threshold"], alertDelay: row["alert_delay"],
                                    qrPeriod: row["qr_period"], wifiOnly: row["wifi_only"],
                                    units: UnitSystem(rawValue: row["units"]) ?? .metric)
        }
    }

    public func save(_ settings: RecorderSettings) async throws {
        try await write("save the settings") { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO settings (id, accuracy_threshold, alert_delay, qr_period, wifi_only, units)
                VALUES (1, ?, ?, ?, ?, ?)
                """, arguments: [settings.accuracyThreshold, settings.alertDelay, settings.qrPeriod, settings.wifiOnly,
                                 settings.units.rawValue])
        }
    }

    public func passphraseVerifier() async throws -> PassphraseVerifier? {
        try await read("read the passphrase verifier") { db in
            try Row.fetchOne(db, sql: "SELECT n, r, p, salt, hash FROM passphrase_verifier WHERE id = 1").map { row in
                PassphraseVerifier(n: row["n"], r: row["r"], p: row["p"], salt: row["salt"], hash: row["hash"])
            }
        }
    }

    public func save(_ verifier: PassphraseVerifier?) async throws {
        try await write(verifier == nil ? "delete the passphrase verifier" : "save the passphrase verifier") { db in
            if let verifier {
                try db.execute(sql: "INSERT OR REPLACE INTO passphrase_verifier (id, n, r, p, salt, hash) VALUES (1, ?, ?, ?, ?, ?)",
                               arguments: [verifier.n, verifier.r, verifier.p, verifier.salt, verifier.hash])
            } else {
                try db.execute(sql: "DELETE FROM passphrase_verifier")
            }
        }
    }
}
