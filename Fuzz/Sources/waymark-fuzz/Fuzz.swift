import Foundation
import Crypto
import WaymarkCore
import WaymarkMediaReaders
import WaymarkServerReaders

/// The reader this process fuzzes, from `WAYMARK_FUZZ_READER` (scripts/fuzz sets it).
///
/// A track format's name (`gpx`, `kml`, `geojson`, `nmea`, `fit`, `tcx`, `igc`, `csv`, …)
/// fuzzes `TrackFile.read` with a file of that extension, so a format added to `TrackFile`
/// is covered without a change here; `nmea-stream` fuzzes `NMEAStreamParser`, `envelope`
/// the route envelope's JSON and Base64 decoding and its checks (no key derivation),
/// `plaintext` the decrypted route's JSON; `tiff`, `jpeg` and `bmff` the photo structures Waymark
/// reads itself (TIFF/IFD, JPEG layout, ISO-BMFF, and the append-only GPS edit: ``MediaFuzz``);
/// `multipart` a photo upload's body and `cursor` a page cursor (``ServerFuzz``).
let reader: String = ProcessInfo.processInfo.environment["WAYMARK_FUZZ_READER"] ?? "gpx"

/// A fixed master key: opening an envelope with it exercises AES-GCM and the plaintext
/// decoder without running scrypt for every input.
let fuzzKey = SymmetricKey(data: Data(repeating: 7, count: 32))

/// The readers there are: every track format, then the others.
let readers = TrackFormat.allCases.map(\.fileExtension) + ["nmea-stream", "envelope", "plaintext"]
    + ["tiff", "jpeg", "bmff", "multipart", "cursor"]

/// libFuzzer calls this once before any input. Two modes for scripts/fuzz, which exit at once:
/// `WAYMARK_FUZZ_LIST_READERS=1` prints the readers, one per line;
/// `WAYMARK_FUZZ_WRITE_SEEDS=DIR` writes seeds made by Waymark's own code into `DIR/<reader>/`.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> Int32 {
    let environment = ProcessInfo.processInfo.environment
    if environment["WAYMARK_FUZZ_LIST_READERS"] != nil {
        print(readers.joined(separator: "\n"))
        exit(0)
    }
    if let folder = environment["WAYMARK_FUZZ_WRITE_SEEDS"] {
        do {
            try writeSeeds(to: URL(fileURLWithPath: folder))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("waymark-fuzz: cannot write seeds: \(error)\n".utf8))
            exit(1)
        }
    }
    guard readers.contains(reader) else {
        FileHandle.standardError.write(Data("waymark-fuzz: unknown reader \(reader); readers: \(readers.joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return 0
}

/// An envelope and its plaintext, made by the code that makes them for real (PBKDF2 with few
/// rounds, so this takes no time; the fuzzer never derives a key); the media readers' files
/// (also made from the shared fixtures' photos, at `WAYMARK_FIXTURES`, when it is set), forms
/// and cursors.
func writeSeeds(to folder: URL) throws {
    let start = Date(timeIntervalSince1970: 1_717_236_000)
    let fixes = (0..<5).map { index in
        Fix(latitude: 46.5 + Double(index) * 0.001, longitude: 13.7, altitude: 1000 + Double(index),
            accuracy: 4, time: start.addingTimeInterval(Double(index)))
    }
    let route = Route(nonce: "2OANEZK7Q1XD", qrPeriod: 5, tracks: [Track(fixes: fixes), Track(fixes: [fixes[0]])])
    let envelope = try RouteEnvelope.seal(route, passphrase: "correct horse", nonce: "2OANEZK7Q1XD", kdf: .pbkdf2(iterations: 1000))
    var seeds: [(String, String, Data)] = [
        ("envelope", "sealed.json", envelope.jsonData()),
        ("envelope", "scrypt.json", try RouteEnvelope.seal(route, passphrase: "correct horse", nonce: "2OANEZK7Q1XD").jsonData()),
        ("envelope", "sealed.b64", Data(envelope.jsonData().base64EncodedString().utf8)),
        ("plaintext", "route.json", RoutePlaintext.encode(route)),
    ]
    let fixtures = ProcessInfo.processInfo.environment["WAYMARK_FIXTURES"].map { URL(fileURLWithPath: $0) }
    seeds += MediaFuzz.seeds(fixtures: fixtures).map { ($0.reader, $0.name, $0.data) }
    seeds += ServerFuzz.seeds().map { ($0.reader, $0.name, $0.data) }
    for (reader, name, data) in seeds {
        let directory = folder.appendingPathComponent(reader)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try data.write(to: directory.appendingPathComponent(name))
    }
}

/// libFuzzer's entry for a program with its own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The program's `main`: SwiftPM links an executable with `main` defined as `<module>_main`,
/// so libFuzzer's own `main` is not used; this hands the command line to libFuzzer's driver.
@_cdecl("waymark_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { bytes, size in fuzzOneInput(bytes, size) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    switch reader {
    case "nmea-stream":
        var parser = NMEAStreamParser()
        // Feed in uneven pieces, as a serial port does.
        var index = 0, piece = 1
        while index < data.count {
            let end = min(data.count, index + piece)
            _ = parser.consume(data[index..<end])
            index = end
            piece = piece % 97 + 13
        }
        _ = parser.finish()
    case "envelope":
        let envelope = (try? RouteEnvelope.decode(json: data)) ?? {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return Data(base64Encoded: text).flatMap { try? RouteEnvelope.decode(json: $0) }
        }()
        if let envelope {
            _ = envelope.jsonData()
            _ = try? envelope.open(master: fuzzKey, nonce: "2OANEZK7Q1XD")
        }
    case "plaintext":
        _ = try? RoutePlaintext.decode(data)
    case "tiff":
        MediaFuzz.tiff(data)
    case "jpeg":
        MediaFuzz.jpeg(data)
    case "bmff":
        MediaFuzz.bmff(data)
    case "multipart":
        ServerFuzz.multipart(data)
    case "cursor":
        ServerFuzz.cursor(data)
    default:
        _ = try? TrackFile.read(data, fileName: "fuzz.\(reader)")
    }
    return 0
}
