#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Keeps the sign-in in a JSON file readable only by the user (mode 0600, in a folder made with
/// mode 0700), written atomically: a new file is written beside it and renamed over it, so a crash
/// leaves the old sign-in or the new one, never half of one.
///
/// The file holds the password or app secret in clear: it is the fallback where no keyring can be
/// reached (a server, a container, a session without a secret service).
public struct FileSecretStore: VaultSecretStore {
    /// The file.
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The file at ``defaultLocation(environment:)``.
    public init(environment: [String: String]) {
        self.init(url: Self.defaultLocation(environment: environment))
    }

    /// `vault-session.json` beside the vault's cache: in `$WAYMARK_HOME`, else
    /// `$XDG_DATA_HOME/waymark`, else `~/.local/share/waymark` (on macOS `~/Library/Application Support/Waymark`).
    public static func defaultLocation(environment: [String: String]) -> URL {
        VaultCache.defaultLocation(environment: environment).deletingLastPathComponent().appendingPathComponent("vault-session.json")
    }

    public var name: String { "file" }
    public var kind: VaultSecretStoreKind { .file(url) }

    public func load() throws(VaultSecretStoreError) -> VaultSession? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw .failed("cannot read \(url.path): \(error.localizedDescription)")
        }
        return try VaultSession.decoded(data)
    }

    public func save(_ session: VaultSession) throws(VaultSecretStoreError) {
        let data = try session.encoded()
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failed("cannot create \(folder.path): \(error.localizedDescription)")
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .failed("cannot create \(temporary.path): \(String(cString: strerror(errno)))") }
        var failure: String?
        // open's mode is masked by the umask; the file must be 0600 whatever the umask is.
        if fchmod(descriptor, 0o600) != 0 { failure = "cannot make it readable only by you: \(String(cString: strerror(errno)))" }
        if failure == nil {
            failure = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return String(cString: strerror(errno))
                    }
                    offset += written
                }
                return nil
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw .failed("cannot write \(url.path): \(failure)")
        }
    }

    public func delete() throws(VaultSecretStoreError) {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw .failed("cannot delete \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}
