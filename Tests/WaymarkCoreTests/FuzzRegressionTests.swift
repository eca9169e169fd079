import Foundation
import Testing
@testable import WaymarkCore

/// Every input that once crashed a reader: those `make fuzz` (scripts/fuzz) found, which it
/// copies to `FuzzRegressions/<reader>/`, and the reported ones (`reported-*`). The folder name
/// is the reader, as in the harness: a track format's extension goes through `TrackFile.read`.
@Suite("Inputs that once crashed a reader")
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzRegressions")

    /// `reader/file` for every regression input.
    static func inputs() -> [String] {
        let manager = FileManager.default
        let readers = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        return readers.sorted().flatMap { reader in
            ((try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(reader).path)) ?? [])
                .filter { !$0.hasPrefix(".") }.sorted().map { "\(reader)/\($0)" }
        }
    }

    @Test("The regression inputs are there: the reported XML crashes and the fuzzer's finds")
    func present() {
        let inputs = Self.inputs()
        #expect(inputs.contains("gpx/reported-sigill-latin1-comment.gpx"))
        #expect(inputs.contains("gpx/pi-without-data-crash-1d3fdcf4.gpx"))
        #expect(inputs.count >= 5)
    }

    @Test("Each input is read to tracks or refused with a clear error, never a crash", arguments: inputs())
    func readsWithoutCrash(input: String) throws {
        let reader = String(input.prefix(while: { $0 != "/" }))
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(input))
        switch reader {
        case "nmea-stream":
            var parser = NMEAStreamParser()
            _ = parser.consume(data)
            _ = parser.finish()
        case "envelope":
            do { _ = try RouteEnvelope.decode(json: data) } catch let error as RouteEnvelopeError { _ = error }
        case "plaintext":
            do { _ = try RoutePlaintext.decode(data) } catch let error as RouteEnvelopeError { _ = error }
        default:
            #expect(TrackFormat.byExtension("x.\(reader)") != nil, "FuzzRegressions/\(reader) names no reader")
            do {
                let tracks = try TrackFile.read(data, fileName: "regression.\(reader)")
                #expect(tracks.allSatisfy { !$0.fixes.isEmpty })
            } catch let error as TrackFormatError {
                #expect(error.file == "regression.\(reader)")
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test("The reported crashes now read as the tracks they hold", arguments: [
        "gpx/reported-sigill-latin1-comment.gpx", "gpx/reported-sigill-element-name.gpx",
        "gpx/reported-sigill-attribute-name.gpx", "kml/reported-sigill-latin1-comment.kml",
    ])
    func reportedCrashesRead(input: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(input))
        let tracks = try TrackFile.read(data, fileName: (input as NSString).lastPathComponent)
        #expect(tracks.count == 1)
        #expect(tracks.first?.fixes.map(\.latitude) == [46.5, 46.6])
    }
}
