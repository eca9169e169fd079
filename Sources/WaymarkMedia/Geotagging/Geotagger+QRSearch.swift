import Foundation
import WaymarkCore

/// What the QR search of a run did, for the summary: why photos were searched and how many.
public struct QRSearchReport: Sendable, Equatable {
    /// Why the photos were (or were not) searched for QR codes.
    public enum Purpose: Sendable, Equatable {
        /// The QR photos set the clock: the likely photos first, every photo if none of those has a code.
        case clock
        /// The clock was set by hand and `checkQR` asked to compare it with the QR photos.
        case check
        /// The clock was set by hand; the photos were searched only until the first Waymark code,
        /// for the nonce of the route to fetch.
        case nonce
        /// The clock was set by hand and no nonce was needed: no photo was searched.
        case skipped
        /// `qrSearch` is `.off`.
        case off
    }

    public var purpose: Purpose
    /// Photos whose pixels were decoded and searched for a QR code.
    public var searched: Int
    /// Photos in the run.
    public var total: Int
    /// With ``Purpose/nonce``: the photo whose code ended the search, if one was found.
    public var firstCode: String?
}

extension GeotagOptions {
    /// Whether `--sync`, `--offset` or `--timezone` sets the clock (so QR photos do not).
    public var hasManualClock: Bool { manualSync != nil || offset != nil || timeZone != nil }
}

extension Geotagger {
    /// Why this run searches the photos for QR codes, from the options alone.
    static func qrSearchPurpose(_ options: GeotagOptions) -> QRSearchReport.Purpose {
        if options.qrSearch == .off { return .off }
        guard options.hasManualClock else { return .clock }
        if options.checkQR { return .check }
        if options.routeNonce == nil && !options.routeSources.isEmpty { return .nonce }
        return .skipped
    }

    /// Searches the inspected photos for time-sync QR codes as `purpose` needs, filling in their
    /// `qrCodes`. With `.all`, `.clock` and `.check` the metadata pass has already searched every photo.
    static func searchQRCodes(in photos: inout [InspectedPhoto], purpose: QRSearchReport.Purpose, options: GeotagOptions) async
        -> QRSearchReport
    {
        var report = QRSearchReport(purpose: purpose, searched: 0, total: photos.count)
        let readable = photos.indices.filter { photos[$0].metadata != nil }
        switch (purpose, options.qrSearch) {
        case (.off, _), (.skipped, _), (_, .off):
            return report
        case (.clock, .all), (.check, .all):
            report.searched = readable.count
        case (.clock, .auto), (.check, .auto):
            // One scaled JPEG decode per photo searched: the likely photos first, all only if needed.
            var searched = Set<Int>()
            for batch in [likelyQRPhotos(photos), photos.indices.filter { photos[$0].camera != nil }] {
                let pending = batch.filter { !searched.contains($0) }
                await search(pending, in: &photos, options: options)
                searched.formUnion(pending)
                if photos.contains(where: { !$0.qrCodes.isEmpty }) { break }
            }
            report.searched = searched.filter { photos[$0].metadata != nil }.count
        case (.nonce, _):
            // Only a nonce is needed: stop at the first code, searching a worker's share of photos at a time.
            var order = options.qrSearch == .auto ? likelyQRPhotos(photos) : []
            let first = Set(order)
            order += readable.filter { !first.contains($0) }
            var start = 0
            while start < order.count {
                let chunk = Array(order[start..<min(order.count, start + options.concurrency)])
                await search(chunk, in: &photos, options: options)
                report.searched += chunk.filter { photos[$0].metadata != nil }.count
                start += chunk.count
                if let found = chunk.first(where: { !photos[$0].qrCodes.isEmpty }) {
                    report.firstCode = photos[found].displayName
                    break
                }
            }
        }
        return report
    }

    /// Searches the photos at `indices` for QR codes, in parallel.
    private static func search(_ indices: [Int], in photos: inout [InspectedPhoto], options: GeotagOptions) async {
        let (snapshot, scanner) = (photos, options.scanner)
        let found = await BlockingPool.map(count: indices.count, width: options.concurrency) { i in
            searchQR(in: snapshot[indices[i]], scanner: scanner)
        }
        for (index, search) in zip(indices, found) { photos[index].found(search) }
    }
}

extension GeotagRun {
    /// The option that set the clock by hand, as it is written on the command line.
    var manualClockOption: String {
        switch clock.source {
        case .manualSync: return "--sync"
        case .fixedOffset: return "--offset"
        case .timeZone: return "--timezone"
        case .qrCodes, .cameraOffsets: return "the clock setting"
        }
    }

    /// Summary lines on the QR search when the clock was set by hand: skipped, stopped at the
    /// first code for a nonce, or the check of every QR photo against the setting.
    var qrSearchLines: [String] {
        let photos = "\(qrSearch.searched) of \(qrSearch.total) photo\(qrSearch.total == 1 ? "" : "s") searched"
        let option = manualClockOption
        switch qrSearch.purpose {
        case .clock, .off:
            return []
        case .skipped:
            return ["QR search: skipped (\(photos)): \(option) sets the clock; --check-qr compares it with the QR photos"]
        case .nonce:
            guard let first = qrSearch.firstCode else { return ["QR search: no Waymark QR code for the route's nonce (\(photos))"] }
            return ["QR search: stopped at the first Waymark QR code, in \(first) (\(photos)), for the route's nonce; \(option) sets the clock"]
        case .check:
            guard !clockChecks.isEmpty else {
                return ["QR check: no Waymark QR code found (\(photos)), nothing to compare \(option) with"]
            }
            let disagreeing = clockChecks.filter { !$0.agrees }
            let count = clockChecks.count
            guard !disagreeing.isEmpty else {
                return ["QR check: \(count == 1 ? "the QR photo agrees" : "all \(count) QR photos agree") with \(option) (\(photos))"]
            }
            var lines = ["QR check: \(disagreeing.count) of \(count) QR photo\(count == 1 ? "" : "s") disagree\(disagreeing.count == 1 ? "s" : "") with \(option) (\(photos)); \(option) still sets the clock"]
            for check in disagreeing {
                let tenths = Int((abs(check.difference) * 10).rounded())
                let by = tenths >= 36_000 ? describeDuration(check.difference)
                    : tenths >= 600 ? String(format: "%d min %04.1f s", tenths / 600, Double(tenths % 600) / 10)
                    : String(format: "%.1f s", Double(tenths) / 10)
                lines.append("  \(check.photo): \(option) puts it \(by) \(check.difference > 0 ? "later" : "earlier") than its QR code shows"
                    + String(format: " (more than the ±%.1f s the code allows)", check.tolerance))
            }
            return lines
        }
    }
}
