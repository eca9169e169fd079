import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

/// WaymarkCore's attitudes against rotation matrices built independently: for a few hundred
/// random W3C attitudes (seeded, so a failure repeats), `Tests/Reference/attitude_reference.py
/// matrices` builds each matrix with scipy (`Rotation.from_euler('ZXY', …)` and the screen angle)
/// and the Euler angles of qΔ with scipy's `as_euler('ZXY')`; Swift's quaternion must turn the
/// device's axes the same way and give the same ROLL and PITCH.
@Suite("Attitudes against scipy's rotation matrices")
struct AttitudeReferenceTests {
    static let script = TrackReferenceTools.root.appendingPathComponent("Tests/Reference/attitude_reference.py")
    static let screens: [Double] = [0, 90, 180, 270, -90]

    /// Random angles in the spec's ranges and a random screen angle.
    static func randomAttitude(_ random: inout SplitMix) -> [Double] {
        [Double.random(in: 0..<360, using: &random), Double.random(in: -180..<180, using: &random),
         Double.random(in: -90..<90, using: &random), screens.randomElement(using: &random) ?? 0]
    }

    static func quaternion(_ a: [Double]) throws -> Quaternion {
        try #require(DeviceOrientation.quaternion(alpha: a[0], beta: a[1], gamma: a[2], screenAngle: a[3]))
    }

    @Test("300 random attitudes and 300 random pairs agree with scipy")
    func randomAttitudes() async throws {
        var random = SplitMix(seed: 20_261_124)
        let attitudes = (0..<300).map { _ in Self.randomAttitude(&random) }
        // Half the pairs far apart, half a few degrees apart as in a retake.
        let pairs: [[[Double]]] = (0..<300).map { index in
            let reference = Self.randomAttitude(&random)
            if index % 2 == 0 { return [reference, Self.randomAttitude(&random)] }
            let nudge = { (r: inout SplitMix) in Double.random(in: -15...15, using: &r) }
            let current = [reference[0] + nudge(&random), reference[1] + nudge(&random), reference[2] + nudge(&random), reference[3]]
            return [reference, current]
        }
        let folder = try TemporaryFolder()
        let input = folder.url.appendingPathComponent("attitudes.json")
        try JSONSerialization.data(withJSONObject: ["attitudes": attitudes, "pairs": pairs]).write(to: input)
        let output = try await ExternalTool.run([try TrackReferenceTools.python(), Self.script.path, "matrices", input.path])
        let answer = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let matrices = try #require(answer["matrices"] as? [[[Double]]])
        let angles = try #require(answer["pairs"] as? [[String: Any]])
        try #require(matrices.count == attitudes.count && angles.count == pairs.count)

        var worstMatrix = 0.0
        for (a, expected) in zip(attitudes, matrices) {
            let found = try Self.quaternion(a).rotationMatrix
            let difference = zip(found, expected).flatMap { zip($0, $1).map { abs($0 - $1) } }.max() ?? .infinity
            worstMatrix = max(worstMatrix, difference)
            #expect(difference <= 1e-12, "attitude \(a): Swift \(found), scipy \(expected)")
        }
        var worstAngle = 0.0
        for (pair, expected) in zip(pairs, angles) {
            let delta = NavigationRectangle.delta(reference: try Self.quaternion(pair[0]), current: try Self.quaternion(pair[1]))
            let pitch = try #require(expected["pitch"] as? Double)
            worstAngle = max(worstAngle, abs(delta.pitch - pitch))
            #expect(abs(delta.pitch - pitch) <= 1e-8, "pair \(pair): PITCH \(delta.pitch), scipy \(pitch)")
            if let roll = expected["roll"] as? Double {
                let d = abs(delta.roll - roll).truncatingRemainder(dividingBy: 2 * .pi)
                worstAngle = max(worstAngle, min(d, 2 * .pi - d))
                #expect(min(d, 2 * .pi - d) <= 1e-8, "pair \(pair): ROLL \(delta.roll), scipy \(roll)")
            }
        }
        // The agreement is at rounding level, not merely within the tolerances.
        #expect(worstMatrix < 1e-13 && worstAngle < 1e-10, "worst matrix element \(worstMatrix), worst angle \(worstAngle)")
    }

    @Test("The committed case tables are what the reference script derives")
    func tablesMatchTheScript() async throws {
        // `check` exits non-zero, and ExternalTool throws, when a table was edited by hand or is stale.
        try await ExternalTool.run([try TrackReferenceTools.python(), Self.script.path, "check"])
    }
}
