import Foundation

/// The navigation satellite systems the sky map shows.
public enum GNSSConstellation: String, Sendable, CaseIterable, Codable {
    case gps, galileo, glonass, beidou

    /// The constellation of a satellite from its name as CelesTrak writes it:
    /// "GPS BIIR-2 (PRN 13)", "NAVSTAR 43", "GSAT0101 (PRN E11)", "GALILEO-PFM",
    /// "COSMOS 2425 (716)", "GLONASS-M", "BEIDOU-3 M1 (C19)". Nil when the name says nothing.
    public init?(satelliteName name: String) {
        let upper = name.uppercased().trimmingCharacters(in: .whitespaces)
        if upper.hasPrefix("GPS ") || upper.hasPrefix("NAVSTAR") {
            self = .gps
        } else if upper.hasPrefix("GSAT") || upper.contains("GALILEO") {
            self = .galileo
        } else if upper.hasPrefix("COSMOS") || upper.hasPrefix("KOSMOS") || upper.contains("GLONASS") {
            self = .glonass
        } else if upper.hasPrefix("BEIDOU") || upper.hasPrefix("COMPASS") {
            self = .beidou
        } else {
            return nil
        }
    }

    /// The constellation of a CelesTrak GNSS group file from its name: `gps-ops.txt`,
    /// `galileo.txt`, `glo-ops.txt`, `beidou.txt` (also `glonass…`, `gps…`, with any extension).
    public init?(fileName: String) {
        let base = (fileName as NSString).lastPathComponent.lowercased()
        if base.hasPrefix("gps") || base.hasPrefix("navstar") {
            self = .gps
        } else if base.hasPrefix("galileo") {
            self = .galileo
        } else if base.hasPrefix("glo") {
            self = .glonass
        } else if base.hasPrefix("beidou") || base.hasPrefix("compass") {
            self = .beidou
        } else {
            return nil
        }
    }
}

/// A satellite of a catalogue: its element set and constellation.
public struct TLESatellite: Sendable, Equatable {
    public var elements: TwoLineElements
    /// From the name line, or else from the file's name; nil when neither says.
    public var constellation: GNSSConstellation?

    public init(elements: TwoLineElements, constellation: GNSSConstellation?) {
        self.elements = elements
        self.constellation = constellation
    }
}

/// The satellites of a TLE file, with the entries that could not be read.
public struct TLECatalogue: Sendable, Equatable {
    /// One element set of the file that could not be read.
    public struct EntryError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line of the file where the entry starts.
        public var lineNumber: Int
        public var error: TLEError
        public var description: String { "line \(lineNumber): \(error)" }
    }

    /// Why a file could not be read at all.
    public enum FileError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file holds no element set (empty or only blank lines).
        case empty
        /// The file is not UTF-8 text.
        case notText
        public var description: String {
            switch self {
            case .empty: "the TLE file is empty — expected two-line element sets (as CelesTrak's gps-ops.txt)"
            case .notText: "the TLE file is not text — expected two-line element sets (as CelesTrak's gps-ops.txt)"
            }
        }
    }

    public var satellites: [TLESatellite]
    public var errors: [EntryError]

    /// Reads a TLE file: three-line sets (name, line 1, line 2) or bare two-line sets, LF or
    /// CRLF line ends, blank lines between sets ignored. A broken set is reported in `errors`
    /// and reading goes on with the next one.
    ///
    /// - Parameter fileName: The file's name, for the constellation of satellites whose name
    ///   line does not tell it.
    /// - Throws: `FileError.empty` when there is nothing but whitespace.
    public init(text: String, fileName: String? = nil) throws(FileError) {
        let fileConstellation = fileName.flatMap { GNSSConstellation(fileName: $0) }
        let all = Self.lines(of: text)
        guard all.contains(where: { !Self.isBlank($0) }) else { throw .empty }
        satellites = []
        errors = []
        var index = 0
        func isElementLine(_ i: Int, _ number: Character) -> Bool {
            i < all.count && all[i].first == number && all[i].dropFirst().first == " "
        }
        while index < all.count {
            if Self.isBlank(all[index]) { index += 1; continue }
            let start = index
            var name: String?
            if isElementLine(index, "2") {
                // A line 2 whose line 1 is missing is not a name.
                errors.append(EntryError(lineNumber: start + 1, error: TLEError(line: .first, field: nil, problem: .missingLine)))
                index += 1
                continue
            }
            if !isElementLine(index, "1") {
                // A name line (or a stray line); line 1 must follow it.
                name = all[index]
                index += 1
                if !isElementLine(index, "1") {
                    let problem: TLEError.Problem = index >= all.count || Self.isBlank(all[index])
                        ? .missingLine : .notANumber(String(all[index].prefix(2)))
                    errors.append(EntryError(lineNumber: start + 1, error: TLEError(
                        line: .first, field: problem == .missingLine ? nil : .lineNumber, problem: problem)))
                    continue
                }
            }
            guard isElementLine(index + 1, "2") else {
                let problem: TLEError.Problem = index + 1 < all.count && !Self.isBlank(all[index + 1])
                    ? .notANumber(String(all[index + 1].prefix(2))) : .missingLine
                errors.append(EntryError(lineNumber: start + 1, error: TLEError(
                    line: .second, field: problem == .missingLine ? nil : .lineNumber, problem: problem)))
                index += 1
                continue
            }
            do {
                let elements = try TwoLineElements(name: name, line1: all[index], line2: all[index + 1])
                let constellation = elements.name.flatMap { GNSSConstellation(satelliteName: $0) } ?? fileConstellation
                satellites.append(TLESatellite(elements: elements, constellation: constellation))
            } catch {
                errors.append(EntryError(lineNumber: start + 1, error: error))
            }
            index += 2
        }
    }

    /// Reads a TLE file's bytes (UTF-8); see `init(text:fileName:)`.
    public init(data: Data, fileName: String? = nil) throws(FileError) {
        guard let text = String(data: data, encoding: .utf8) else { throw .notText }
        try self.init(text: text, fileName: fileName)
    }

    /// Reads a TLE file from disk; the constellation falls back to the file's name.
    public init(contentsOf url: URL) throws {
        try self.init(data: try Data(contentsOf: url), fileName: url.lastPathComponent)
    }

    /// The lines of a text with LF, CRLF or CR line ends.
    static func lines(of text: String) -> [String] {
        // Swift treats "\r\n" as one Character, so splitting on isNewline handles all three.
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map(String.init)
    }

    static func isBlank(_ line: String) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }
}
