import Foundation
import WaymarkCore

/// Geotags folders of photos: finds the QR photos, syncs the camera clock, loads the route,
/// places every photo on it and writes GPS tags safely. `waymark tag` is a thin shell over this.
public struct Geotagger: Sendable {
    public var options: GeotagOptions

    public init(options: GeotagOptions) { self.options = options }

    /// Runs the whole job. Throws `GeotagError` for usage, route and clock-sync problems (nothing
    /// is written then); problems with single photos are reported per photo in the result.
    public func run(progress: @escaping @Sendable (GeotagProgress) -> Void = { _ in }) async throws -> GeotagRun {
        let files = try Self.collectPhotos(in: options.folders, recursive: options.recursive)
        progress(.found(photos: files.count))
        guard !files.isEmpty else {
            let names = options.folders.map(\.relativePath).joined(separator: ", ")
            throw GeotagError("No photos in \(names)\(options.recursive ? "" : " (add --recursive to look in sub-folders)").")
        }
        var removed: [String] = []
        if !options.dryRun {
            for folder in Set(files.map { $0.url.deletingLastPathComponent() }) { removed += SafeFile.removeLeftovers(in: folder) }
        }

        let inspectCounter = ProgressCounter(total: files.count) { progress(.inspecting(done: $0, total: $1)) }
        let purpose = Self.qrSearchPurpose(options)
        let searchAll = options.qrSearch == .all && (purpose == .clock || purpose == .check)
        let scanner = options.scanner
        var photos = await BlockingPool.map(count: files.count, width: options.concurrency) { index in
            defer { inspectCounter.step() }
            return Self.inspect(files[index].url, displayName: files[index].displayName, searchQR: searchAll, scanner: scanner)
        }
        let qrSearch = await Self.searchQRCodes(in: &photos, purpose: purpose, options: options)

        let qrPhotos = photos.filter { !$0.qrCodes.isEmpty }
        var nonces: [String] = []
        for payload in qrPhotos.flatMap(\.qrCodes) where !nonces.contains(payload.nonce) { nonces.append(payload.nonce) }
        let loaded = try await Self.loadRoute(options: options, nonces: nonces, qrSearch: qrSearch,
                                              span: Self.photoSpan(photos, options: options))
        let qrPeriod = loaded.qrPeriod ?? options.qrPeriod
        let (clock, rejected) = try Self.clockCorrection(photos: photos, options: options, qrPeriod: qrPeriod)
        let checks = purpose == .check ? ClockSync.check(clock, against: Self.qrSamples(photos, qrPeriod: qrPeriod)) : []

        let correlator = Correlator(route: loaded.route, options: options.correlation)
        let writeCounter = ProgressCounter(total: photos.count) { progress(.writing(done: $0, total: $1)) }
        let (options, inspected) = (self.options, photos)
        // Writing waits on fsync as much as on the CPU, so a few more workers than cores keep both busy.
        var reports = await BlockingPool.map(count: photos.count, width: options.concurrency * 2) { index in
            defer { writeCounter.step() }
            return Self.tag(inspected[index], clock: clock, correlator: correlator, options: options)
        }
        for check in checks {
            guard let index = inspected.firstIndex(where: { $0.displayName == check.photo }) else { continue }
            reports[index].qrClockDifference = check.difference
        }
        if !options.dryRun {
            // One folder fsync per folder makes every rename of the run durable.
            let folders = Array(Set(files.map { $0.url.deletingLastPathComponent() }))
            _ = await BlockingPool.map(count: folders.count, width: options.concurrency) { SafeFile.syncFolder(folders[$0]) }
        }
        return GeotagRun(photos: reports, clock: clock, rejectedQRPhotos: rejected.map { .init(photo: $0.photo, residual: $0.residual) },
                         qrPhotos: qrPhotos.map(\.displayName), qrSearch: qrSearch, clockChecks: checks, route: loaded,
                         removedLeftovers: removed, dryRun: options.dryRun)
    }
}

/// The outcome of a run: a report per photo and how the clock and route were established.
public struct GeotagRun: Sendable {
    public struct RejectedQR: Sendable {
        public var photo: String
        public var residual: Double
    }

    public var photos: [PhotoReport]
    public var clock: ClockCorrection
    public var rejectedQRPhotos: [RejectedQR]
    public var qrPhotos: [String]
    /// Why and how many photos were searched for QR codes.
    public var qrSearch: QRSearchReport
    /// With a clock set by hand and `checkQR`: how each QR photo compares with the setting.
    public var clockChecks: [ClockSync.QRCheck]
    public var route: LoadedRoute
    /// Temporary files an interrupted earlier run had left, now removed.
    public var removedLeftovers: [String]
    public var dryRun: Bool

    public func count(_ status: PhotoReport.Status) -> Int { photos.filter { $0.status == status }.count }

    /// True when some photo could not be read or written: the command exits non-zero.
    public var hasFailures: Bool { photos.contains { $0.status == .failed } }

    /// The lines of the closing summary, for people.
    public var summaryLines: [String] {
        var lines: [String] = []
        lines.append("Clock: \(clock.summary)")
        for rejected in rejectedQRPhotos {
            lines.append("  ignored QR photo \(rejected.photo): it disagrees with the others by \(String(format: "%.1f", rejected.residual)) s")
        }
        lines += qrSearchLines
        let fixes = route.fixCount
        lines.append("Route: \(route.route.tracks.count) track\(route.route.tracks.count == 1 ? "" : "s"), \(fixes) fix\(fixes == 1 ? "" : "es")"
            + (route.route.tracks.first?.start.map { ", \($0.utcTimestamp) → " } ?? "")
            + (route.route.tracks.last?.end.map(\.utcTimestamp) ?? "")
            + " (\(route.sources.joined(separator: ", ")))")
        let verb = dryRun ? "Would tag" : "Tagged"
        let tagged = photos.filter { $0.status == .tagged }
        let sidecars = tagged.filter(\.sidecar).count
        lines.append("\(verb): \(tagged.count) of \(photos.count)" + (sidecars > 0 ? " (\(sidecars) in XMP sidecars)" : ""))
        for report in tagged where report.sidecar { lines.append("  \(report.file): \(report.reason ?? "sidecar written")") }
        let outside = photos.filter { $0.status == .outsideRoute }
        if tagged.isEmpty, outside.count >= 2, outside.count == photos.filter({ $0.captureTime != nil }).count {
            let before = outside.filter { $0.reason?.contains("before the route") == true }.count
            let after = outside.filter { $0.reason?.contains("after the route") == true }.count
            if before == outside.count || after == outside.count {
                lines.append("None of the photos is on the route: all were taken \(before > 0 ? "before it started" : "after it ended"). Check the clock sync and that this is their route.")
            }
        }
        let kept = count(.keptExistingGPS)
        if kept > 0 { lines.append("Kept existing GPS: \(kept) (--overwrite replaces it)") }
        for (status, title) in [(PhotoReport.Status.outsideRoute, "Outside the route"), (.noCaptureTime, "No capture time"), (.failed, "Failed")] {
            let matching = photos.filter { $0.status == status }
            guard !matching.isEmpty else { continue }
            lines.append("\(title): \(matching.count)")
            for report in matching.prefix(20) { lines.append("  \(report.file): \(report.reason ?? "")") }
            if matching.count > 20 { lines.append("  … and \(matching.count - 20) more (--json lists every photo)") }
        }
        if !removedLeftovers.isEmpty {
            lines.append("Removed \(removedLeftovers.count) temporary file\(removedLeftovers.count == 1 ? "" : "s") an interrupted run had left.")
        }
        return lines
    }
}
