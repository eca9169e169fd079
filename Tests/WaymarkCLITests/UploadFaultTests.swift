#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GRDB
import Testing
import WaymarkAPI
import WaymarkClient
import WaymarkCore
import WaymarkRecorder
import WaymarkTestSupport

/// The upload queue against the real `waymark serve`, killed with SIGKILL at random moments and
/// restarted on the same port and data folder while `sync` runs: every route must end up stored
/// exactly once. Routes whose answer was lost (the server committed, then died before answering)
/// are only stored once because every retry sends the route's own idempotency key.
@Suite("Uploads while the server crashes", .serialized)
struct UploadFaultTests {
    /// The server process, restarted by the killer task while the test reads it.
    final class ServerProcess: @unchecked Sendable {
        let data: URL
        let port: Int
        private let lock = NSLock()
        private var process: Process?
        private var outputs: [CapturedOutput] = []
        private(set) var kills = 0

        init(data: URL, port: Int) {
            self.data = data
            self.port = port
        }

        func start() throws {
            let output = try CapturedOutput()
            let process = WaymarkBinary.start(["serve", "--data", data.path, "--port", String(port)])
            process.standardOutput = output.stdout
            process.standardError = output.stderr
            try process.run()
            lock.withLock {
                self.process = process
                outputs.append(output)
            }
        }

        /// Sends `signal` and reaps the process.
        func stop(_ signal: Int32) {
            guard let process = lock.withLock({ self.process.take() }) else { return }
            process.stop(signal, grace: 30)
            if signal == SIGKILL { lock.withLock { kills += 1 } }
        }

        var isRunning: Bool { lock.withLock { process != nil } }

        /// The standard error of every run, for a failure message.
        var logs: String { lock.withLock { outputs.map { (try? $0.read(\.stderrURL)) ?? "" }.joined(separator: "\n---\n") } }
    }

    /// What one round saw.
    struct Round {
        var kills = 0
        /// Routes whose failed first attempt had in fact been stored: the answer was lost.
        var lostAnswers = 0
        var retried = 0
        var failedAttempts = 0
        var sync: Double = 0
        /// Routes the server holds at the end (200 unless something was lost or duplicated).
        var serverRows = 0
    }

    @Test("200 queued routes, the server killed and restarted several times: exactly 200 stored, each once", .timeLimit(.minutes(10)))
    func killedServer() async throws {
        let started = Date()
        // A round proves idempotency only when a kill fell between the server's commit and its
        // answer. That is a matter of chance (about one round in two), so rounds repeat, each
        // with a fresh server and 200 fresh routes, until one has seen it.
        var rounds: [Round] = []
        while rounds.count < 8, !rounds.contains(where: { $0.lostAnswers > 0 || $0.serverRows != 200 }) {
            let round = try await killedServerRound()
            rounds.append(round)
            print("UploadFaultTests round \(rounds.count): 200 routes, \(round.kills) SIGKILLs, \(round.retried) routes retried "
                  + "(\(round.failedAttempts) failed attempts), \(round.lostAnswers) lost answers, sync \(String(format: "%.1f", round.sync)) s")
        }
        #expect(rounds.contains { $0.lostAnswers > 0 },
                "no kill fell between a commit and its answer in \(rounds.count) rounds, so idempotent retries were not exercised")
        print("UploadFaultTests: \(rounds.count) round(s), \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    /// One round: 200 queued routes, a fresh server killed at random while `sync` runs; checks
    /// that the server holds each route exactly once.
    func killedServerRound() async throws -> Round {
        var round = Round()
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data")
        let keyOutput = try await WaymarkBinary.run(["keys", "create", "fault", "--json", "--data", data.path])
        #expect(keyOutput.status == 0, "\(keyOutput.stderr)")
        let credentials = try JSONSerialization.jsonObject(with: Data(keyOutput.stdout.utf8)) as? [String: String] ?? [:]
        let key = try #require(credentials["key"]), secret = try #require(credentials["secret"])
        let port = try await unusedLocalPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))

        // 200 recorded routes, sealed and queued as the recorder queues them when stopped.
        let store = try SQLiteRecordingStore(path: folder.url.appendingPathComponent("recorder.sqlite").path)
        let count = 200
        var lookups: [Int64: String] = [:]
        for index in 0..<count {
            let nonce = QRPayload.makeNonce()
            let created = Date(timeIntervalSince1970: 1_717_236_000 + Double(index) * 3600)
            let id = try await store.startRoute(nonce: nonce, created: created, qrPeriod: 5)
            let fixes = (0..<30).map { (i: Int) -> Fix in
                let step = Double(i), offset = Double(index) / 1000
                return Fix(latitude: 46 + offset + step / 100_000, longitude: 14 + step / 50_000, altitude: 300, accuracy: 5,
                           time: created.addingTimeInterval(step))
            }
            try await store.append(fixes, track: 0, route: id, distance: 29, duration: 29)
            let upload = try RouteUpload.seal(route: Route(nonce: nonce, qrPeriod: 5, tracks: [Track(fixes: fixes)]),
                                              passphrase: "fault test passphrase", kdf: .scrypt(n: 1024))
            try await store.queue(route: id, upload: upload, distance: 29, duration: 29)
            lookups[id] = upload.lookupKey
        }

