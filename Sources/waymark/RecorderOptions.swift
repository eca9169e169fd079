import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkRecorder

/// `--store FILE`: the recorder's local database, else WAYMARK_HOME or the user's data folder.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "The recorder's database (else $WAYMARK_HOME/recorder.sqlite, else the user's data folder).", completion: .file())
    var store: String?

    func open() throws -> SQLiteRecordingStore {
        let url = store.map { URL(fileURLWithPath: $0) } ?? RecorderPaths.defaultStore(environment: ProcessInfo.processInfo.environment)
        return try SQLiteRecordingStore(path: url.path)
    }
}

/// Where fixes come from: `--gpsd HOST:PORT`, `--nmea PATH` or `--replay FILE`.
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: "Read fixes from gpsd (default: 127.0.0.1:2947 when no other source is given).")
    var gpsd: String?

    @Option(name: .long, help: "Read NMEA 0183 from a receiver's serial device (e.g. /dev/ttyACM0, Bluetooth /dev/rfcomm0) or replay a log file.", completion: .file())
    var nmea: String?

    @Option(name: .long, help: "Replay a recorded GPX, KML, GeoJSON or NMEA track, re-timed to now (for demos); recording stops when it ends.", completion: .file())
    var replay: String?

    @Option(name: .long, help: "Replay speed factor for --replay and NMEA log files.")
    var speed: Double = 1

    func validate() throws {
        if [gpsd, nmea, replay].compactMap({ $0 }).count > 1 {
            throw ValidationError("Give one source: --gpsd HOST:PORT, --nmea PATH or --replay FILE.")
        }
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number, e.g. 10.") }
    }

    func source() throws -> any LocationSource {
        if let replay { return GPXReplaySource(url: URL(fileURLWithPath: replay), speed: speed) }
        if let nmea { return NMEASource(path: nmea, speed: speed) }
        return try gpsd.map(GPSDSource.init(endpoint:)) ?? GPSDSource()
    }
}
