import Foundation
import WaymarkCore

extension Geotagger {
    /// Chooses the clock correction, first that applies: `--sync`, `--offset`, `--timezone` (used
    /// as given, whatever QR photos say), QR photos, then the cameras' own OffsetTimeOriginal
    /// when every photo has one.
    static func clockCorrection(photos: [InspectedPhoto], options: GeotagOptions, qrPeriod: Double) throws
        -> (correction: ClockCorrection, rejected: [(photo: String, residual: Double)])
    {
        if let sync = options.manualSync {
            guard let photo = photos.first(where: { matches($0, sync.photo) }) else {
                throw GeotagError("--sync names \(sync.photo), which is not among the photos found. Give its file name as it appears in the folder.")
            }
            guard let camera = photo.camera else {
                throw GeotagError("--sync names \(photo.displayName), which has no capture time to compare with \(sync.photo)'s clock. Pick another photo of the clock.")
            }
            return (ClockSync.manual(photo: photo.displayName, camera: camera, trueTime: sync.time), [])
        }
        if let offset = options.offset { return (ClockSync.fixedOffset(offset), []) }
        if let zone = options.timeZone {
            do {
                return (try ClockSync.timeZone(zone), [])
            } catch {
                throw GeotagError("\(error)")
            }
        }
        let samples = qrSamples(photos, qrPeriod: qrPeriod)
        if !samples.isEmpty {
            do {
                return try ClockSync.fit(samples)
            } catch {
                throw GeotagError("\(error)")
            }
        }
        let dated = photos.compactMap(\.camera)
        if !dated.isEmpty, dated.allSatisfy({ $0.utcOffset != nil }) {
            return (try ClockSync.cameraOffsets(), [])
        }
        let searched = photos.filter { $0.metadata != nil }.count
        throw GeotagError("""
            Cannot tell how the camera clock relates to UTC: no Waymark QR code was found in \(searched) photo\(searched == 1 ? "" : "s").
            Sync the clock one of these ways:
              - put the photo of the Waymark QR code in the folder (shoot it once per trip),
              - --sync PHOTO=TIME     a photo of any clock and the time it showed, e.g. --sync IMG_0001.JPG=2024-05-01T10:15:00+02:00
              - --offset ±HH:MM:SS    what to add to the camera time to get UTC, e.g. --offset -02:00:00
              - --timezone ZONE       the zone the camera clock was set to, e.g. --timezone Europe/Berlin
            """)
    }

    /// One sample per QR code in a photo with a capture time.
    static func qrSamples(_ photos: [InspectedPhoto], qrPeriod: Double) -> [QRSample] {
        photos.flatMap { photo in
            photo.camera.map { camera in
                photo.qrCodes.map { QRSample(photo: photo.displayName, camera: camera, payload: $0, qrPeriod: qrPeriod) }
            } ?? []
        }
    }

    private static func matches(_ photo: InspectedPhoto, _ name: String) -> Bool {
        photo.displayName == name || photo.url.lastPathComponent == name || photo.url.path == name
            || photo.displayName.hasSuffix("/" + name)
    }
}
