import Foundation
import Testing
@testable import WaymarkCore

/// The recorder's rule book (`Tests/Conformance/recorder/*.json`, format in
/// `Tests/Conformance/README.md`) run against WaymarkCore's engine. The browser's engine runs the
/// same files (`Tests/Web/unit/recorder-conformance.test.mjs`); a scenario that only one side
/// passes fails the build.
///
/// Strict on purpose: a missing or empty rule book, an unknown key, step or action fails,
/// never passes.
@Suite("Recorder rule book, shared with the browser's engine")
struct RecorderConformanceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Conformance").appendingPathComponent("recorder")

    /// The scenario files, by name; empty when the folder is missing (``ruleBookExists()`` fails then).
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    /// The numbered rules the Swift unit tests covered when the rule book was written; the book
    /// must cover them all. SCO-09 and SCO-12 (the scrypt verifier) stay Swift-only.
    static let requiredRules = ["SCO-07", "SCO-08", "SCO-10", "SRR-01"] + (4...17).map { String(format: "SRR-%02d", $0) }

    @Test("The rule book exists and is not empty")
    func ruleBookExists() {
        #expect(FileManager.default.fileExists(atPath: Self.folder.path), "no rule book at \(Self.folder.path)")
        #expect(!Self.files.isEmpty, "no scenario file in \(Self.folder.path)")
    }

    @Test("Every scenario of the file passes", arguments: files)
    func scenarios(in file: String) throws {
        let book = try Self.book(file)
        for (index, scenario) in book.enumerated() {
            let name = "\(file) › \(scenario["name"]?.string ?? "scenario \(index + 1)")"
            do {
                try ConformanceRunner.run(scenario, name)
            } catch let failure as ScenarioFailure {
                Issue.record("\(failure.message)")
            }
        }
    }

    @Test("The rule book covers every rule the Swift unit tests cover")
    func coverage() throws {
        var covered = Set<String>()
        for file in Self.files {
            for scenario in try Self.book(file) {
                for rule in scenario["rules"]?.array ?? [] { if let rule = rule.string { covered.insert(rule) } }
            }
        }
        #expect(Self.requiredRules.filter { !covered.contains($0) } == [])
    }

    @Test("The runner refuses what it does not know: a scenario never passes by being misread")
    func strictness() throws {
        let base = #""name": "x", "rules": ["SRR-05"], "start": {"uptime": 0, "wall": 1748772000}, "sourceIsLive": true, "nonce": "N""#
        let refused = [
            #"{\#(base), "steps": [{"at": 1, "jump": true}]}"#,
            #"{\#(base), "steps": [{"at": 1, "action": "teleport"}]}"#,
            #"{\#(base), "steps": [{"at": 1, "check": {"colour": "green"}}]}"#,
            #"{\#(base), "steps": [{"at": 1, "check": {}}]}"#,
            #"{\#(base), "steps": [{"at": 1, "noFix": true, "expect": {"ignored": {"reason": "noFix"}}, "extra": 1}]}"#,
            #"{\#(base), "steps": []}"#,
            #"{"name": "x", "rules": [], "start": {"uptime": 0, "wall": 0}, "sourceIsLive": true, "nonce": "N", "steps": [{"at": 1, "check": {"phase": "waitingForFix"}}]}"#,
            #"{"name": "x", "rules": ["SRR-01"], "durationTexts": [{"seconds": 1, "text": "1 s", "unit": "s"}]}"#,
            #"{"name": "x", "rules": ["SRR-01"], "speedTexts": []}"#,
        ]
        for text in refused {
            let scenario = try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
            #expect(throws: ScenarioFailure.self, "\(text)") { try ConformanceRunner.run(scenario, "self-test") }
        }
        let fine = try JSONDecoder().decode(JSON.self, from: Data(#"{\#(base), "steps": [{"at": 1, "check": {"phase": "waitingForFix"}}]}"#.utf8))
        try ConformanceRunner.run(fine, "self-test")
    }

    /// The scenarios of one file, after checking its outline.
    static func book(_ file: String) throws -> [JSON] {
        let data = try Data(contentsOf: folder.appendingPathComponent(file))
        let book = try JSONDecoder().decode(JSON.self, from: data)
        try ConformanceRunner.keys(book, required: ["title", "scenarios"], optional: ["note"], file)
        let scenarios = try ConformanceRunner.list(book["scenarios"], "\(file).scenarios")
        try ConformanceRunner.need(!scenarios.isEmpty, "\(file): no scenarios")
        return scenarios
    }
}

/// Why a scenario failed, or why it could not be read.
struct ScenarioFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A JSON value as written, so that the runner can refuse any key it does not know.
enum JSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSON].self)) }
    }

    subscript(key: String) -> JSON? {
        if case let .object(object) = self { return object[key] }
        return nil
    }

    var string: String? { if case let .string(value) = self { return value }; return nil }
    var array: [JSON]? { if case let .array(value) = self { return value }; return nil }
    var object: [String: JSON]? { if case let .object(value) = self { return value }; return nil }
}

