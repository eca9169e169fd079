#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation

/// Keeps the sign-in in the freedesktop Secret Service (GNOME Keyring, KWallet, KeePassXC) with
/// libsecret's `secret-tool`, as one item with the attributes `service` = `waymark-vault`.
///
/// The secret (the session's JSON) goes to `secret-tool store` on its standard input, never on its
/// command line, where other users could read it in the process list; `secret-tool lookup` prints it
/// on its standard output, a pipe to this process. Nothing of it is written to a file here.
public struct SecretServiceStore: VaultSecretStore {
    /// The item's attributes, as `secret-tool` takes them.
    public static let attributes = ["service", "waymark-vault"]
    /// The item's label, as a keyring manager (Seahorse) shows it.
    public static let label = "Waymark: data vault sign-in"

    /// `secret-tool`: a path, or a name looked up on `PATH`.
    public var executable: String
    /// The environment `secret-tool` runs with (its `DBUS_SESSION_BUS_ADDRESS` finds the keyring).
    public var environment: [String: String]
    /// How long `secret-tool` may take before it counts as unavailable (a keyring that waits for a
    /// password prompt nobody sees).
    public var timeout: DispatchTimeInterval

    public init(executable: String = "secret-tool", environment: [String: String], timeout: DispatchTimeInterval = .seconds(10)) {
        self.executable = executable
        self.environment = environment
        self.timeout = timeout
    }

    public var name: String { "secret-service" }
    public var kind: VaultSecretStoreKind { .secretService }

    /// Whether a sign-in can be kept here: `secret-tool` is installed and a lookup gets an answer
    /// (found or not found) from a secret service on the session bus.
    public func isUsable() -> Bool {
        guard let path = resolvedExecutable() else { return false }
        guard let result = try? run(path, ["lookup"] + Self.attributes, input: nil, timeout: .seconds(3)) else { return false }
        return result.status == 0 || !result.reportsError
    }

    public func load() throws(VaultSecretStoreError) -> VaultSession? {
        let result = try secretTool(["lookup"] + Self.attributes)
        if result.status == 0 { return try VaultSession.decoded(result.stdout) }
        if !result.reportsError { return nil }
        throw .unavailable(result.errorText)
    }

    public func save(_ session: VaultSession) throws(VaultSecretStoreError) {
        let data = try session.encoded()
        let result = try secretTool(["store", "--label=\(Self.label)"] + Self.attributes, input: data)
        guard result.status == 0 else { throw .unavailable(result.errorText) }
    }

    public func delete() throws(VaultSecretStoreError) {
        let result = try secretTool(["clear"] + Self.attributes)
        // `clear` fails without a message when there was nothing to clear.
        guard result.status == 0 || !result.reportsError else { throw .unavailable(result.errorText) }
    }

    // MARK: Running secret-tool

    struct Outcome {
        var status: Int32
        var stdout: Data
        var stderr: String
        /// `secret-tool` prefixes its own errors with `secret-tool:`; a lookup or clear that finds
        /// nothing exits 1 without one.
        var reportsError: Bool { stderr.contains("secret-tool:") }
        var errorText: String {
            let text = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? "secret-tool exited with status \(status)" : text
        }
    }

    private func secretTool(_ arguments: [String], input: Data? = nil) throws(VaultSecretStoreError) -> Outcome {
        guard let path = resolvedExecutable() else {
            throw .toolMissing
        }
        return try run(path, arguments, input: input, timeout: timeout)
    }

    /// The executable's path: as given when it contains a slash, else the first match on `PATH`.
    func resolvedExecutable() -> String? {
        if executable.contains("/") { return FileManager.default.isExecutableFile(atPath: executable) ? executable : nil }
        let path = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private func run(_ path: String, _ arguments: [String], input: Data?, timeout: DispatchTimeInterval) throws(VaultSecretStoreError) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            // The secret is put into the pipe before secret-tool starts: it is small (a pipe holds
            // 64 KiB), so the write cannot block, and it cannot meet a closed pipe (SIGPIPE).
            if let input {
                guard input.count < 60_000 else { throw VaultSecretStoreError.failed("the sign-in is too large for the keyring") }
                try stdin.fileHandleForWriting.write(contentsOf: input)
            }
            try stdin.fileHandleForWriting.close()
        } catch let error as VaultSecretStoreError {
            throw error
        } catch {
            throw .unavailable("cannot pass the sign-in to secret-tool: \(error)")
        }
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw .unavailable("cannot run \(path): \(error.localizedDescription)")
        }
        // Both outputs are drained while it runs, so a full pipe cannot stall it.
        let reading = DispatchGroup()
        let output = Collected(), errors = Collected()
        for (pipe, into) in [(stdout, output), (stderr, errors)] {
            DispatchQueue.global().async(group: reading) {
                into.set(pipe.fileHandleForReading.readDataToEndOfFile())
            }
        }
        guard finished.wait(timeout: .now() + timeout) == .success else {
            // SIGKILL: a blocked or ignored SIGTERM is handed down to children on Linux.
            kill(process.processIdentifier, SIGKILL)
            _ = finished.wait(timeout: .now() + .seconds(2))
            throw .noAnswer
        }
        _ = reading.wait(timeout: .now() + .seconds(2))
        return Outcome(status: process.terminationStatus, stdout: output.get(), stderr: String(decoding: errors.get(), as: UTF8.self))
    }

    /// Bytes read on another thread.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.withLock { data = value } }
        func get() -> Data { lock.withLock { data } }
    }
}
