import Foundation
import Testing
@testable import WaymarkCore

/// What the attitude types promise beyond the shared cases: unit length, reading a scene's
/// quaternion from JSON (and refusing what is not one), and the directions a user sees.
@Suite("Attitude")
struct AttitudeTests {
    static func q(_ alpha: Double, _ beta: Double, _ gamma: Double, _ screen: Double = 0) throws -> Quaternion {
        try #require(DeviceOrientation.quaternion(alpha: alpha, beta: beta, gamma: gamma, screenAngle: screen))
    }

    @Test("Quaternions are of unit length; nothing that cannot be one is accepted")
    func unitLength() throws {
        let q = try #require(Quaternion(w: 2, x: 0, y: 0, z: 0))
        #expect(q == .identity)
        #expect(Quaternion(w: 0, x: 0, y: 0, z: 0) == nil)
        #expect(Quaternion(w: .nan, x: 0, y: 0, z: 0) == nil)
        #expect(Quaternion(w: .infinity, x: 1, y: 0, z: 0) == nil)
        #expect(Quaternion(w: 1e300, x: 1e300, y: 0, z: 0) == nil)  // the norm overflows
        #expect(DeviceOrientation.quaternion(alpha: .nan, beta: 0, gamma: 0) == nil)
        #expect(DeviceOrientation.quaternion(alpha: 0, beta: 0, gamma: 0, screenAngle: .infinity) == nil)
        #expect(DeviceOrientation.compassHeading(alpha: 0, beta: .nan, gamma: 0) == nil)
        // A thousand products stay of unit length.
        var turning = Quaternion.identity
        let step = try Self.q(1, 2, 3, 90)
        for _ in 0..<1000 { turning = turning * step }
        #expect(abs((turning.w * turning.w + turning.x * turning.x + turning.y * turning.y + turning.z * turning.z) - 1) < 1e-15)
        let product = step * step.inverse
        #expect(product.isSameRotation(as: .identity, tolerance: 1e-15))
    }

    @Test("A scene's attitude is read from {w, x, y, z}; broken and hostile input is refused with a reason")
    func codable() throws {
        let q = try Self.q(40, 85, -3)
        let data = try JSONEncoder().encode(q)
        #expect(try JSONDecoder().decode(Quaternion.self, from: data) == q)
        // Rounded to six decimals, as a client might send it: still read, and normalised.
        let rounded = try JSONDecoder().decode(Quaternion.self, from: Data(#"{"w": 0.707107, "x": 0.707107, "y": 0, "z": 0}"#.utf8))
        #expect(abs(rounded.w - 0.5.squareRoot()) < 1e-12)
        let refused = [
            #"{"w": 0, "x": 0, "y": 0, "z": 0}"#,
            #"{"w": 2, "x": 0, "y": 0, "z": 0}"#,
            #"{"w": 1e308, "x": 1e308, "y": 0, "z": 0}"#,
            #"{"w": 1, "x": 0, "y": 0}"#,
            #"{"w": "1", "x": 0, "y": 0, "z": 0}"#,
            #"{"w": null, "x": 0, "y": 0, "z": 0}"#,
            #"[1, 0, 0, 0]"#,
            #""#,
        ]
        for text in refused {
            #expect(throws: DecodingError.self, "\(text)") { try JSONDecoder().decode(Quaternion.self, from: Data(text.utf8)) }
        }
        do {
            _ = try JSONDecoder().decode(Quaternion.self, from: Data(#"{"w": 2, "x": 0, "y": 0, "z": 0}"#.utf8))
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("norm 1"))
        }
    }

    @Test("The rectangle moves towards the reference: right when turned left of it, down when tilted above it")
    func directions() throws {
        let reference = try Self.q(30, 90, 0)
        let middle = NavigationRectangle.centre(reference: reference, current: reference, width: 1080, height: 1920)
        #expect(abs(middle.x - 540) < 1e-9 && abs(middle.y - 960) < 1e-9)
        // alpha grows anticlockwise seen from above: +10° is turned left.
        let left = NavigationRectangle.centre(reference: reference, current: try Self.q(40, 90, 0), width: 1080, height: 1920)
        #expect(abs(left.x - 570) < 1e-9 && abs(left.y - 960) < 1e-9)
        let up = NavigationRectangle.centre(reference: reference, current: try Self.q(30, 100, 0), width: 1080, height: 1920)
        #expect(abs(up.x - 540) < 1e-9 && abs(up.y - (960 + 1920.0 / 18)) < 1e-9)
    }

    @Test("Level tilt: a phone held upright and turned clockwise by 10° reads +10°; a flat one has none")
    func levelTilt() throws {
        // Upright facing north, then turned clockwise as the user looks at it: −10° about the device's z axis.
        let tilted = try Self.q(0, 90, 0) * Quaternion(axis: (0, 0, 1), angle: -10 * .pi / 180)
        #expect(abs(try #require(tilted.levelTilt) - 10 * .pi / 180) < 1e-12)
        #expect(try Self.q(0, 0, 0).levelTilt == nil)
        #expect(try Self.q(123, -180, 0).levelTilt == nil)
        // The same camera frame in landscape: no tilt either.
        #expect(abs(try #require(try Self.q(120, 0, -90, 90).levelTilt)) < 1e-12)
    }

    @Test("Compass heading: where the back camera looks, clockwise from north; none when it looks straight down")
    func compassHeading() throws {
        #expect(abs(try #require(DeviceOrientation.compassHeading(alpha: 0, beta: 90, gamma: 0))) < 1e-9)
        #expect(abs(try #require(DeviceOrientation.compassHeading(alpha: 90, beta: 90, gamma: 0)) - 270) < 1e-9)
        #expect(abs(try #require(DeviceOrientation.compassHeading(alpha: 270, beta: 90, gamma: 0)) - 90) < 1e-9)
        #expect(DeviceOrientation.compassHeading(alpha: 10, beta: 0, gamma: 0) == nil)
        // Never 360: a hair west of north is 359.99…, a hair east 0.00….
        for alpha in stride(from: -1e-12, through: 1e-12, by: 1e-13) {
            let heading = try #require(DeviceOrientation.compassHeading(alpha: alpha, beta: 90, gamma: 0))
            #expect(heading >= 0 && heading < 360)
        }
    }
}
