internal import CWaymarkMedia
import Foundation

/// Argon2id password hashing with libsodium (`crypto_pwhash_str`), for the server's accounts.
///
/// Hashing is deliberately slow and memory-hungry (the interactive cost: 2 passes over 64 MiB
/// take about a tenth of a second): call it off any event loop. The encoded hash names its
/// algorithm, cost and salt, so a hash made at one cost still verifies after the cost changes.
public struct PasswordHash: Sendable, Equatable {
    /// The work of one hash: passes over memory, and the memory in bytes.
    public struct Cost: Sendable, Equatable {
        public var operations: UInt64
        public var memoryBytes: Int

        public init(operations: UInt64, memoryBytes: Int) {
            self.operations = operations
            self.memoryBytes = memoryBytes
        }

        /// libsodium's interactive cost, its recommendation for online sign-in.
        public static var interactive: Cost {
            Cost(operations: UInt64(wm_password_opslimit_interactive()), memoryBytes: Int(wm_password_memlimit_interactive()))
        }

        /// libsodium's smallest allowed cost: for tests, never for real passwords.
        public static let minimum = Cost(operations: 1, memoryBytes: 8 * 1024)
    }

    /// The encoded hash, e.g. `$argon2id$v=19$m=65536,t=2,p=1$…$…`; safe to store, never to show.
    public let encoded: String

    /// An encoded hash as stored.
    public init(encoded: String) {
        self.encoded = encoded
    }

    /// Hashes `password` with a fresh random salt.
    /// - Throws: ``MediaError`` when libsodium fails (out of memory, or a cost it refuses).
    public init(hashing password: String, cost: Cost = .interactive) throws {
        var output = [CChar](repeating: 0, count: Int(WM_PASSWORD_HASH_BYTES))
        let bytes = Array(password.utf8)
        try callShim(file: "password") { err, len in
            bytes.withUnsafeBufferPointer { passwordBytes in
                passwordBytes.withMemoryRebound(to: CChar.self) { chars in
                    wm_password_hash(chars.baseAddress, chars.count, cost.operations, cost.memoryBytes, &output, err, len)
                }
            }
        }
        encoded = String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one this hash was made from (false too for a malformed hash).
    public func verify(_ password: String) -> Bool {
        let bytes = Array(password.utf8)
        return bytes.withUnsafeBufferPointer { passwordBytes in
            passwordBytes.withMemoryRebound(to: CChar.self) { chars in
                wm_password_verify(encoded, chars.baseAddress, chars.count) == 1
            }
        }
    }

    /// Whether the hash was made at another cost than `cost` (or is malformed), so that it
    /// should be made again from the password at the next successful sign-in.
    public func needsRehash(at cost: Cost = .interactive) -> Bool {
        wm_password_needs_rehash(encoded, cost.operations, cost.memoryBytes) != 0
    }
}
