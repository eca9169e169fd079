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
        let secret = try await adoptPassphrase(store: store, options: passphrase, command: "record")
        let seal = { (route: Route) in try RouteUpload.seal(route: route, passphrase: secret) }
        try await recoverUnfinished(store: store, seal: seal)

        let session = try await RecordingSession(source: try source.source(), store: store, settings: settings)
        let controller = RecordingController(session: session, timeLimit: stopAfter.map { .seconds($0) })
        let end = await record(controller)
        let outcome: RecordingOutcome
        do {
            outcome = try await controller.finish(after: end, seal: seal)
        } catch {
            Terminal.printError("error: \(RecorderWords.describe(error))")
            throw ExitCode.failure
        }
        guard case let .queued(recorded) = outcome else {
            if case let .sourceFailed(error) = end { Terminal.printError("error: \(RecorderWords.describe(error))") }
            Terminal.printError("Nothing was recorded: no fix arrived that was accurate enough (the threshold is \(Int(settings.accuracyThreshold)) m, see `waymark settings`).")
            throw ExitCode.failure
        }
        switch recorded.end {
        case let .sourceFailed(error): Terminal.printError("The receiver failed: \(RecorderWords.sentence(error)) What was recorded until then is kept.")
        case .sourceOver: print("The replay is over.")
        case .timeUp: print("Stopped after \(RecorderFormat.duration(stopAfter ?? 0)), as --stop-after asked.")
        case .stopped, .quit: break
        }

        let tracks = recorded.route.tracks.count
        print("Route \(recorded.routeID) recorded: \(recorded.snapshot.distanceText) in \(recorded.snapshot.elapsedText), \(tracks) track\(tracks == 1 ? "" : "s"), \(recorded.fixCount) fixes. It is encrypted and queued for upload.")
        guard service.isGiven else {
            print("No route service is configured (--server or WAYMARK_SERVER): `waymark routes sync` uploads it later.")
            return
        }
        try await uploadQueued(store: store, service: service, settings: settings, within: 60)
    }

    /// Draws the recording and forwards keys and signals to the controller until the recording ends.
    private func record(_ controller: RecordingController<ContinuousClock>) async -> RecordingEnd {
        let interactive = Terminal.stdoutIsTerminal && Terminal.stdinIsTerminal
        let session = controller.session
        let display: RecorderDisplay = interactive ? FullScreen(routeID: session.routeID, source: session.sourceDescription) : StatusLines()
        defer { display.close() }
        let reader = Task {
            for await command in interactive ? RecorderInput.keys() : RecorderInput.lines() { controller.send(command) }
        }
        defer { reader.cancel() }
        let signals = [SIGINT, SIGTERM, SIGHUP].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { controller.send(.stop) }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        return await controller.run { update in
            if update.soundsAlert { display.bell() }
            display.show(update)
        }
    }
}

/// Asks for the passphrase (twice at a terminal when none is kept yet) and checks it against the
/// kept one, or keeps it (SCO-09, SCO-10); prints why and exits non-zero when it cannot be used.
func adoptPassphrase(store: SQLiteRecordingStore, options: PassphraseOptions, command: String) async throws -> String {
    let secret: String, confirmation: String?
    if options.isInteractive, try await !store.keepsPassphrase() {
        guard let first = Terminal.readSecret(prompt: "Choose the passphrase that encrypts your routes: "),
              let again = Terminal.readSecret(prompt: "Type it again: ") else { throw ExitCode.failure }
        (secret, confirmation) = (first, again)
    } else {
        (secret, confirmation) = (try options.provider()(), nil)
    }
    switch try await store.adopt(passphrase: secret, confirmation: confirmation) {
    case .matched:
        return secret
    case .saved:
        print("The passphrase is kept as an scrypt verifier: later recordings must use the same one.")
        return secret
    case .mismatch:
        Terminal.printError("error: This passphrase does not match the one the recorder keeps. Type it again, or forget the kept one with `waymark settings --reset-passphrase` (routes recorded before keep the passphrase they were encrypted with).")
    case .empty:
        Terminal.printError("error: \(PassphraseError.empty)")
    case .confirmationDiffers:
        Terminal.printError("error: the two passphrases differ; nothing was kept. Run `waymark \(command)` again.")
    }
    throw ExitCode.failure
}

/// Finishes the routes a recorder left unfinished and says what became of each.
func recoverUnfinished(store: SQLiteRecordingStore, seal: (Route) throws -> RouteUpload) async throws {
    for recovered in try await store.recoverUnfinished(seal: seal) {
        switch recovered {
        case let .queued(route):
            print("Route \(route.id) was left unfinished when the recorder stopped unexpectedly; its \(route.fixCount) saved fixes are now queued.")
        case let .removed(route):
            print("Route \(route.id) was left unfinished without a single fix; it was removed.")
        }
    }
}

/// The recorder library's errors in the terminal's words: where a flag or a command helps, it is named here.
enum RecorderWords {
    static func describe(_ error: any Error) -> String {
        if let error = error as? GPSDError, case let .unreachable(endpoint, reason) = error {
            return "Cannot reach gpsd at \(endpoint) (\(reason)). Is gpsd running? Start it with `gpsd -N /dev/ttyUSB0` "
                + "(the receiver's device: /dev/ttyACM0, /dev/ttyUSB0 or /dev/rfcomm0), or pass --gpsd HOST:PORT if it listens elsewhere."
        }
        if let error = error as? NMEASourceError, case let .busy(path) = error {
            return "\(path) is in use by another program (gpsd? ModemManager?). Stop it, or record through gpsd with --gpsd instead."
        }
        if let error = error as? RecordingStoreError, case let .noSuchRoute(id) = error {
            return "There is no recorded route \(id); `waymark routes list` shows them."
        }
        return String(describing: error)
    }

    /// ``describe(_:)`` ending with a full stop, to be followed by another sentence.
    static func sentence(_ error: any Error) -> String {
        let text = describe(error)
        return [".", "?", "!"].contains(text.last) ? text : text + "."
    }
}
