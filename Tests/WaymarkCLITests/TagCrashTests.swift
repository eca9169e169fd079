#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import WaymarkTestSupport
import WaymarkCore

/// Kills `waymark tag` with SIGKILL at random moments, many times. Tagging is deterministic, so
/// every photo must afterwards be byte for byte either the original or the fully tagged file.
@Suite("waymark tag survives kill -9 at any moment", .serialized)
struct TagCrashTests {
    static let photoCount = 60
    static let kills = 30

    @Test("after every kill each photo is untouched or fully tagged, and a last run finishes the job")
    func killedAtRandom() async throws {
        let folder = try TemporaryFolder()
        let base = folder.url.appendingPathComponent("base.jpg")
        try await ExternalTool.makePhoto(base, time: "2024:06:01 12:00:00", size: "1600x1200")
        let track = folder.url.appendingPathComponent("track.gpx")
        let fixes = stride(from: 0.0, through: 600, by: 5).map {
            Fix(latitude: 46 + $0 / 1e5, longitude: 14 + $0 / 1e5, altitude: 300, accuracy: 3, time: Date(timeIntervalSince1970: 1_717_243_200 + $0))
        }
        try TrackFile.write([Track(fixes: fixes)], as: .gpx).write(to: track)

        // The expected result for each photo, from an uninterrupted run on a separate copy.
        let photos = folder.url.appendingPathComponent("photos"), reference = folder.url.appendingPathComponent("reference")
        for dir in [photos, reference] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for i in 0..<Self.photoCount {
                let url = dir.appendingPathComponent(String(format: "IMG_%04d.JPG", i))
                try FileManager.default.copyItem(at: base, to: url)
            }
        }
        let args = ["--track", track.path, "--offset", "0:00:00", "--qr-search", "off"]
        // Give each photo its own time so each gets its own position.
        try await ExternalTool.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal<${FileName;s/IMG_0*(\\d+).*/'2024:06:01 12:00:'.sprintf('%02d',$1)/e}", photos.path, reference.path])
        var originals: [String: Data] = [:]
        for i in 0..<Self.photoCount {
            let name = String(format: "IMG_%04d.JPG", i)
            originals[name] = try Data(contentsOf: photos.appendingPathComponent(name))
        }
        let clock = ContinuousClock()
        let started = clock.now
        let full = try await WaymarkBinary.run(["tag", reference.path] + args)
        let fullDuration = clock.now - started
        #expect(full.status == 0, "\(full.stderr)")
        var tagged: [String: Data] = [:]
        for name in originals.keys { tagged[name] = try Data(contentsOf: reference.appendingPathComponent(name)) }
        #expect(tagged.allSatisfy { originals[$0.key] != $0.value }, "the reference run tagged every photo")

        var generator = SystemRandomNumberGenerator()
        // Kill at a random moment within the window; a run that finishes first shrinks the window,
        // so that kills land mid-run whatever the speed of the machine. Each try starts from the
        // originals, so every run has the whole folder to do (a folder left mostly tagged by earlier
        // kills makes a run too quick to catch); the last run below starts from the last kill's state.
        var window = max(0.05, Double(fullDuration.components.seconds) + Double(fullDuration.components.attoseconds) / 1e18)
        var interrupted = 0, tries = 0
        while interrupted < Self.kills && tries < Self.kills * 3 {
            tries += 1
            for (name, original) in originals { try original.write(to: photos.appendingPathComponent(name)) }
            let process = WaymarkBinary.start(["tag", photos.path] + args)
            try process.run()
            usleep(UInt32(Double.random(in: 0...window, using: &generator) * 1_000_000))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                interrupted += 1
            } else {
                window *= 0.7
            }
            process.waitUntilExit()
            for (name, original) in originals {
                let now = try Data(contentsOf: photos.appendingPathComponent(name))
                #expect(now == original || now == tagged[name], "\(name) is neither untouched nor fully tagged")
            }
        }
        #expect(interrupted == Self.kills, "\(Self.kills) runs were killed mid-way (\(interrupted) in \(tries) tries)")

        let last = try await WaymarkBinary.run(["tag", photos.path] + args)
        #expect(last.status == 0, "\(last.stderr)")
        for (name, expected) in tagged {
            #expect(try Data(contentsOf: photos.appendingPathComponent(name)) == expected, "\(name) did not end fully tagged")
        }
        // No temporary file is left behind once a run completes.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: photos.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // And exiftool reads every photo without complaint.
        let validation = String(decoding: try await ExternalTool.run(["exiftool", "-q", "-validate", "-warning", "-error", "-a", photos.path], allowFailure: true), as: UTF8.self)
        #expect(!validation.contains("Error"), "\(validation)")
    }
}
