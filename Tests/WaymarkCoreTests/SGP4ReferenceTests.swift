import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkCore

/// Waymark's SGP4/SDP4 and sky map against the python `sgp4` package (Vallado's C++ code,
/// pinned in the venv) with a topocentric conversion written in Tests/Reference/sgp4_reference.py,
/// and against Vallado's own verification output (SGP4-VER.TLE and tcppver.out, which the
/// package ships).
@Suite("SGP4 against the python sgp4 package and Vallado's verification set")
struct SGP4ReferenceTests {
    static let tleFiles = ["gps-ops.txt", "galileo.txt", "glo-ops.txt", "beidou.txt"]

    /// One (satellite, place, time) triple.
    struct Triple {
        var satellite: TLESatellite
        var line1: String
        var line2: String
        var observer: SkyObserver
        var date: Date
    }

    /// The reference's answer for a triple.
    struct Answer {
        var error: Int
        var position: SIMD3<Double>
        var velocity: SIMD3<Double>
        var azimuth: Double
        var elevation: Double
    }

    /// The element lines of every set of a fixture file, by catalogue number.
    static func lines(of file: String) throws -> [Int: (String, String)] {
        let all = TLECatalogue.lines(of: String(decoding: try Fixtures.data("tle/\(file)"), as: UTF8.self))
        var result: [Int: (String, String)] = [:]
        for (index, line) in all.enumerated() where line.hasPrefix("1 ") && index + 1 < all.count {
            if let number = Int(line.dropFirst(2).prefix(5)) { result[number] = (line, all[index + 1]) }
        }
        return result
    }

