import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkRecorder

/// `waymark settings`: the recorder's settings (SSN-01) and its kept passphrase (SCO-12).
struct Settings: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or change the recorder's settings, or forget its passphrase.",
        discussion: "Without options, prints the settings. Changes apply to the next `waymark record`."
    )

    @Option(name: .long, help: "Ignore fixes less accurate than this many metres (default 100).") var accuracyThreshold: Double?
    @Option(name: .long, help: "Sound the alert after this many seconds of poor accuracy, and as often again (default 30).") var alertDelay: Double?
    @Option(name: .long, help: "Seconds each QR code is shown: 5 to 30, or 1 for the most precise sync (default 5).") var qrPeriod: Int?
    @Option(name: .long, help: "Upload only over a wireless network: true or false.") var wifiOnly: Bool?
    @Option(name: .long, help: "Units for distances: metric or imperial.") var units: UnitSystem?
    @Flag(name: .long, help: "Forget the kept passphrase (asks first); the next recording keeps a new one.") var resetPassphrase = false
    @Flag(name: .long, help: "Do not ask for confirmation.") var yes = false
    @Flag(name: .long, help: "Print JSON.") var json = false
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let accuracyThreshold, !(accuracyThreshold > 0 && accuracyThreshold.isFinite) {
            throw ValidationError("--accuracy-threshold must be a positive number of metres, e.g. 50.")
        }
        if let alertDelay, !(alertDelay >= 1 && alertDelay.isFinite) { throw ValidationError("--alert-delay must be at least 1 second.") }
        if let qrPeriod, !(qrPeriod == 1 || (5...30).contains(qrPeriod)) {
            throw ValidationError("--qr-period must be from 5 to 30 seconds, or 1 for the most precise sync; \(qrPeriod) is neither.")
        }
    }

    func run() async throws {
        let store = try storeOptions.open()
        if resetPassphrase {
            guard try await store.keepsPassphrase() else { return print("No passphrase is kept; the next `waymark record` asks for one.") }
            guard yes || confirm("Forget the kept passphrase? Routes already recorded stay encrypted with it. [y/N] ") else {
                Terminal.printError(Terminal.stdinIsTerminal ? "The passphrase is kept." : "The passphrase is kept: confirm with --yes when not at a terminal.")
                throw ExitCode.failure
            }
            try await store.save(nil as PassphraseVerifier?)
            print("The passphrase is forgotten; the next `waymark record` keeps a new one.")
        }
        var settings = try await store.settings()
        settings.accuracyThreshold = accuracyThreshold ?? settings.accuracyThreshold
        settings.alertDelay = alertDelay ?? settings.alertDelay
        settings.qrPeriod = qrPeriod ?? settings.qrPeriod
        settings.wifiOnly = wifiOnly ?? settings.wifiOnly
        settings.units = units ?? settings.units
        try await store.save(settings)
        if json { return try printJSON(settings) }
        let kept = try await store.keepsPassphrase()
        print("""
        Accuracy threshold  \(RecorderFormat.distance(settings.accuracyThreshold, units: .metric))
        Alert delay         \(RecorderFormat.duration(settings.alertDelay))
        QR period           \(settings.qrPeriod) s
        Wi-Fi only          \(settings.wifiOnly ? "yes" : "no")
        Units               \(settings.units.rawValue)
        Passphrase          \(kept ? "kept (scrypt verifier)" : "none yet")
        """)
    }
}

extension UnitSystem: ExpressibleByArgument {}
