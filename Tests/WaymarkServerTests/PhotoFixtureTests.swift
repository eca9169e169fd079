import Foundation
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkTestSupport
@testable import WaymarkServer

@Suite("Real cameras' files: every one libvips can read is stored with its sizes, the others are refused clearly")
struct PhotoFixtureTests {
    @Test("Every photo of the shared fixtures: 201 with upright, stripped sizes, or a 415/422 that says why, nothing left behind", arguments: TestDatabase.all)
    func fixtures(database: TestDatabase) async throws {
        let folder = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = Fixtures.url("photos")
        let names = try FileManager.default.contentsOfDirectory(atPath: photos.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names.count >= 15, "the shared fixtures are there: \(names)")
        try await withServer(database) { server in
            let alice = try await server.register("alice-\(UUID().uuidString.prefix(8).lowercased())")
            var stored: [String: PhotoDTO] = [:], refused: [String: String] = [:]
            for (index, name) in names.enumerated() {
                let data = try Data(contentsOf: photos.appendingPathComponent(name))
                let response = try await server.upload(data, token: alice.token, filename: name)
                switch response.status {
                case .created:
                    let photo = try response.decode(PhotoDTO.self)
                    stored[name] = photo
                    #expect(photo.bytes == data.count && photo.width > 0 && photo.height > 0, "\(name)")
                    let large = try await server.send(.GET, "/api/v1/photos/\(photo.id)/image/large")
                    #expect(large.status == .ok && large.headers.first(name: .contentType) == "image/jpeg", "\(name)")
                    let file = folder.appendingPathComponent("large-\(index).jpg")  // not the fixture's name: "GPS.jpg" would match below
                    try Data(large.body.readableBytesView).write(to: file)
                    // exiftool, not our reader, says what the derivative is: upright like the photo, no metadata left.
                    let tags = try await ExternalTool.run(["exiftool", "-j", "-G1", "-a", "-EXIF:all", "-XMP:all", "-IPTC:all", "-MakerNotes:all", "-GPS:all", file.path])
                    let text = String(decoding: tags, as: UTF8.self)
                    #expect(!text.contains("GPS") && !text.contains("MakerNotes") && !text.contains("ExifIFD") && !text.contains("IFD0"), "\(name): \(text)")
                    let size = String(decoding: try await ExternalTool.run(["exiftool", "-s3", "-ImageSize", file.path]), as: UTF8.self)
                        .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "x").compactMap { Double($0) }
                    #expect(size.count == 2 && max(size[0], size[1]) <= 2048, "\(name): \(size)")
                    if size.count == 2 {
                        let ratio = size[0] / size[1], expected = Double(photo.width) / Double(photo.height)
                        #expect(abs(ratio - expected) / expected < 0.02, "\(name): the large size is \(size), the photo \(photo.width)×\(photo.height)")
                    }
                case .unsupportedMediaType, .unprocessableEntity:
                    let problem = try response.apiError()
                    #expect(!problem.reason.isEmpty, "\(name)")
                    refused[name] = "\(response.status.code) \(problem.error): \(problem.reason)"
                default:
                    Issue.record("\(name): \(response.status) \(response.text)")
                }
            }
            // Every camera JPEG and the TIFF is stored. The RAW samples (ExifTool's, a few KB each)
            // carry previews of 8 to 384 pixels, some not even valid JPEG: refused as RAW files
            // without a usable preview. QuickTime.heic is a 623-byte HEIF header without image
            // data: damaged.
            for name in names {
                switch URL(fileURLWithPath: name).pathExtension.lowercased() {
                case "jpg", "tif":
                    #expect(stored[name] != nil, "\(name) is stored: \(refused[name] ?? "")")
                case "cr2", "cr3", "nef", "rw2", "dng":
                    #expect(stored[name] != nil || refused[name]?.hasPrefix("415 raw_without_preview") == true, "\(name): \(refused[name] ?? "")")
                case "heic":
                    #expect(stored[name] != nil || refused[name]?.hasPrefix("422 broken_image") == true, "\(name): \(refused[name] ?? "")")
                default:
                    Issue.record("a fixture of a kind this test does not know: \(name)")
                }
            }
            #expect(stored.count >= 11, "stored \(stored.keys.sorted()); refused \(refused)")
            // Nothing refused is left behind: the blobs are the stored photos' originals and sizes.
            let originals = server.blobFiles().filter { $0.hasPrefix("/sha256/") }
            #expect(originals.count == Set(stored.values.map(\.sha256)).count)
        }
    }
}
