import Foundation
import Testing
@testable import WaymarkCore

/// The attitude cases (`Tests/Conformance/attitude/*.json`, format in its README.md; numbers from
/// scipy's rotation matrices by `Tests/Reference/attitude_reference.py`) run against WaymarkCore.
/// The browser's `Web/scenes/attitude.js` runs the same files
/// (`Tests/Web/unit/attitude-conformance.test.mjs`).
///
/// Strict on purpose: a missing or empty folder, an unknown or missing key fails, never passes.
@Suite("Attitude cases, shared with the browser")
struct AttitudeConformanceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance").appendingPathComponent("attitude")

    /// The case files, by name; empty when the folder is missing (``casesExist()`` fails then).
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    @Test("The attitude cases exist")
    func casesExist() {
        #expect(FileManager.default.fileExists(atPath: Self.folder.path), "no cases at \(Self.folder.path)")
        #expect(!Self.files.isEmpty, "no case file in \(Self.folder.path)")
    }

    @Test("Every case of the file passes", arguments: files)
    func cases(in file: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        let table = try JSONDecoder().decode(JSON.self, from: data)
        do {
            let count = try AttitudeCaseRunner.run(table, file)
            #expect(count > 0)
        } catch let failure as AttitudeCaseFailure {
            Issue.record("\(failure.message)")
        }
    }

    @Test("The runner refuses what it does not know: a case never passes by being misread")
    func strictness() throws {
        let tolerance = #""tolerance": {"quaternion": 1e-12, "radians": 1e-9, "degrees": 1e-7, "pixels": 1e-6}"#
        let flatExpect = #""quaternion": {"w": 1, "x": 0, "y": 0, "z": 0}, "roll": 0, "pitch": 0, "yaw": 0, "levelTilt": null, "compassHeading": null"#
        let flat = #"{"name": "flat", "angles": {"alpha": 0, "beta": 0, "gamma": 0, "screen": 0}, "expect": {\#(flatExpect)}}"#
        let fine = try JSONDecoder().decode(JSON.self, from: Data(#"{"title": "t", \#(tolerance), "cases": [\#(flat)]}"#.utf8))
        #expect(try AttitudeCaseRunner.run(fine, "self-test") == 1)
        let refused = [
            #"{"title": "t", \#(tolerance), "cases": []}"#,
            #"{"title": "t", \#(tolerance), "cases": [\#(flat)], "colour": "green"}"#,
            #"{"title": "t", "tolerance": {"quaternion": 1e-12, "radians": 1e-9, "degrees": 1e-7, "pixels": 5}, "cases": [\#(flat)]}"#,
            #"{"title": "t", "tolerance": {"quaternion": 1e-12, "radians": 1e-9, "degrees": 1e-7}, "cases": [\#(flat)]}"#,
            #"{"title": "t", \#(tolerance), "cases": [{"name": "f", "angles": {"alpha": 0, "beta": 0, "gamma": 0, "screen": 0}, "expect": {\#(flatExpect), "heading": 0}}]}"#,
            #"{"title": "t", \#(tolerance), "cases": [{"name": "f", "angles": {"alpha": 0, "beta": 0, "gamma": 0}, "expect": {\#(flatExpect)}}]}"#,
            #"{"title": "t", \#(tolerance), "cases": [{"name": "f", "angles": {"alpha": 0, "beta": 0, "gamma": 0, "screen": 0}, "expect": {"quaternion": {"w": 1, "x": 0, "y": 0, "z": 0}}}]}"#,
            #"{"title": "t", \#(tolerance), "cases": [{"name": "f", "angles": {"alpha": 0, "beta": 0, "gamma": 0, "screen": 0}, "expect": {"quaternion": {"w": 1, "x": 0, "y": 0, "z": 0}, "roll": 0, "pitch": 0.1, "yaw": 0, "levelTilt": null, "compassHeading": null}}]}"#,
            #"{"title": "t", \#(tolerance), "cases": [{"name": "f", "angles": {"alpha": 0, "beta": 0, "gamma": 0, "screen": 0}, "expect": {"quaternion": {"w": 1, "x": 0, "y": 0, "z": 0}, "roll": 0, "pitch": 0, "yaw": 0, "levelTilt": 0, "compassHeading": null}}]}"#,
            #"{"title": "t", \#(tolerance), "cases": [{"name": "n", "reference": {"angles": {"alpha": 0, "beta": 0, "gamma": 0, "screen": 0}}, "current": {"quaternion": {"w": 0, "x": 0, "y": 0, "z": 0}}, "view": {"width": 10, "height": 10}, "expect": {"delta": {"w": 1, "x": 0, "y": 0, "z": 0}, "roll": 0, "pitch": 0, "centre": {"x": 5, "y": 5}}}]}"#,
            #"{"title": "t", \#(tolerance), "cases": [{"name": "n", "reference": {"angles": {"alpha": 0, "beta": 0, "gamma": 0, "screen": 0}}, "current": {"angles": {"alpha": 0, "beta": 0, "gamma": 0, "screen": 0}}, "view": {"width": 10, "height": 10}, "expect": {"delta": {"w": 1, "x": 0, "y": 0, "z": 0}, "roll": 0, "pitch": 0, "centre": {"x": 6, "y": 5}}}]}"#,
        ]
        for text in refused {
            let table = try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
            #expect(throws: AttitudeCaseFailure.self, "\(text)") { try AttitudeCaseRunner.run(table, "self-test") }
        }
    }
}

/// Why a case failed, or why it could not be read.
struct AttitudeCaseFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Runs one case file against WaymarkCore; throws ``AttitudeCaseFailure`` at the first difference.
enum AttitudeCaseRunner {
    struct Tolerance {
        var quaternion: Double, radians: Double, degrees: Double, pixels: Double
    }

    /// Runs every case of `table`; returns how many it checked.
    static func run(_ table: JSON, _ name: String) throws -> Int {
        let object = try keys(table, required: ["title", "tolerance", "cases"], optional: ["note"], name)
        _ = try string(object["title"], "\(name).title")
        let t = try tolerance(object["tolerance"], "\(name).tolerance")
        guard case let .array(cases)? = object["cases"], !cases.isEmpty else { throw fail("\(name).cases: expected a list of cases") }
        for (index, value) in cases.enumerated() {
            let label = "\(name) › \(value["name"]?.string ?? "case \(index + 1)")"
            _ = try string(value["name"], "\(label).name")
            if value["angles"] != nil { try attitudeCase(value, t, label) } else { try navigationCase(value, t, label) }
        }
        return cases.count
    }

    static func attitudeCase(_ value: JSON, _ t: Tolerance, _ at: String) throws {
        let object = try keys(value, required: ["name", "angles", "expect"], optional: ["note"], at)
        let a = try angles(object["angles"], "\(at).angles")
        let e = try keys(object["expect"] ?? .null, required: ["quaternion", "roll", "pitch", "yaw", "levelTilt", "compassHeading"], optional: [], "\(at).expect")
        guard let q = DeviceOrientation.quaternion(alpha: a.alpha, beta: a.beta, gamma: a.gamma, screenAngle: a.screen) else {
            throw fail("\(at): no quaternion")
        }
        try sameRotation(q, try quaternion(e["quaternion"], "\(at).expect.quaternion"), t.quaternion, "\(at) quaternion")
        try sameAngle(q.roll, try numberOrNull(e["roll"], "\(at).expect.roll"), t.radians, 2 * .pi, "\(at) roll")
        let pitch = try number(e["pitch"], "\(at).expect.pitch")
        try need(abs(q.pitch - pitch) <= t.radians, "\(at) pitch: \(q.pitch), expected \(pitch)")
        try sameAngle(q.yaw, try numberOrNull(e["yaw"], "\(at).expect.yaw"), t.radians, 2 * .pi, "\(at) yaw")
        try sameOptional(q.levelTilt, try numberOrNull(e["levelTilt"], "\(at).expect.levelTilt"), t.radians, 2 * .pi, "\(at) levelTilt")
        try sameOptional(DeviceOrientation.compassHeading(alpha: a.alpha, beta: a.beta, gamma: a.gamma),
                         try numberOrNull(e["compassHeading"], "\(at).expect.compassHeading"), t.degrees, 360, "\(at) compassHeading")
    }

    static func navigationCase(_ value: JSON, _ t: Tolerance, _ at: String) throws {
        let object = try keys(value, required: ["name", "reference", "current", "view", "expect"], optional: ["note"], at)
        let q0 = try attitude(object["reference"], "\(at).reference")
        let q1 = try attitude(object["current"], "\(at).current")
        let view = try keys(object["view"] ?? .null, required: ["width", "height"], optional: [], "\(at).view")
        let width = try number(view["width"], "\(at).view.width"), height = try number(view["height"], "\(at).view.height")
        try need(width > 0 && height > 0, "\(at).view: a view has a size")
        let e = try keys(object["expect"] ?? .null, required: ["delta", "roll", "pitch", "centre"], optional: [], "\(at).expect")
        let centreExpected = try keys(e["centre"] ?? .null, required: ["x", "y"], optional: [], "\(at).expect.centre")
        let delta = NavigationRectangle.delta(reference: q0, current: q1)
        try sameRotation(delta, try quaternion(e["delta"], "\(at).expect.delta"), t.quaternion, "\(at) qΔ")
        let roll = try numberOrNull(e["roll"], "\(at).expect.roll")
        try sameAngle(delta.roll, roll, t.radians, 2 * .pi, "\(at) ROLL")
        let pitch = try number(e["pitch"], "\(at).expect.pitch")
        try need(abs(delta.pitch - pitch) <= t.radians, "\(at) PITCH: \(delta.pitch), expected \(pitch)")
        let centre = NavigationRectangle.centre(reference: q0, current: q1, width: width, height: height)
        let same = NavigationRectangle.centre(delta: delta, width: width, height: height)
        try need(centre.x == same.x && centre.y == same.y, "\(at): the two ways to the centre differ")
        let x = try numberOrNull(centreExpected["x"], "\(at).expect.centre.x")
        try need(x == nil || roll != nil, "\(at): x is null exactly where ROLL is")
        if let x {
            // x = 0 and x = width are the same place (ROLL = ±π).
            try need(circular(centre.x, x, width) <= t.pixels, "\(at) x: \(centre.x), expected \(x)")
        } else {
            try need(centre.x >= 0 && centre.x <= width, "\(at): x \(centre.x) outside the view")
        }
        let y = try number(centreExpected["y"], "\(at).expect.centre.y")
        try need(abs(centre.y - y) <= t.pixels, "\(at) y: \(centre.y), expected \(y)")
    }

    // MARK: Reading

    static func fail(_ message: String) -> AttitudeCaseFailure { AttitudeCaseFailure(message: message) }

    static func need(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw fail(message()) }
    }

    static func keys(_ value: JSON, required: [String], optional: [String], _ at: String) throws -> [String: JSON] {
        guard let object = value.object else { throw fail("\(at): expected an object") }
        for key in object.keys where !required.contains(key) && !optional.contains(key) { throw fail("\(at): unknown key \"\(key)\"") }
        for key in required where object[key] == nil { throw fail("\(at): missing key \"\(key)\"") }
        return object
    }

    static func string(_ value: JSON?, _ at: String) throws -> String {
        guard let text = value?.string else { throw fail("\(at): expected a string") }
        return text
    }

    static func number(_ value: JSON?, _ at: String) throws -> Double {
        guard case let .number(number)? = value, number.isFinite else { throw fail("\(at): expected a number") }
        return number
    }

    static func numberOrNull(_ value: JSON?, _ at: String) throws -> Double? {
        if case .null? = value { return nil }
        return try number(value, at)
    }

    static func tolerance(_ value: JSON?, _ at: String) throws -> Tolerance {
        let object = try keys(value ?? .null, required: ["quaternion", "radians", "degrees", "pixels"], optional: [], at)
        var found: [String: Double] = [:]
        for (key, value) in object {
            let number = try number(value, "\(at).\(key)")
            try need(number > 0 && number <= 1e-3, "\(at).\(key): a tolerance is small and positive")
            found[key] = number
        }
        return Tolerance(quaternion: found["quaternion"] ?? 0, radians: found["radians"] ?? 0,
                         degrees: found["degrees"] ?? 0, pixels: found["pixels"] ?? 0)
    }

    static func quaternion(_ value: JSON?, _ at: String) throws -> Quaternion {
        let object = try keys(value ?? .null, required: ["w", "x", "y", "z"], optional: [], at)
        guard let q = Quaternion(w: try number(object["w"], "\(at).w"), x: try number(object["x"], "\(at).x"),
                                 y: try number(object["y"], "\(at).y"), z: try number(object["z"], "\(at).z")) else {
            throw fail("\(at): not a rotation")
        }
        return q
    }

    static func angles(_ value: JSON?, _ at: String) throws -> (alpha: Double, beta: Double, gamma: Double, screen: Double) {
        let object = try keys(value ?? .null, required: ["alpha", "beta", "gamma", "screen"], optional: [], at)
        return (try number(object["alpha"], "\(at).alpha"), try number(object["beta"], "\(at).beta"),
                try number(object["gamma"], "\(at).gamma"), try number(object["screen"], "\(at).screen"))
    }

    static func attitude(_ value: JSON?, _ at: String) throws -> Quaternion {
        guard let value, value.object != nil else { throw fail("\(at): expected an object") }
        if value["angles"] != nil {
            let object = try keys(value, required: ["angles"], optional: [], at)
            let a = try angles(object["angles"], "\(at).angles")
            guard let q = DeviceOrientation.quaternion(alpha: a.alpha, beta: a.beta, gamma: a.gamma, screenAngle: a.screen) else {
                throw fail("\(at): no quaternion")
            }
            return q
        }
        let object = try keys(value, required: ["quaternion"], optional: [], at)
        return try quaternion(object["quaternion"], "\(at).quaternion")
    }

    // MARK: Comparing

    /// The difference of two angles on the circle of `turn`.
    static func circular(_ a: Double, _ b: Double, _ turn: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: turn)
        return min(d, turn - d)
    }

    static func sameRotation(_ q: Quaternion, _ expected: Quaternion, _ within: Double, _ at: String) throws {
        try need(q.isSameRotation(as: expected, tolerance: within), "\(at): \(q), expected ±\(expected)")
    }

    /// An angle, or nil: undefined there (gimbal lock), where any finite angle in [−π, π] is right.
    static func sameAngle(_ found: Double, _ expected: Double?, _ within: Double, _ turn: Double, _ at: String) throws {
        guard let expected else {
            try need(found.isFinite && abs(found) <= turn / 2 + 1e-12, "\(at): \(found) is not an angle")
            return
        }
        try need(found.isFinite && circular(found, expected, turn) <= within, "\(at): \(found), expected \(expected) (within \(within))")
    }

    static func sameOptional(_ found: Double?, _ expected: Double?, _ within: Double, _ turn: Double, _ at: String) throws {
        guard let expected else {
            try need(found == nil, "\(at): \(String(describing: found)), expected none")
            return
        }
        guard let found else { throw fail("\(at): none, expected \(expected)") }
        try sameAngle(found, expected, within, turn, at)
    }
}