    /// Runs the reference script once for all triples (JSON on stdin).
    static func reference(_ triples: [Triple]) throws -> [Answer] {
        let cases: [[String: Any]] = triples.map {
            ["line1": $0.line1, "line2": $0.line2, "latitude": $0.observer.latitude, "longitude": $0.observer.longitude,
             "height": $0.observer.height, "time": $0.date.timeIntervalSince1970]
        }
        let folder = try TemporaryFolder()
        let input = folder.url.appendingPathComponent("cases.json")
        let errors = folder.url.appendingPathComponent("stderr.txt")
        try JSONSerialization.data(withJSONObject: cases).write(to: input)
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TrackReferenceTools.python())
        process.arguments = [TrackReferenceTools.root.appendingPathComponent("Tests/Reference/sgp4_reference.py").path]
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardError = try FileHandle(forWritingTo: errors)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self)
        withExtendedLifetime(folder) {}
        try #require(process.terminationStatus == 0, "sgp4_reference.py exited \(process.terminationStatus): \(message)")
        let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        func vector(_ value: Any?) -> SIMD3<Double> {
            let array = value as? [Double] ?? []
            return array.count == 3 ? SIMD3(array[0], array[1], array[2]) : SIMD3(repeating: .nan)
        }
        return rows.map {
            Answer(error: $0["error"] as? Int ?? -1, position: vector($0["position"]), velocity: vector($0["velocity"]),
                   azimuth: $0["azimuth"] as? Double ?? .nan, elevation: $0["elevation"] as? Double ?? .nan)
        }
    }

    /// 2,000 seeded triples: 500 per fixture file, satellites drawn at random, observers spread
    /// evenly over the globe (heights −100 m to 5 km), times within ±3 days of each set's epoch.
    static func triples() throws -> [Triple] {
        var generator = SplitMix(seed: 2006_6753)
        var result: [Triple] = []
        for file in tleFiles {
            let catalogue = try TLECatalogue(contentsOf: Fixtures.url("tle/\(file)"))
            let lines = try lines(of: file)
            for _ in 0..<500 {
                let satellite = try #require(catalogue.satellites.randomElement(using: &generator))
                let pair = try #require(lines[satellite.elements.catalogNumber])
                let latitude = asin(Double.random(in: -1...1, using: &generator)) * 180 / .pi
                let observer = SkyObserver(latitude: latitude, longitude: .random(in: -180..<180, using: &generator),
                                           height: .random(in: -100...5000, using: &generator))
                let date = satellite.elements.epoch.addingTimeInterval(.random(in: -3 * 86400...3 * 86400, using: &generator))
                result.append(Triple(satellite: satellite, line1: pair.0, line2: pair.1, observer: observer, date: date))
            }
        }
        return result
    }

    @Test("2,000 (satellite, place, time) triples: TEME within 1 cm, azimuth and elevation within 0.1°")
    func randomTriples() throws {
        let triples = try Self.triples()
        let answers = try Self.reference(triples)
        try #require(answers.count == triples.count)
        var worstPosition = 0.0, worstVelocity = 0.0, worstElevation = 0.0, worstAzimuth = 0.0, worstDirection = 0.0
        var compared = 0, aboveHorizon = 0
        var seen = Set<GNSSConstellation>()
        for (triple, answer) in zip(triples, answers) {
            let label = "\(triple.satellite.elements.name ?? "?") at \(triple.date) from \(triple.observer)"
            #expect(answer.error == 0, "the reference could not propagate \(label): error \(answer.error)")
            let propagator = try SGP4(triple.satellite.elements)
            let state = try propagator.propagate(to: triple.date)
            let angles = try SkyMap.lookAngles(propagator, from: triple.observer, at: triple.date)
            worstPosition = max(worstPosition, simdLength(state.position - answer.position))
            worstVelocity = max(worstVelocity, simdLength(state.velocity - answer.velocity))
            guard answer.elevation > -5 else { continue }
            compared += 1
            if answer.elevation > 0 { aboveHorizon += 1 }
            if let constellation = triple.satellite.constellation { seen.insert(constellation) }
            worstElevation = max(worstElevation, abs(angles.elevation - answer.elevation))
            // The angle between the two directions in the sky is defined everywhere; the azimuth
            // alone is not at the zenith, so it is compared only below 89.9°, where 0.1° of
            // azimuth is still more than 0.0002° of sky.
            worstDirection = max(worstDirection, Self.separation(angles, answer))
            if answer.elevation < 89.9 {
                worstAzimuth = max(worstAzimuth, abs(remainder(angles.azimuth - answer.azimuth, 360)))
            }
        }
        #expect(worstPosition < 1e-5, "worst TEME position difference \(worstPosition * 1e6) mm")
        #expect(worstVelocity < 1e-8, "worst TEME velocity difference \(worstVelocity * 1e6) mm/s")
        #expect(worstElevation < 0.1, "worst elevation difference \(worstElevation)°")
        #expect(worstAzimuth < 0.1, "worst azimuth difference \(worstAzimuth)°")
        #expect(worstDirection < 0.1, "worst angle between the two directions \(worstDirection)°")
        // The sample must reach the sky of every constellation, not only the far side of the Earth.
        #expect(compared > 500 && aboveHorizon > 400, "\(compared) triples above −5°, \(aboveHorizon) above the horizon")
        #expect(seen == Set(GNSSConstellation.allCases))
    }

    /// The angle in degrees between two directions given by azimuth and elevation.
    static func separation(_ a: LookAngles, _ b: Answer) -> Double {
        func unit(_ azimuth: Double, _ elevation: Double) -> SIMD3<Double> {
            let az = azimuth * .pi / 180, el = elevation * .pi / 180
            return SIMD3(cos(el) * sin(az), cos(el) * cos(az), sin(el))
        }
        let u = unit(a.azimuth, a.elevation), v = unit(b.azimuth, b.elevation)
        return atan2(simdLength(cross(u, v)), (u * v).sum()) * 180 / .pi
    }

    @Test("The sky map lists exactly the satellites the reference puts above the horizon, for three places and times")
    func visibleSatellites() throws {
        let catalogues = try Self.tleFiles.map { try TLECatalogue(contentsOf: Fixtures.url("tle/\($0)")) }
        var all = catalogues[0]
        for other in catalogues.dropFirst() {
            all.satellites += other.satellites
        }
        let lines = try Self.tleFiles.reduce(into: [Int: (String, String)]()) { $0.merge(try Self.lines(of: $1)) { a, _ in a } }
        let views: [(SkyObserver, Date)] = [
            (SkyObserver(latitude: 48.137, longitude: 11.575, height: 520), Date(timeIntervalSince1970: 1_643_980_000)),  // Munich
            (SkyObserver(latitude: -33.857, longitude: 151.215, height: 10), Date(timeIntervalSince1970: 1_644_100_000)),  // Sydney
            (SkyObserver(latitude: 78.22, longitude: 15.65, height: 0), Date(timeIntervalSince1970: 1_643_900_000)),  // Svalbard
        ]
        for (observer, date) in views {
            let triples = all.satellites.map { satellite in
                let pair = lines[satellite.elements.catalogNumber] ?? ("", "")
                return Triple(satellite: satellite, line1: pair.0, line2: pair.1, observer: observer, date: date)
            }
            let answers = try Self.reference(triples)
            let expected = zip(triples, answers).filter { $0.1.error == 0 && $0.1.elevation > 0 }
            let view = SkyMap.visible(all, from: observer, at: date)
            #expect(view.failures.isEmpty)
            #expect(Set(view.satellites.map(\.catalogNumber)) == Set(expected.map { $0.0.satellite.elements.catalogNumber }),
                    "from \(observer)")
            for (triple, answer) in expected {
                guard let shown = view.satellites.first(where: { $0.catalogNumber == triple.satellite.elements.catalogNumber }) else { continue }
                #expect(abs(shown.elevation - answer.elevation) < 0.1 && abs(remainder(shown.azimuth - answer.azimuth, 360)) < 0.1,
                        "\(shown.name): \(shown.azimuth)°/\(shown.elevation)°, reference \(answer.azimuth)°/\(answer.elevation)°")
                #expect(shown.constellation == triple.satellite.constellation && shown.name == triple.satellite.elements.name)
            }
            #expect(view.satellites.map(\.elevation) == view.satellites.map(\.elevation).sorted(by: >))
            // A sky of four full constellations always has several of each above the horizon.
            for constellation in GNSSConstellation.allCases {
                let count = SkyMap.visible(all, from: observer, at: date, constellation: constellation).satellites.count
                #expect(count >= 3 && count == view.satellites.filter { $0.constellation == constellation }.count,
                        "\(count) \(constellation) satellites from \(observer)")
            }
        }
    }

    /// The folder of the venv's python `sgp4` package, which holds Vallado's verification files.
    static func sgp4PackageFolder() async throws -> URL {
        let output = try await ExternalTool.run([try TrackReferenceTools.python(), "-c", "import os, sgp4; print(os.path.dirname(sgp4.__file__))"])
        return URL(fileURLWithPath: String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The line with its checksum recomputed (Vallado's made-up error cases 33333–33335 carry
    /// wrong ones on purpose).
    static func withChecksum(_ line: String) -> String {
        let body = Array(line.prefix(68))
        let sum = body.reduce(0) { $0 + ($1 == "-" ? 1 : ($1.wholeNumberValue ?? 0)) }
        return String(body) + String(sum % 10)
    }

    @Test("Vallado's verification set: every state of tcppver.out within 1 mm, and the error codes 1, 1, 6, 6, 4, 3, 6")
    func valladoVerification() async throws {
        let folder = try await Self.sgp4PackageFolder()
        let tle = TLECatalogue.lines(of: try String(contentsOf: folder.appendingPathComponent("SGP4-VER.TLE"), encoding: .utf8))
            .filter { $0.hasPrefix("1 ") || $0.hasPrefix("2 ") }
        let rows = TLECatalogue.lines(of: try String(contentsOf: folder.appendingPathComponent("tcppver.out"), encoding: .utf8))
        // The expected states, one block per satellite in the order of SGP4-VER.TLE (which has
        // satellite 20413 twice): minutes after epoch, position and velocity.
        var blocks: [[(Double, SIMD3<Double>, SIMD3<Double>)]] = []
        for row in rows {
            let fields = row.split(separator: " ").map(String.init)
            let numbers = fields.prefix(7).compactMap(Double.init)
            if fields.count == 2 && fields[1] == "xx" {
                blocks.append([])
            } else if fields.count >= 7, numbers.count == 7, !blocks.isEmpty {
                blocks[blocks.count - 1].append(
                    (numbers[0], SIMD3(numbers[1], numbers[2], numbers[3]), SIMD3(numbers[4], numbers[5], numbers[6])))
            }
        }
        try #require(tle.count == 66 && blocks.count == 33)

        var errors: [Int] = []
        var worstPosition = 0.0, worstVelocity = 0.0, states = 0
        for index in stride(from: 0, to: tle.count, by: 2) {
            let line2 = tle[index + 1]
            let times = line2.dropFirst(69).split(separator: " ").compactMap { Double($0) }
            try #require(times.count == 3)
            let elements = try TwoLineElements(name: nil, line1: Self.withChecksum(String(tle[index].prefix(69))),
                                               line2: Self.withChecksum(String(line2.prefix(69))))
            let reference = blocks[index / 2]
            let propagator: SGP4
            do {
                propagator = try SGP4(elements)
            } catch {
                errors.append(error.code)
                continue
            }
            // As Vallado's test driver: the epoch, then start to stop by step, then the stop time.
            var minutes = [0.0]
            var t = times[0]
            while t <= times[1] {
                if !(t == 0 && times[0] == 0) { minutes.append(t) }
                t += times[2]
            }
            if t - times[1] < times[2] - 1e-6 { minutes.append(times[1]) }
            var produced = 0
            for minute in minutes {
                do {
                    let state = try propagator.propagate(minutesSinceEpoch: minute)
                    guard produced < reference.count else { break }
                    let (time, position, velocity) = reference[produced]
                    #expect(abs(time - minute) < 1e-6, "satellite \(elements.catalogNumber): state \(produced) at \(minute) min, tcppver.out at \(time)")
                    worstPosition = max(worstPosition, simdLength(state.position - position))
                    worstVelocity = max(worstVelocity, simdLength(state.velocity - velocity))
                    produced += 1
                    states += 1
                } catch {
                    errors.append(error.code)
                    break
                }
            }
            #expect(produced == reference.count, "satellite \(elements.catalogNumber): \(produced) states, tcppver.out has \(reference.count)")
        }
        #expect(states > 500)
        #expect(worstPosition < 1e-6, "worst position difference \(worstPosition * 1e6) mm")
        #expect(worstVelocity < 1e-8, "worst velocity difference \(worstVelocity * 1e6) mm/s")
        #expect(errors == [1, 1, 6, 6, 4, 3, 6])
    }
}

private func simdLength(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
