import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkMedia

/// `waymark qr`: list the Waymark QR codes found in photos (the search `tag` does, alone).
struct QRScan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "Find the photos that show a Waymark time-sync QR code."
    )

    @Argument(help: "Folders (or single photos) to search.", completion: .directory)
    var folders: [String]

    @Flag(name: [.short, .long], help: "Also look in sub-folders.")
    var recursive = false

    @Flag(name: .long, help: "Print a JSON array of the QR photos: file, captureTime, payloads and image (where the code was read: exif-thumbnail, mpf-preview, raw-preview, heif-thumbnail or full-image).")
    var json = false

    func run() async throws {
        let found = try await QRSearch.run(folders: folders.map { URL(fileURLWithPath: $0) }, recursive: recursive)
        if json {
            try printJSON(found.qrPhotos)
        } else {
            for photo in found.qrPhotos {
                print("\(photo.file)\t\(photo.captureTime ?? "-")\t\(photo.payloads.joined(separator: " "))\t\(photo.image.rawValue)")
            }
        }
        Terminal.printError("\(found.qrPhotos.count) QR photo\(found.qrPhotos.count == 1 ? "" : "s") in \(found.searched) photos")
    }
}