/// Runs one scenario of the rule book against WaymarkCore; throws ``ScenarioFailure`` at the
/// first difference, naming the step.
enum ConformanceRunner {
    static let distanceWithin = 0.01
    static let secondsWithin = 1e-6

    static func run(_ scenario: JSON, _ name: String) throws {
        guard let object = scenario.object else { throw ScenarioFailure(message: "\(name): expected an object") }
        _ = try string(object["name"], "\(name).name")
        let rules = try list(object["rules"], "\(name).rules")
        try need(!rules.isEmpty && rules.allSatisfy { rule in
            guard let rule = rule.string else { return false }
            return rule.range(of: #"^S[A-Z]{2}-[0-9]{2}$"#, options: .regularExpression) != nil
        }, "\(name).rules: name one or more rule ids such as \"SRR-06\"")
        if object["steps"] != nil { return try runSteps(scenario, name) }
        let kinds = pureKinds.keys.filter { object[$0] != nil }
        try need(kinds.count == 1, "\(name): a scenario has \"steps\" or exactly one of \(pureKinds.keys.sorted())")
        try runPure(scenario, kind: kinds[0], name)
    }

    // MARK: Reading the book

    static func need(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ScenarioFailure(message: message()) }
    }

    static func keys(_ value: JSON?, required: [String], optional: [String], _ at: String) throws {
        guard let object = value?.object else { throw ScenarioFailure(message: "\(at): expected an object") }
        for key in object.keys.sorted() {
            try need(required.contains(key) || optional.contains(key), "\(at): unknown key \"\(key)\"")
        }
        for key in required { try need(object[key] != nil, "\(at): missing key \"\(key)\"") }
    }

    /// A number, or one JSON cannot write: "NaN", "Infinity", "-Infinity".
    static func number(_ value: JSON?, _ at: String) throws -> Double {
        switch value {
        case let .number(number)?: return number
        case .string("NaN")?: return .nan
        case .string("Infinity")?: return .infinity
        case .string("-Infinity")?: return -.infinity
        default: throw ScenarioFailure(message: "\(at): expected a number, found \(String(describing: value))")
        }
    }

    static func integer(_ value: JSON?, _ at: String) throws -> Int {
        let number = try number(value, at)
        guard number.rounded() == number, abs(number) < 1e15 else {
            throw ScenarioFailure(message: "\(at): expected a whole number, found \(number)")
        }
        return Int(number)
    }

    static func string(_ value: JSON?, _ at: String) throws -> String {
        guard let string = value?.string else { throw ScenarioFailure(message: "\(at): expected a string") }
        return string
    }

    static func bool(_ value: JSON?, _ at: String) throws -> Bool {
        guard case let .bool(bool)? = value else { throw ScenarioFailure(message: "\(at): expected true or false") }
        return bool
    }

    static func list(_ value: JSON?, _ at: String) throws -> [JSON] {
        guard let array = value?.array else { throw ScenarioFailure(message: "\(at): expected a list") }
        return array
    }

    static func fix(_ value: JSON?, _ at: String) throws -> Fix {
        try keys(value, required: ["latitude", "longitude", "time"], optional: ["altitude", "accuracy"], at)
        func orNil(_ key: String) throws -> Double? {
            guard let field = value?[key], field != .null else { return nil }
            return try number(field, "\(at).\(key)")
        }
        return Fix(latitude: try number(value?["latitude"], "\(at).latitude"),
                   longitude: try number(value?["longitude"], "\(at).longitude"),
                   altitude: try orNil("altitude"), accuracy: try orNil("accuracy"),
                   time: Date(timeIntervalSince1970: try number(value?["time"], "\(at).time")))
    }

    static func tracks(_ value: JSON?, _ at: String) throws -> [[Fix]] {
        try list(value, at).enumerated().map { t, track in
            try list(track, "\(at)[\(t)]").enumerated().map { i, fix in try Self.fix(fix, "\(at)[\(t)][\(i)]") }
        }
    }

