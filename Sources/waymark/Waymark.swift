import ArgumentParser

@main
struct Waymark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waymark",
        abstract: "Geotag photos from a camera without GPS, using a route recorded on a phone or GPS receiver.",
        subcommands: [Tag.self, QRScan.self, Record.self, Routes.self, Settings.self, Serve.self, Keys.self, Users.self, Photos.self, Vault.self, Tasks.self, VerifyReceipt.self, OwnTracks.self]
    )
}