        let server = ServerProcess(data: data, port: port)
        try server.start()
        defer { server.stop(SIGTERM) }
        // One attempt per call: every dropped connection reaches the queue, which retries it
        // later with the route's own idempotency key (the client's own retries would hide it).
        let client = RouteUploader.client(for: ServerCredentials(serverURL: url, key: key, secret: secret), requestTimeout: 2)
        try await ServeEndToEndTests.waitUntilUp(client)

        let serverDatabase = data.appendingPathComponent("waymark.sqlite").path
        let killer = Task {
            var generator = SystemRandomNumberGenerator()
            var aim = true
            // The first kill early: an undisturbed sync of 200 routes takes about a second now,
            // and a round needs at least two kills (after the first, retries keep it going).
            var pause = 0.05...0.3
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(Double.random(in: pause, using: &generator) * 1e9))
                pause = 0.2...1.0
                guard !Task.isCancelled else { return }
                if aim { await Self.killAfterNextCommit(server, database: serverDatabase) } else { server.stop(SIGKILL) }
                aim.toggle()
                try? await Task.sleep(nanoseconds: UInt64(Double.random(in: 0.05...0.5, using: &generator) * 1e9))
                try? server.start()
            }
        }
        let uploader = RouteUploader(store: store, client: client, connection: { .wired }, wifiOnly: false)
        let syncStarted = Date()
        let report = await uploader.sync(until: Date().addingTimeInterval(300))
        round.sync = Date().timeIntervalSince(syncStarted)
        killer.cancel()
        _ = await killer.value
        if !server.isRunning { try server.start() }
        try await ServeEndToEndTests.waitUntilUp(client)
        round.kills = server.kills

        #expect(report.stopped == nil, "\(report.summary)")
        #expect(report.stillQueued == 0, "\(report.summary)")
        #expect(server.kills >= 2, "the server was killed only \(server.kills) times while 200 routes were uploaded")

        // Every local route is stored, each with its own server id.
        let routes = try await store.routes().sorted { $0.created < $1.created }
        #expect(routes.count == count)
        #expect(routes.allSatisfy { $0.state == .stored }, "\(routes.filter { $0.state != .stored }.map(\.id))")
        let serverIDs = routes.compactMap(\.serverRouteID)
        #expect(Set(serverIDs).count == count, "every route has its own server id")
        #expect(report.stored.count == count)

        // The server's own database holds exactly those 200 routes: no duplicate, none lost.
        let database = try DatabaseQueue(path: data.appendingPathComponent("waymark.sqlite").path,
                                         configuration: { var c = Configuration(); c.readonly = true; return c }())
        let (rows, order) = try await database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM routes") ?? -1,
             Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, rowid FROM routes").map { ($0[0] as String, $0[1] as Int64) }))
        }
        round.serverRows = rows
        #expect(rows == count, "the server holds \(rows) routes for \(count) uploaded")
        #expect(Set(order.keys) == Set(serverIDs))
        if rows != count || report.stillQueued != 0 { print(server.logs.suffix(4000)) }

        // And through the API, each route's lookup key finds the id the recorder was given.
        var mismatches = 0
        for route in routes {
            let found = try await fetchRetryingReplays { try await client.route(lookup: lookups[route.id] ?? "") }
            if found?.routeID != route.serverRouteID { mismatches += 1 }
        }
        #expect(mismatches == 0)

        // The first pass tries every route, oldest first; a route that failed there is retried in
        // a later pass, after the next route that succeeded at once. If the server nevertheless
        // inserted it before that route, its failed attempt had been stored: the answer was lost,
        // and only the reused idempotency key kept the retry from storing it twice.
        for (index, route) in routes.enumerated() where route.uploadAttempts > 0 {
            guard let next = routes[(index + 1)...].first(where: { $0.uploadAttempts == 0 }),
                  let mine = route.serverRouteID.flatMap({ order[$0] }), let theirs = next.serverRouteID.flatMap({ order[$0] }) else { continue }
            if mine < theirs { round.lostAnswers += 1 }
        }
        round.retried = routes.filter { $0.uploadAttempts > 0 }.count
        round.failedAttempts = routes.map(\.uploadAttempts).reduce(0, +)
        return round
    }

    /// Every other kill is aimed at the moment a lost answer needs: the test holds the server's
    /// write lock a moment so that an upload waits inside the server, releases it, and kills the
    /// server as soon as that route's commit is visible, likely before its answer went out.
    /// (Without an upload under way it is simply a kill a moment later.)
    static func killAfterNextCommit(_ server: ServerProcess, database path: String) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Blocking work: on its own thread, not the cooperative pool.
            Thread.detachNewThread {
                defer { done.resume() }
                var configuration = Configuration()
                configuration.busyMode = .timeout(5)
                guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return server.stop(SIGKILL) }
                try? queue.inDatabase { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM routes") ?? 0
                    Thread.sleep(forTimeInterval: 0.3)
                    try db.execute(sql: "ROLLBACK")
                    let deadline = Date().addingTimeInterval(1)
                    while Date() < deadline, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM routes") ?? 0 <= before {}
                }
                server.stop(SIGKILL)
            }
        }
    }

    /// A GET, tried again on a connection error (the one-attempt client does not retry).
    private func fetchRetryingReplays(_ call: () async throws -> RouteRecord?) async throws -> RouteRecord? {
        var attempt = 0
        while true {
            do { return try await call() } catch {
                attempt += 1
                if attempt >= 5 { throw error }
                try await Task.sleep(nanoseconds: 200_000_000)
            }
        }
    }
}
