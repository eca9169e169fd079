#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A real gpsd fed from an NMEA log by gpsd's own `gpsfake` (Debian package gpsd-clients).
///
/// `gpsfake` runs in its own process group with the gpsd it starts; ``stop()`` (or dropping
/// the value) ends the whole group.
final class GPSFake: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// gpsd found its port taken; another port, or a moment later, may do.
        var portTaken = false
    }

    /// The port gpsd listens on.
    let port: Int
    private let pid: pid_t
    private let logURL: URL
    private let lock = NSLock()
    private var stopped = false

    /// Starts `gpsfake -P PORT -1 -q -c CYCLE LOG` and waits until gpsd accepts connections.
    ///
    /// `cycle` is the pause between sentences; `-1` plays the log once, after which gpsd goes away.
    init(log: URL, port: Int? = nil, cycle: Double = 0.005) throws {
        guard let gpsfake = Self.find("gpsfake"), let gpsd = Self.find("gpsd") else {
            throw Failure(description: "gpsd and gpsfake are not installed: run scripts/bootstrap (it installs the Debian packages gpsd and gpsd-clients)")
        }
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfake-\(UUID().uuidString).log")
        let arguments = { (port: Int) in [gpsfake, "-P", String(port), "-1", "-q", "-c", String(cycle), log.path] }
        let directories = Set([URL(fileURLWithPath: gpsd).deletingLastPathComponent().path, "/usr/sbin", "/usr/bin", "/bin"])
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":" + directories.joined(separator: ":")
        // gpsd may find its port taken: by a parallel test that drew the same free port, or, when
        // restarting on a given port, by the gpsd just killed. Draw another port, or wait and retry.
        var attempt = 0
        while true {
            attempt += 1
            let candidate = try port ?? Self.freePort()
            let child = try Self.spawnInOwnGroup(arguments(candidate), environment: ["PATH=\(path)", "HOME=/tmp"], output: logURL.path)
            do {
                try Self.waitUntilListening(pid: child, port: candidate, log: logURL, timeout: 15)
                (self.port, pid) = (candidate, child)
                return
            } catch let failure as Failure where failure.portTaken && attempt < 20 {
                Self.stop(group: child)
                usleep(500_000)
            } catch {
                Self.stop(group: child)
                throw error
            }
        }
    }

    deinit { stop() }

    /// Ends gpsfake and its gpsd (SIGTERM to the process group, SIGKILL if they linger).
    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        Self.stop(group: pid)
        try? FileManager.default.removeItem(at: logURL)
    }

    private static func stop(group pid: pid_t) {
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) != 0 { break }
            usleep(20_000)
        }
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, WNOHANG)
    }

    /// What gpsfake and gpsd printed, for failure messages.
    var output: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    private static func waitUntilListening(pid: pid_t, port: Int, log: URL, timeout: TimeInterval) throws {
        let output = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if accepts(port: port) { return }
            if output().contains("can't bind") {
                throw Failure(description: "gpsd could not bind port \(port): \(output())", portTaken: true)
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw Failure(description: "gpsfake exited before gpsd listened on port \(port): \(output())")
            }
            usleep(50_000)
        }
        throw Failure(description: "gpsd did not listen on port \(port) within \(Int(timeout)) s: \(output())")
    }

    // MARK: - Processes and ports

    static func find(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        return directories.map { "\($0)/\(tool)" }.first { access($0, X_OK) == 0 }
    }

    /// Spawns a process that leads its own process group, with stdout and stderr to `output`.
    private static func spawnInOwnGroup(_ arguments: [String], environment: [String], output: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    ///
    /// Chosen below Linux's ephemeral range (32768–60999): a port the kernel hands out could
    /// meanwhile become the local end of some outgoing connection, and gpsd could not bind it.
    static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var address = loopback(port: port)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 { return port }
        }
        throw Failure(description: "no free TCP port between 20000 and 32000")
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