    /// `at` seconds after `start` on both clocks, or `{uptime, wall}` offsets from it.
    static func instant(_ start: RecorderInstant, _ value: JSON?, _ at: String) throws -> RecorderInstant {
        if case let .number(offset)? = value {
            return RecorderInstant(wall: start.wall.addingTimeInterval(offset), uptime: start.uptime + offset)
        }
        try keys(value, required: ["uptime", "wall"], optional: [], at)
        return RecorderInstant(wall: start.wall.addingTimeInterval(try number(value?["wall"], at)),
                               uptime: start.uptime + (try number(value?["uptime"], at)))
    }

    static func ignored(_ value: JSON?, _ at: String) throws -> IgnoredFix {
        try keys(value, required: ["reason"], optional: ["accuracy"], at)
        let reason = try string(value?["reason"], "\(at).reason")
        if reason == "inaccurate" { return .inaccurate(try number(value?["accuracy"], "\(at).accuracy")) }
        try need(value?["accuracy"] == nil, "\(at): only \"inaccurate\" has an accuracy")
        let reasons: [String: IgnoredFix] = [
            "paused": .paused, "stopped": .stopped, "noFix": .noFix, "duplicate": .duplicate, "outOfOrder": .outOfOrder,
            "future": .future, "weekRollover": .weekRollover, "timeJump": .timeJump, "invalidPosition": .invalidPosition,
        ]
        guard let ignored = reasons[reason] else { throw ScenarioFailure(message: "\(at): unknown reason \"\(reason)\"") }
        return ignored
    }

    // MARK: Comparing

    static func same<T: Equatable>(_ actual: T, _ expected: T, _ at: String) throws {
        try need(actual == expected, "\(at): expected \(expected), got \(actual)")
    }

    static func close(_ actual: Double, _ expected: Double, within: Double, _ at: String) throws {
        try need(actual == expected || abs(actual - expected) <= within, "\(at): expected \(expected) (±\(within)), got \(actual)")
    }

    // MARK: Engine scenarios

    static func runSteps(_ scenario: JSON, _ name: String) throws {
        try keys(scenario, required: ["name", "rules", "start", "sourceIsLive", "nonce", "steps"], optional: ["note", "settings"], name)
        var settings = RecorderSettings()
        if let given = scenario["settings"] {
            let at = "\(name).settings"
            try keys(given, required: [], optional: ["accuracyThreshold", "alertDelay", "qrPeriod", "wifiOnly", "units"], at)
            if let value = given["accuracyThreshold"] { settings.accuracyThreshold = try number(value, at) }
            if let value = given["alertDelay"] { settings.alertDelay = try number(value, at) }
            if let value = given["qrPeriod"] { settings.qrPeriod = try integer(value, at) }
            if let value = given["wifiOnly"] { settings.wifiOnly = try bool(value, at) }
            if let value = given["units"] {
                guard let units = UnitSystem(rawValue: try string(value, at)) else { throw ScenarioFailure(message: "\(at): unknown units") }
                settings.units = units
            }
        }
        try keys(scenario["start"], required: ["uptime", "wall"], optional: [], "\(name).start")
        let start = RecorderInstant(wall: Date(timeIntervalSince1970: try number(scenario["start"]?["wall"], "\(name).start")),
                                    uptime: try number(scenario["start"]?["uptime"], "\(name).start"))
        var engine = RecorderEngine(settings: settings, nonce: try string(scenario["nonce"], "\(name).nonce"),
                                    sourceIsLive: try bool(scenario["sourceIsLive"], "\(name).sourceIsLive"), start: start)
        let steps = try list(scenario["steps"], "\(name).steps")
        try need(!steps.isEmpty, "\(name): no steps")
        for (index, step) in steps.enumerated() {
            let at = "\(name) › step \(index + 1)"
            guard let object = step.object else { throw ScenarioFailure(message: "\(at): expected an object") }
            if object["fix"] != nil || object["noFix"] != nil {
                let isFix = object["fix"] != nil
                try keys(step, required: ["at", "expect", isFix ? "fix" : "noFix"], optional: ["note"], at)
                let event: LocationEvent
                if isFix {
                    event = .fix(try fix(step["fix"], "\(at).fix"))
                } else {
                    try need(step["noFix"] == .bool(true), "\(at): noFix must be true")
                    event = .noFix
                }
                let verdict = engine.handle(event, at: try instant(start, step["at"], "\(at).at"))
                let expect = step["expect"]
                if expect?["accepted"] != nil {
                    try keys(expect, required: ["accepted"], optional: [], "\(at).expect")
                    let accepted = expect?["accepted"]
                    try keys(accepted, required: ["track", "startsTrack"], optional: [], "\(at).expect.accepted")
                    try same(verdict, .accepted(track: try integer(accepted?["track"], "\(at).expect.accepted.track"),
                                                startsTrack: try bool(accepted?["startsTrack"], "\(at).expect.accepted.startsTrack")),
                             "\(at).expect")
                } else {
                    try keys(expect, required: ["ignored"], optional: [], "\(at).expect")
                    try same(verdict, .ignored(try ignored(expect?["ignored"], "\(at).expect.ignored")), "\(at).expect")
                }
            } else if object["action"] != nil {
                let action = try string(step["action"], "\(at).action")
                if action == "units" {
                    try keys(step, required: ["action"], optional: ["note"], at)
                    engine.toggleUnits()
                    continue
                }
                try keys(step, required: ["action", "at"], optional: action == "stop" ? ["note", "route"] : ["note"], at)
                let instant = try instant(start, step["at"], "\(at).at")
                switch action {
                case "pause": engine.pause(at: instant)
                case "resume": engine.resume(at: instant)
                case "gap": engine.breakTrack(at: instant)
                case "stop":
                    let route = engine.stop(at: instant)
                    if let expected = step["route"] { try checkRoute(route, expected, "\(at).route") }
                default: throw ScenarioFailure(message: "\(at): unknown action \"\(action)\"")
                }
            } else if object["check"] != nil {
                try keys(step, required: ["at", "check"], optional: ["note"], at)
                try check(engine, at: try instant(start, step["at"], "\(at).at"), step["check"], "\(at).check")
            } else if object["alertDue"] != nil {
                try keys(step, required: ["at", "alertDue"], optional: ["note"], at)
                try same(engine.alertDue(at: try instant(start, step["at"], "\(at).at")), try bool(step["alertDue"], "\(at).alertDue"),
                         "\(at).alertDue")
            } else {
                throw ScenarioFailure(message: "\(at): unknown step \(object.keys.sorted())")
            }
        }
    }

