import Foundation
import WaymarkCore

/// The navigation satellites' orbits the server knows: the element sets of the TLE files given
/// with `waymark serve --tle`, read once at start (the `/sky` page, `GET /api/v1/sky`).
///
/// Only satellites of the four constellations the sky map shows are kept (a CelesTrak GNSS
/// group file also holds QZSS and NavIC satellites); a satellite found in several files is
/// kept once, with its newest element set.
public struct OrbitData: Sendable {
    /// What one file gave.
    public struct FileSummary: Sendable, Equatable {
        /// The file's path as given.
        public var path: String
        /// Satellites of the four constellations read from it.
        public var satellites: Int
        /// Broken element sets skipped.
        public var brokenEntries: Int
        /// Readable sets of satellites of no shown constellation, left out.
        public var otherSatellites: Int
    }

    /// The satellites kept, with their constellation.
    public let catalogue: TLECatalogue
    /// Per file, in the order given; empty when made from a catalogue.
    public let files: [FileSummary]
    /// Each kept satellite's element set epoch, by catalogue number.
    let epochs: [Int: Date]

    /// Orbit data from a catalogue already read (its satellites of no shown constellation are left out).
    public init(catalogue: TLECatalogue, files: [FileSummary] = []) {
        var kept: [Int: TLESatellite] = [:]
        var order: [Int] = []
        for satellite in catalogue.satellites where satellite.constellation != nil {
            let number = satellite.elements.catalogNumber
            if let known = kept[number] {
                if satellite.elements.epoch > known.elements.epoch { kept[number] = satellite }
            } else {
                kept[number] = satellite
                order.append(number)
            }
        }
        var merged = catalogue
        merged.satellites = order.compactMap { kept[$0] }
        merged.errors = []
        self.catalogue = merged
        self.files = files
        epochs = kept.mapValues(\.elements.epoch)
    }

    /// Reads TLE files (three-line sets, as CelesTrak serves them). Broken entries of a file
    /// are skipped and counted in ``files``.
    ///
    /// - Throws: ``OrbitDataError`` naming the first file that cannot be read, is not text,
    ///   is empty, or holds no usable element set of a GPS, Galileo, GLONASS or BeiDou satellite.
    public static func load(_ files: [URL]) throws(OrbitDataError) -> OrbitData {
        var base: TLECatalogue?
        var satellites: [TLESatellite] = []
        var summaries: [FileSummary] = []
        for url in files {
            let path = url.path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .missing(path: path) }
            guard !isFolder.boolValue else { throw .notAFile(path: path) }
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
            }
            let catalogue: TLECatalogue
            do {
                catalogue = try TLECatalogue(data: data, fileName: url.lastPathComponent)
            } catch {
                switch error {
                case .empty: throw .empty(path: path)
                case .notText: throw .notText(path: path)
                }
            }
            let shown = catalogue.satellites.filter { $0.constellation != nil }
            guard !shown.isEmpty else {
                throw .noUsableSet(path: path, brokenEntries: catalogue.errors.count, otherSatellites: catalogue.satellites.count,
                                   firstError: catalogue.errors.first?.description)
            }
            satellites += shown
            summaries.append(FileSummary(path: path, satellites: shown.count, brokenEntries: catalogue.errors.count,
                                         otherSatellites: catalogue.satellites.count - shown.count))
            if base == nil { base = catalogue }
        }
        guard var merged = base else { throw .noFiles }
        merged.satellites = satellites
        return OrbitData(catalogue: merged, files: summaries)
    }

    /// The epoch of a kept satellite's element set.
    public func epoch(of catalogNumber: Int) -> Date? { epochs[catalogNumber] }

    /// Broken entries skipped over all files.
    public var brokenEntries: Int { files.reduce(0) { $0 + $1.brokenEntries } }
}

/// Why the TLE files given to the server could not be used; the server does not start.
public enum OrbitDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file was given.
    case noFiles
    /// There is no file at the path.
    case missing(path: String)
    /// The path is a folder.
    case notAFile(path: String)
    /// The file could not be opened or read (e.g. no permission).
    case unreadable(path: String, reason: String)
    /// The file is not UTF-8 text.
    case notText(path: String)
    /// The file holds nothing but whitespace.
    case empty(path: String)
    /// Not one element set of the file could be read, or none is of a GPS, Galileo, GLONASS or BeiDou satellite.
    case noUsableSet(path: String, brokenEntries: Int, otherSatellites: Int, firstError: String?)

    /// The file at fault, if any.
    public var path: String? {
        switch self {
        case .noFiles: nil
        case let .missing(path), let .notAFile(path), let .unreadable(path, _), let .notText(path), let .empty(path), let .noUsableSet(path, _, _, _): path
        }
    }

    public var description: String {
        switch self {
        case .noFiles:
            "no TLE file was given"
        case let .missing(path):
            "\(path) does not exist"
        case let .notAFile(path):
            "\(path) is a folder, not a TLE file"
        case let .unreadable(path, reason):
            "\(path) cannot be read: \(reason)"
        case let .notText(path):
            "\(path) is not text — expected two-line element sets (as CelesTrak's gps-ops.txt)"
        case let .empty(path):
            "\(path) is empty — expected two-line element sets (as CelesTrak's gps-ops.txt)"
        case let .noUsableSet(path, broken, others, firstError):
            if others > 0 && broken == 0 {
                "\(path) holds no GPS, Galileo, GLONASS or BeiDou satellite (\(others) other satellite\(others == 1 ? "" : "s"))"
            } else {
                "\(path) holds no usable element set (\(broken) broken\(firstError.map { ", the first at \($0)" } ?? ""))"
            }
        }
    }
}
