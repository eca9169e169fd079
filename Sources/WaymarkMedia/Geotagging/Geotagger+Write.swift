import Foundation
import WaymarkCore

extension Geotagger {
    /// Places one photo on the route and writes its GPS tags (or sidecar), returning what happened.
    static func tag(_ photo: InspectedPhoto, clock: ClockCorrection, correlator: Correlator, options: GeotagOptions) -> PhotoReport {
        var report = PhotoReport(file: photo.displayName, status: .failed, qrImage: photo.qrCodes.isEmpty ? nil : photo.qrImage)
        guard let metadata = photo.metadata else {
            report.reason = photo.error ?? "cannot be read"
            return report
        }
        guard let camera = photo.camera, let fields = metadata.captureTimeFields else {
            report.status = .noCaptureTime
            report.reason = "has no DateTimeOriginal or CreateDate; its time is not guessed"
            return report
        }
        report.captureTime = fields.dateTime + (fields.subSeconds.map { ".\($0)" } ?? "") + (fields.offset ?? "")
        let utc = clock.utc(for: camera)
        report.utcTime = utc.utcTimestamp
        let placement = correlator.place(utc)
        guard let fix = placement.fix else {
            report.status = .outsideRoute
            (report.reason, report.secondsFromRoute) = explain(placement)
            return report
        }
        report.latitude = fix.latitude
        report.longitude = fix.longitude
        report.altitude = fix.altitude
        report.accuracy = fix.accuracy
        if let existing = metadata.existingPosition, !options.overwrite {
            report.status = .keptExistingGPS
            report.latitude = existing.latitude
            report.longitude = existing.longitude
            report.altitude = nil
            report.accuracy = nil
            report.reason = "already has GPS; --overwrite replaces it"
            return report
        }
        report.status = .tagged
        if case .nearestEnd(_, let distance) = placement {
            report.reason = "\(describeDuration(distance)) beyond the end of a track; placed at its end fix"
        }
        let tags = GPSTags(latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude, accuracy: fix.accuracy, time: utc)
        var useSidecar = options.sidecar
        do {
            if !useSidecar {
                do {
                    report.writeMethod = try tags.write(intoPhotoAt: photo.url, file: photo.displayName, dryRun: options.dryRun, syncFolder: false)
                } catch let error as MediaError where error.wouldDamageMetadata {
                    useSidecar = true
                    report.reason = "\(error.message); the position is in the XMP sidecar and the photo is untouched"
                }
            }
            if useSidecar {
                let sidecarURL = URL(fileURLWithPath: photo.url.path + ".xmp")
                let existing = try? Data(contentsOf: sidecarURL)
                let packet = try tags.sidecar(updating: existing, file: photo.displayName + ".xmp")
                if !options.dryRun { try SafeFile.write(packet, to: sidecarURL, preservingAttributesOf: existing == nil ? nil : sidecarURL, syncFolder: false) }
                report.sidecar = true
            }
            report.written = !options.dryRun
        } catch let error as MediaError {
            report.status = .failed
            report.reason = error.message
        } catch {
            report.status = .failed
            report.reason = "cannot be read again for writing: \(error.localizedDescription)"
        }
        return report
    }

    /// Says why a photo is off the route, with the time to the nearest fix.
    static func explain(_ placement: Placement) -> (String, Double?) {
        func hint(_ seconds: Double) -> String {
            if seconds >= 86_400 { return " — is this the route of these photos, and is the camera's date right?" }
            return seconds >= 30 * 60 ? " — is the camera set to another time zone, or its clock wrong?" : ""
        }
        switch placement {
        case .beforeRoute(let seconds):
            return ("taken \(describeDuration(seconds)) before the route started\(hint(seconds))", seconds)
        case .afterRoute(let seconds):
            return ("taken \(describeDuration(seconds)) after the route ended\(hint(seconds))", seconds)
        case .inPause(let after, let before):
            return ("taken during a pause in recording, \(describeDuration(after)) after one track ended and \(describeDuration(before)) before the next began", min(after, before))
        case .inGap(let before, let after):
            return ("falls in a gap between two fixes \(describeDuration(before + after)) apart (more than --max-gap); nearest fix \(describeDuration(min(before, after))) away", min(before, after))
        case .emptyRoute:
            return ("the route has no fixes", nil)
        case .interpolated, .nearestEnd:
            return ("placed", 0)
        }
    }
}