    static func check(_ engine: RecorderEngine, at instant: RecorderInstant, _ expected: JSON?, _ at: String) throws {
        try keys(expected, required: [], optional: [
            "phase", "status", "lastAccuracy", "distance", "elapsed", "distanceText", "elapsedText", "qr", "trackCount",
            "fixCount", "trackSizes", "tracks", "clockCorrection", "lastIgnored", "units",
        ], at)
        let object = expected?.object ?? [:]
        try need(!object.isEmpty, "\(at): a check that checks nothing")
        let snapshot = engine.snapshot(at: instant)
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            let here = "\(at).\(key)"
            switch key {
            case "phase": try same(snapshot.phase.rawValue, try string(value, here), here)
            case "status": try same(snapshot.status.rawValue, try string(value, here), here)
            case "distanceText": try same(snapshot.distanceText, try string(value, here), here)
            case "elapsedText": try same(snapshot.elapsedText, try string(value, here), here)
            case "units": try same(engine.settings.units.rawValue, try string(value, here), here)
            case "trackCount": try same(snapshot.trackCount, try integer(value, here), here)
            case "fixCount": try same(snapshot.fixCount, try integer(value, here), here)
            case "lastAccuracy": try same(snapshot.lastAccuracy, value == .null ? nil : try number(value, here), here)
            case "distance":
                if value.object != nil {
                    try keys(value, required: ["value", "within"], optional: [], here)
                    try close(snapshot.distance, try number(value["value"], here), within: try number(value["within"], here), here)
                } else {
                    try close(snapshot.distance, try number(value, here), within: distanceWithin, here)
                }
            case "elapsed": try close(snapshot.elapsed, try number(value, here), within: secondsWithin, here)
            case "clockCorrection":
                if value == .null {
                    try same(snapshot.clockCorrection, nil, here)
                } else {
                    guard let correction = snapshot.clockCorrection else {
                        throw ScenarioFailure(message: "\(here): expected \(value), got nil")
                    }
                    try close(correction, try number(value, here), within: secondsWithin, here)
                }
            case "lastIgnored": try same(snapshot.lastIgnored, value == .null ? nil : try ignored(value, here), here)
            case "trackSizes": try same(engine.tracks.map(\.count), try list(value, here).map { try integer($0, here) }, here)
            case "tracks": try same(engine.tracks, try tracks(value, here), here)
            case "qr":
                try keys(value, required: [], optional: ["time", "nonce", "text", "secondsLeft", "period"], here)
                let parts = value.object ?? [:]
                try need(!parts.isEmpty, "\(here): a check that checks nothing")
                for (part, expected) in parts {
                    let there = "\(here).\(part)"
                    switch part {
                    case "time": try same(snapshot.qr.payload.time, try integer(expected, there), there)
                    case "nonce": try same(snapshot.qr.payload.nonce, try string(expected, there), there)
                    case "text": try same(snapshot.qr.payload.text, try string(expected, there), there)
                    case "period": try same(snapshot.qr.period, try integer(expected, there), there)
                    default: try close(snapshot.qr.secondsLeft, try number(expected, there), within: secondsWithin, there)
                    }
                }
            default: throw ScenarioFailure(message: "\(here): unknown check")
            }
        }
    }

    static func checkRoute(_ route: Route, _ expected: JSON, _ at: String) throws {
        try keys(expected, required: [], optional: ["nonce", "qrPeriod", "tracks", "trackSizes"], at)
        for (key, value) in (expected.object ?? [:]).sorted(by: { $0.key < $1.key }) {
            let here = "\(at).\(key)"
            switch key {
            case "nonce": try same(route.nonce, try string(value, here), here)
            case "qrPeriod": try same(route.qrPeriod, try number(value, here), here)
            case "tracks": try same(route.tracks.map(\.fixes), try tracks(value, here), here)
            default: try same(route.tracks.map(\.fixes.count), try list(value, here).map { try integer($0, here) }, here)
            }
        }
    }

    // MARK: Pure cases

    /// Each kind of pure case: the keys of one case, and how to run it.
    static let pureKinds: [String: (keys: [String], run: @Sendable (JSON, String) throws -> Void)] = [
        "distanceTexts": (["metres", "units", "language", "text"], { item, at in
            guard let units = UnitSystem(rawValue: try string(item["units"], at)) else {
                throw ScenarioFailure(message: "\(at): unknown units")
            }
            try same(RecorderFormat.distance(try number(item["metres"], at), units: units, language: try string(item["language"], at)),
                     try string(item["text"], at), at)
        }),
        "durationTexts": (["seconds", "text"], { item, at in
            try same(RecorderFormat.duration(try number(item["seconds"], at)), try string(item["text"], at), at)
        }),
        "qrTexts": (["time", "nonce", "text"], { item, at in
            try same(QRPayload(time: try integer(item["time"], at), nonce: try string(item["nonce"], at)).text,
                     try string(item["text"], at), at)
        }),
        "passphrases": (["text", "usable"], { item, at in
            let usable = (try? Passphrase.validate(try string(item["text"], at))) != nil
            try same(usable, try bool(item["usable"], at), at)
        }),
        "passphraseForms": (["typed", "kept", "same"], { item, at in
            // By scalars: String's == already treats canonically equivalent texts as equal.
            let typed = Array(try string(item["typed"], at).precomposedStringWithCanonicalMapping.unicodeScalars)
            let kept = Array(try string(item["kept"], at).precomposedStringWithCanonicalMapping.unicodeScalars)
            try same(typed == kept, try bool(item["same"], at), at)
        }),
        "geodesicDistances": (["from", "to", "metres", "within"], { item, at in
            try keys(item["from"], required: ["latitude", "longitude"], optional: [], "\(at).from")
            try keys(item["to"], required: ["latitude", "longitude"], optional: [], "\(at).to")
            let distance = Geodesy.distance((try number(item["from"]?["latitude"], at), try number(item["from"]?["longitude"], at)),
                                            (try number(item["to"]?["latitude"], at), try number(item["to"]?["longitude"], at)))
            try close(distance, try number(item["metres"], at), within: try number(item["within"], at), at)
        }),
    ]

    static func runPure(_ scenario: JSON, kind: String, _ name: String) throws {
        try keys(scenario, required: ["name", "rules", kind], optional: ["note"], name)
        guard let (caseKeys, run) = pureKinds[kind] else { return }
        let cases = try list(scenario[kind], "\(name).\(kind)")
        try need(!cases.isEmpty, "\(name): no cases")
        for (index, item) in cases.enumerated() {
            let at = "\(name) › \(kind)[\(index)]"
            try keys(item, required: caseKeys, optional: ["note"], at)
            try run(item, at)
        }
    }
}
