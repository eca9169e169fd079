#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Dispatch
import Foundation
import WaymarkCore
import WaymarkRecorder

/// `waymark record`: records a route from a GPS receiver while showing the time-sync QR code.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a route from a GPS receiver, showing the QR code to photograph with the camera.",
        discussion: """
        Sources: gpsd (--gpsd HOST:PORT, the default is 127.0.0.1:2947), a receiver's serial device \
        or an NMEA log (--nmea PATH), or a replayed track for demos (--replay FILE --speed N).
        Keys on the full screen: p pause, r resume, s stop, u metric/imperial, q quit (asks first). \
        When standard output is not a terminal, status lines are printed instead and standard input \
        takes the commands pause, resume, stop and units, one per line. SIGINT and SIGTERM stop the \
        recording and keep the route.
        When recording stops, the route is encrypted with the passphrase and queued; with a route \
        service configured (--server or WAYMARK_SERVER) it is uploaded at once.
        """
    )

    @OptionGroup var source: SourceOptions
    @Option(name: .long, help: "Stop recording after this many seconds.") var stopAfter: Double?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var service: ServerOptions
    @OptionGroup var passphrase: PassphraseOptions

    func validate() throws {
        if let stopAfter, !(stopAfter > 0) { throw ValidationError("--stop-after must be a positive number of seconds.") }
    }

    func run() async throws {
        let store = try storeOptions.open()
        let settings = try await store.settings()
        let secret = try await adoptPassphrase(store: store)
        let seal: (Route) throws -> RouteUpload = { try RouteUpload.seal(route: $0, passphrase: secret) }
        for route in try await store.unfinishedRoutes() {
            let kept = try await store.finish(route, seal: seal)
            print(kept ? "Route \(route.id) was left unfinished when the recorder stopped unexpectedly; its \(route.fixCount) saved fixes are now queued."
                       : "Route \(route.id) was left unfinished without a single fix; it was removed.")
        }

        let session = try await RecordingSession(source: try source.source(), store: store, settings: settings)
        let outcome = await record(session)
        let route = await session.stop()
        guard !route.tracks.isEmpty else {
            _ = try await store.delete(route: session.routeID)
            if case let .sourceFailed(reason) = outcome { Terminal.printError("error: \(reason)") }
            Terminal.printError("Nothing was recorded: no fix arrived that was accurate enough (the threshold is \(Int(settings.accuracyThreshold)) m, see `waymark settings`).")
            throw ExitCode.failure
        }
        switch outcome {
        case let .sourceFailed(reason): Terminal.printError("The receiver failed: \(reason). What was recorded until then is kept.")
        case .sourceOver: print("The replay is over.")
        case .timeUp: print("Stopped after \(RecorderFormat.duration(stopAfter ?? 0)), as --stop-after asked.")
        case .stopped, .quit: break
        }

        try await session.queue(seal(route))
        let snapshot = await session.snapshot()
        let fixes = route.tracks.reduce(0) { $0 + $1.fixes.count }
        print("Route \(session.routeID) recorded: \(snapshot.distanceText) in \(snapshot.elapsedText), \(route.tracks.count) track\(route.tracks.count == 1 ? "" : "s"), \(fixes) fixes. It is encrypted and queued for upload.")
        guard service.isGiven else {
            print("No route service is configured (--server or WAYMARK_SERVER): `waymark routes sync` uploads it later.")
            return
        }
        try await uploadQueued(store: store, service: service, settings: settings, within: 60)
    }

    /// Why the recording loop ended.
    private enum Outcome {
        case stopped, quit, timeUp, sourceOver, sourceFailed(String)
    }

    /// Runs the screen until the photographer stops, the time is up or the source ends.
    private func record(_ session: RecordingSession) async -> Outcome {
        let interactive = Terminal.stdoutIsTerminal && Terminal.stdinIsTerminal
        let display: RecorderDisplay = interactive ? FullScreen(routeID: session.routeID, source: session.sourceDescription) : StatusLines()
        defer { display.close() }
        let inbox = CommandInbox()
        let reader = Task {
            for await command in interactive ? RecorderInput.keys() : RecorderInput.lines() { inbox.push(command) }
        }
        defer { reader.cancel() }
        let signals = [SIGINT, SIGTERM, SIGHUP].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { inbox.push(.stop) }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }

        let clock = ContinuousClock()
        let started = clock.now
        var confirmingQuit = false
        var alertUntil = started
        while true {
            for command in inbox.drain() {
                if confirmingQuit {
                    if case .yes = command { return .quit }
                    confirmingQuit = false
                    continue
                }
                switch command {
                case .pause: await session.pause()
                case .resume: await session.resume()
                case .stop: return .stopped
                case .units: await session.toggleUnits()
                case .quit: confirmingQuit = true
                case .yes, .no: break
                }
            }
            if let stopAfter, clock.now - started >= .seconds(stopAfter) { return .timeUp }
            switch await session.sourceEnd {
            case .finished?: return .sourceOver
            case let .failed(reason)?: return .sourceFailed(reason)
            case nil: break
            }
            await session.flushIfDue()
            if await session.alertDue() {
                display.bell()
                alertUntil = clock.now + .seconds(5)
            }
            let snapshot = await session.snapshot()
            var message: String?
            if clock.now < alertUntil {
                message = "GPS accuracy has been poor for a while: fixes are being ignored. Move into the open sky."
            } else if let problem = await session.saveProblem {
                message = "Cannot save fixes: \(problem)"
            }
            display.show(snapshot, message: message, confirmingQuit: confirmingQuit)
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The passphrase, checked against the kept verifier or kept as the first (SCO-09, SCO-10).
    private func adoptPassphrase(store: SQLiteRecordingStore) async throws -> String {
        let secret: String
        if try await store.passphraseVerifier() == nil && passphrase.isInteractive {
            guard let first = Terminal.readSecret(prompt: "Choose the passphrase that encrypts your routes: "),
                  let again = Terminal.readSecret(prompt: "Type it again: ") else { throw ExitCode.failure }
            guard first == again else {
                Terminal.printError("error: the two passphrases differ; nothing was kept. Run `waymark record` again.")
                throw ExitCode.failure
            }
            secret = first
        } else {
            secret = try passphrase.provider()()
        }
        do {
            if try await store.adopt(passphrase: secret) == .saved {
                print("The passphrase is kept as an scrypt verifier: later recordings must use the same one.")
            }
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode.failure
        }
        return secret
    }
}

/// Commands from the key reader and from signal handlers, drained by the screen loop.
final class CommandInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [RecorderCommand] = []

    func push(_ command: RecorderCommand) {
        lock.lock(); defer { lock.unlock() }
        items.append(command)
    }

    func drain() -> [RecorderCommand] {
        lock.lock(); defer { lock.unlock() }
        defer { items = [] }
        return items
    }
}
